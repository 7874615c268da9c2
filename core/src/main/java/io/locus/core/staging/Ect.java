package io.locus.core.staging;

import java.util.List;

/**
 * ECT(j, k, t0) and its staging plan. {@code readStart} is the end of the last transfer (t0 when
 * nothing is fetched); {@code completion} = readStart + Σ size·(1/LBW + C).
 */
public record Ect(double completion, double readStart, List<PlannedTransfer> plan) {
  public Ect {
    plan = List.copyOf(plan);
  }

  /** Start(j): the first transfer's start, or {@code t0} when every file is local. */
  public double start(double t0) {
    double s = Double.POSITIVE_INFINITY;
    for (PlannedTransfer p : plan) {
      s = Math.min(s, p.start());
    }
    return plan.isEmpty() ? t0 : s;
  }
}
