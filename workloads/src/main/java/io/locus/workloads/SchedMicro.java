package io.locus.workloads;

import io.locus.core.model.InputFile;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * {@code SCHED_MICRO}, the scheduler microbenchmark (data-diffusion spec §4.5, experiment DD6).
 *
 * <p>250,000 tasks, all at t = 0, each reading one file drawn uniformly, with replacement, from
 * 10,000 files of 1 B; no compute, so only dispatch decisions cost time. The "FA without I/O"
 * variant ({@code io = false}) has tasks with no input at all.
 */
public final class SchedMicro {
  public static final int TASKS = 250_000;
  public static final int FILES = 10_000;
  public static final long FILE_BYTES = 1;

  private SchedMicro() {}

  public static Workload workload(boolean io, long seed) {
    return new Workload("sched-micro",
        "SCHED_MICRO (data-diffusion §4.5): 250,000 tasks at t = 0, "
            + (io ? "each reading 1 of 10,000 files of 1 B" : "without I/O") + "; seed " + seed,
        TASKS, () -> {
          SplittableRandom rng = new SplittableRandom(seed);
          return new CountingIterator(TASKS) {
            @Override
            TraceJob make(long k) {
              List<InputFile> in = io
                  ? List.of(new InputFile("sm-f" + rng.nextInt(FILES), FILE_BYTES, 0.0, null, null))
                  : List.of();
              return new TraceJob("sm-" + k, null, 0.0, in, 0.0, 0, Map.of());
            }
          };
        });
  }
}
