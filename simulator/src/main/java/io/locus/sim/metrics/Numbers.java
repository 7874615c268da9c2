package io.locus.sim.metrics;

import java.math.BigDecimal;

/** Number formatting shared by summaries, CSV files and tables. */
public final class Numbers {
  private Numbers() {}

  /**
   * Integers without a decimal point, others with at most 6 significant digits and no trailing
   * zeros; NaN as an empty string (a missing value in CSV).
   */
  public static String format(double v) {
    if (Double.isNaN(v)) {
      return "";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "inf" : "-inf";
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    BigDecimal d = new BigDecimal(v).round(new java.math.MathContext(6)).stripTrailingZeros();
    return Math.abs(v) >= 1e-4 && Math.abs(v) < 1e15 ? d.toPlainString() : d.toString();
  }

  /**
   * A duration for tables: one decimal from 100 s up, three from 1 s, else four significant digits
   * (SCHED_MICRO runs finish in milliseconds of virtual time).
   */
  public static String seconds(double v) {
    if (Double.isNaN(v)) {
      return "-";
    }
    double a = Math.abs(v);
    if (a >= 100 || v == 0) {
      return fixed(v, 1);
    }
    if (a >= 1) {
      return fixed(v, 3);
    }
    return new BigDecimal(v).round(new java.math.MathContext(4)).stripTrailingZeros()
        .toPlainString();
  }

  /** Fixed decimals, for aligned tables. */
  public static String fixed(double v, int decimals) {
    if (Double.isNaN(v)) {
      return "-";
    }
    return String.format(java.util.Locale.ROOT, "%." + decimals + "f", v);
  }
}
