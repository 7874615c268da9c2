package io.locus.sim.hybrid;

import java.util.Locale;

/** Mean, sample standard deviation, min and max of a few runs. */
public record Stat(double mean, double sd, double min, double max, int n) {
  public static Stat of(double[] xs) {
    if (xs.length == 0) {
      throw new IllegalArgumentException("no values");
    }
    double m = 0;
    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    for (double x : xs) {
      m += x;
      lo = Math.min(lo, x);
      hi = Math.max(hi, x);
    }
    m /= xs.length;
    double v = 0;
    for (double x : xs) {
      v += (x - m) * (x - m);
    }
    double sd = xs.length > 1 ? Math.sqrt(v / (xs.length - 1)) : 0;
    return new Stat(m, sd, lo, hi, xs.length);
  }

  /** "mean ± sd" with {@code digits} decimals. */
  public String meanSd(int digits) {
    return fmt(mean, digits) + " ± " + fmt(sd, digits);
  }

  static String fmt(double v, int digits) {
    return String.format(Locale.ROOT, "%." + digits + "f", v);
  }
}
