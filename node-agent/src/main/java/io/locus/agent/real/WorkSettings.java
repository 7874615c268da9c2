package io.locus.agent.real;

import io.locus.agent.config.Setting;
import java.nio.file.Path;

/**
 * [work] Where task runs get their directories.
 *
 * @param dir [work.dir] one directory per task run; null in a host's template (set per agent)
 * @param keep [work.keep] finished work directories kept for inspection (default 20)
 */
public record WorkSettings(Path dir, Integer keep) {
  public static final WorkSettings DEFAULTS = new WorkSettings(null, null);

  public WorkSettings {
    keep = Setting.atLeast("keep", Setting.orDefault(keep, 20), 0);
  }

  public WorkSettings withDir(Path d) {
    return new WorkSettings(d, keep);
  }
}
