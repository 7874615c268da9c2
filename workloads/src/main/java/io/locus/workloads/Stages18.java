package io.locus.workloads;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code STAGES18}, the 18-stage dynamic-provisioning workload (data-diffusion spec §4.7, P2).
 *
 * <p>Stage k has {@code TASKS[k−1]} sleep tasks of {@code LENGTHS[k−1]} seconds with no I/O. Stage
 * k + 1 is submitted when every task of stage k has completed, so jobs carry {@code stage = k} and
 * arrival 0; the consumer releases them (see {@link TraceJob}). Nothing is random.
 */
public final class Stages18 {
  private static final int[] TASKS =
      {1, 2, 4, 8, 16, 32, 32, 1, 440, 385, 4, 24, 20, 16, 8, 4, 2, 1};
  private static final int[] LENGTHS =
      {60, 60, 60, 60, 60, 60, 60, 120, 6, 12, 60, 60, 60, 60, 60, 60, 60, 60};
  public static final int STAGES = TASKS.length;

  private Stages18() {}

  /** Tasks of stage k (1-based). */
  public static int tasks(int stage) {
    return TASKS[stage - 1];
  }

  /** Task length in seconds of stage k (1-based). */
  public static int length(int stage) {
    return LENGTHS[stage - 1];
  }

  public static Workload workload() {
    List<TraceJob> jobs = new ArrayList<>();
    for (int s = 1; s <= STAGES; s++) {
      for (int i = 0; i < tasks(s); i++) {
        jobs.add(new TraceJob("st" + s + "-" + i, null, 0.0, List.of(), length(s), s,
            Map.of()));
      }
    }
    return Workload.of("stages18",
        "STAGES18 (data-diffusion §4.7): 18 stages, " + jobs.size() + " sleep tasks without I/O;"
            + " stage k+1 starts when stage k has completed", jobs);
  }

  /**
   * Ideal completion time on {@code machines} single-slot machines that are always there:
   * Σ_k ⌈n_k / machines⌉ · len_k (the spec's ideal; 1,260 s on 32).
   */
  public static double idealCompletionSeconds(int machines) {
    double t = 0;
    for (int s = 1; s <= STAGES; s++) {
      t += (double) ceilDiv(tasks(s), machines) * length(s);
    }
    return t;
  }

  /**
   * Ideal mean queue time on {@code machines} always-present single-slot machines: a task of wave w
   * (0-based) of its stage waits w · len after the stage is released.
   */
  public static double idealMeanQueueSeconds(int machines) {
    double sum = 0;
    int count = 0;
    for (int s = 1; s <= STAGES; s++) {
      for (int i = 0; i < tasks(s); i++) {
        sum += (double) (i / machines) * length(s);
        count++;
      }
    }
    return sum / count;
  }

  private static int ceilDiv(int a, int b) {
    return (a + b - 1) / b;
  }
}
