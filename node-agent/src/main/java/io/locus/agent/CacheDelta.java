package io.locus.agent;

import io.locus.schemas.CachedFile;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Cache changes not yet reported in a CACHE_DELTA. A file is never in both sets: the net change is
 * kept, so a file added and removed again before the report goes out is not mentioned at all.
 */
final class CacheDelta {
  // Made on first use: most runs (cache hits) never change the cache, and one delta is opened per
  // run, thousands per second on a sim host.
  private Map<String, Long> added = Collections.emptyMap();
  private Set<String> removed = Collections.emptySet();

  void add(String fileId, long bytes) {
    removed.remove(fileId);
    if (added.isEmpty()) {
      added = new LinkedHashMap<>();
    }
    added.put(fileId, bytes);
  }

  void remove(String fileId) {
    // Added and removed before the report went out: the scheduler never needs to hear of it.
    if (added.remove(fileId) == null) {
      if (removed.isEmpty()) {
        removed = new LinkedHashSet<>();
      }
      removed.add(fileId);
    }
  }

  /**
   * The file is in the cache again (another delta added it): an eviction of it held here must not
   * reach the scheduler after that insert, or its index would lose a file that is here.
   */
  void forgetRemoval(String fileId) {
    removed.remove(fileId);
  }

  boolean isEmpty() {
    return added.isEmpty() && removed.isEmpty();
  }

  List<CachedFile> added() {
    List<CachedFile> out = new ArrayList<>();
    added.forEach((f, b) -> out.add(new CachedFile(f, b)));
    return out;
  }

  List<String> removed() {
    return new ArrayList<>(removed);
  }

  void clear() {
    added = Collections.emptyMap();
    removed = Collections.emptySet();
  }
}
