package io.locus.agent.real;

import io.locus.agent.config.Setting;
import java.nio.file.Path;

/**
 * [work] Where task runs get their directories.
 *
 * @param dir [work.dir] one directory per task run; null in a host's template (set per agent)
 * @param keep [work.keep] finished work directories kept for inspection (default 20)
 * @param recycle [work.recycle] a directory leaving the kept ones clean (only an empty out/ and
 *     tmp/, stdout, stderr) is renamed for a later run instead of deleted and created again
 *     (default true; see {@link WorkDirs})
 */
public record WorkSettings(Path dir, Integer keep, Boolean recycle) {
  public static final WorkSettings DEFAULTS = new WorkSettings(null, null, null);

  public WorkSettings {
    keep = Setting.atLeast("keep", Setting.orDefault(keep, 20), 0);
    recycle = Setting.orDefault(recycle, true);
  }

  public WorkSettings withDir(Path d) {
    return new WorkSettings(d, keep, recycle);
  }

  public WorkSettings withRecycle(boolean r) {
    return new WorkSettings(dir, keep, r);
  }
}
