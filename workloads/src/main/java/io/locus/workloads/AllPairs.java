package io.locus.workloads;

import io.locus.core.model.InputFile;
import java.util.List;
import java.util.Map;

/**
 * {@code AP}, all-pairs (data-diffusion spec §4.3).
 *
 * <p>Task (i, j) for i, j in 0 … N−1 reads items A_i and B_j (12 MB each), in row-major order, all
 * submitted at t = 0. There are N² tasks over 2N files, each file used N times. Nothing is random:
 * the seed is not used.
 */
public final class AllPairs {
  public static final long ITEM_BYTES = 12 * Units.MB;

  private AllPairs() {}

  /** @param n items per side (500 in DD3, 1000 in DD4); @param computeSeconds per task */
  public static Workload workload(int n, double computeSeconds) {
    if (n < 1) {
      throw new IllegalArgumentException("AP needs n >= 1, got " + n);
    }
    if (!(computeSeconds >= 0) || Double.isInfinite(computeSeconds)) {
      throw new IllegalArgumentException("AP compute must be finite and >= 0: " + computeSeconds);
    }
    long tasks = (long) n * n;
    return new Workload("ap",
        "AP (data-diffusion §4.3): all pairs of " + n + " x " + n + " items of 12 MB, row-major, "
            + "all at t = 0, compute " + computeSeconds + " s",
        tasks, () -> new CountingIterator(tasks) {
          @Override
          TraceJob make(long k) {
            long i = k / n;
            long j = k % n;
            List<InputFile> in = List.of(
                new InputFile("ap-a" + i, ITEM_BYTES, 0.0, null, null),
                new InputFile("ap-b" + j, ITEM_BYTES, 0.0, null, null));
            return new TraceJob("ap-" + i + "-" + j, null, 0.0, in, computeSeconds, 0, Map.of());
          }
        });
  }
}
