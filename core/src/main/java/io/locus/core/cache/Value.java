package io.locus.core.cache;

import java.util.Map;
import java.util.function.Predicate;

/**
 * Khanna's VALUE eviction (Eq. 7): the victim has the least AccessFreq · size / NumCopies, so small,
 * rarely used, well-replicated files go first. AccessFreq and NumCopies are pool-wide and read from
 * the pool's {@link FileStats}. Ties go to the least recently used file; the caller resolves equal
 * recency to the lowest id by touching files used at the same instant in id order (the scheduler's
 * {@code StagedCache} does). The victim is a scan of the node's files: values change pool-wide.
 */
public final class Value extends RecencyOrder {
  private static final double MIB = 1024.0 * 1024.0;

  private final FileStats stats;
  /** File → bytes, oldest access first. */

  public Value(FileStats stats) {
    if (stats == null) {
      throw new IllegalArgumentException("VALUE eviction needs the pool's FileStats");
    }
    this.stats = stats;
  }

  @Override
  public String name() {
    return "VALUE";
  }

  /** Eq. 7 with size in MiB; NumCopies below 1 (not yet counted) reads as 1. */
  public double value(String file) {
    Long bytes = order.get(file);
    return bytes == null ? Double.NaN : value(file, bytes);
  }

  private double value(String file, long bytes) {
    return stats.accessFreq(file) * (bytes / MIB) / Math.max(1, stats.numCopies(file));
  }

  @Override
  public String victim(Predicate<String> pinned) {
    String best = null;
    double bestValue = Double.POSITIVE_INFINITY;
    for (Map.Entry<String, Long> e : order.entrySet()) {
      if (pinned.test(e.getKey())) {
        continue;
      }
      double v = value(e.getKey(), e.getValue());
      // strict: among equal values the older (earlier in the order) wins
      if (best == null || v < bestValue) {
        best = e.getKey();
        bestValue = v;
      }
    }
    return best;
  }
}
