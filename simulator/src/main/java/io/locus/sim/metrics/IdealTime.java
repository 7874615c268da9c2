package io.locus.sim.metrics;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Ideal completion time (spec §6), the numerator of efficiency:
 *
 * <ul>
 *   <li>open workloads: the arrival span when compute is negligible; §6 states 1,415 s for MI and
 *       6,505 s for SW, used as given for those names; other open workloads use ⌈last − first
 *       arrival⌉;
 *   <li>staged workloads (every job has stage ≥ 1, STAGES18): Σ_k ⌈n_k / slots⌉ · len_k, the waves
 *       of each stage on all slots, len_k being the stage's longest task;
 *   <li>everything submitted at once (a closed batch, e.g. STACKING): undefined, NaN.
 * </ul>
 */
public final class IdealTime {
  /** §6 / §4.1. */
  public static final double MI_SECONDS = 1415;
  /** §6 / §4.2. */
  public static final double SW_SECONDS = 6505;

  private final TreeMap<Integer, long[]> stageCounts = new TreeMap<>();
  private final TreeMap<Integer, Double> stageLength = new TreeMap<>();
  private boolean unstaged;

  /** Notes one job of the workload. */
  public void add(int stage, double taskSeconds) {
    if (stage == 0) {
      unstaged = true;
      return;
    }
    stageCounts.computeIfAbsent(stage, s -> new long[1])[0]++;
    stageLength.merge(stage, taskSeconds, Math::max);
  }

  /** The ideal time of the jobs noted so far. */
  public double ideal(String workload, double firstArrival, double lastArrival, int slots) {
    if (!unstaged && !stageCounts.isEmpty()) {
      return staged(counts(), stageLength, slots);
    }
    String name = workload == null ? "" : workload.toLowerCase(Locale.ROOT);
    if (name.equals("mi")) {
      return MI_SECONDS;
    }
    if (name.equals("sw")) {
      return SW_SECONDS;
    }
    double span = lastArrival - firstArrival;
    return span > 0 ? Math.ceil(span) : Double.NaN;
  }

  private Map<Integer, Long> counts() {
    Map<Integer, Long> m = new TreeMap<>();
    stageCounts.forEach((s, c) -> m.put(s, c[0]));
    return m;
  }

  /** Σ_k ⌈n_k / slots⌉ · len_k (spec §4.7; E10 gives 1,260 s for STAGES18 on 32 slots). */
  public static double staged(Map<Integer, Long> tasksPerStage, Map<Integer, Double> lengthPerStage,
      int slots) {
    if (slots < 1) {
      throw new IllegalArgumentException("slots must be >= 1: " + slots);
    }
    double t = 0;
    for (Map.Entry<Integer, Long> e : tasksPerStage.entrySet()) {
      long waves = (e.getValue() + slots - 1) / slots;
      t += waves * lengthPerStage.get(e.getKey());
    }
    return t;
  }
}
