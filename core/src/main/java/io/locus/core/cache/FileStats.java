package io.locus.core.cache;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Pool-wide file statistics for the VALUE eviction metric (Khanna Eq. 7): AccessFreq(f), the number
 * of job accesses to f in the whole pool, and NumCopies(f), the number of compute nodes holding f
 * (PRESENT or IN_FLIGHT). The pool owns one instance and updates it (AccessFreq at commit; copies at
 * staging, replication and eviction, spec D14); {@link Value} only reads it.
 */
public final class FileStats {
  private final Map<String, long[]> stats = new HashMap<>();

  public long accessFreq(String file) {
    long[] s = stats.get(file);
    return s == null ? 0 : s[0];
  }

  public int numCopies(String file) {
    long[] s = stats.get(file);
    return s == null ? 0 : (int) s[1];
  }

  /** One more job access; returns the new AccessFreq. */
  public long recordAccess(String file) {
    return ++entry(file)[0];
  }

  /** One more node holds (or is receiving) the file; returns the new NumCopies. */
  public int addCopy(String file) {
    return (int) ++entry(file)[1];
  }

  /** One node dropped the file; returns the new NumCopies (never below 0). */
  public int removeCopy(String file) {
    long[] s = entry(file);
    if (s[1] > 0) {
      s[1]--;
    }
    return (int) s[1];
  }

  public Set<String> files() {
    return Collections.unmodifiableSet(stats.keySet());
  }

  /** Restores a persisted entry (driver use). */
  public void restore(String file, long accessFreq, int numCopies) {
    stats.put(file, new long[] {accessFreq, numCopies});
  }

  public void clear() {
    stats.clear();
  }

  private long[] entry(String file) {
    return stats.computeIfAbsent(file, f -> new long[2]);
  }
}
