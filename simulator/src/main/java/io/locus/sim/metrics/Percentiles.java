package io.locus.sim.metrics;

import java.util.Arrays;

/** Nearest-rank percentiles. */
public final class Percentiles {
  private Percentiles() {}

  /** The p-th percentile (0 < p ≤ 100) by nearest rank; NaN for no values. */
  public static double nearestRank(double[] values, double p) {
    if (values.length == 0) {
      return Double.NaN;
    }
    if (!(p > 0 && p <= 100)) {
      throw new IllegalArgumentException("percentile must be in (0, 100]: " + p);
    }
    double[] s = values.clone();
    Arrays.sort(s);
    int rank = (int) Math.ceil(p / 100.0 * s.length);
    return s[Math.max(0, rank - 1)];
  }
}
