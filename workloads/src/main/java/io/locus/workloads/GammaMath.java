package io.locus.workloads;

import java.util.SplittableRandom;

/** The gamma distribution pieces the Lublin model needs; small enough not to pull in a library. */
final class GammaMath {
  private static final double EPS = 1e-15;
  private static final int MAX_ITER = 10_000;
  private static final double[] LANCZOS = {
      0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
      -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
      1.5056327351493116e-7};

  private GammaMath() {}

  /** ln Γ(x) for x > 0 (Lanczos, g = 7; relative error about 1e-15). */
  static double lnGamma(double x) {
    if (x < 0.5) { // reflection keeps the series in its accurate range
      return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lnGamma(1 - x);
    }
    x -= 1;
    double a = LANCZOS[0];
    double t = x + 7.5;
    for (int i = 1; i < LANCZOS.length; i++) {
      a += LANCZOS[i] / (x + i);
    }
    return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
  }

  /** CDF of Gamma(shape, scale) at x: the regularised lower incomplete gamma P(shape, x/scale). */
  static double gammaCdf(double x, double shape, double scale) {
    if (x <= 0) {
      return 0;
    }
    double z = x / scale;
    // Series converges fast below shape + 1, the continued fraction above (Numerical Recipes 6.2).
    return z < shape + 1 ? lowerSeries(shape, z) : 1 - upperFraction(shape, z);
  }

  private static double lowerSeries(double a, double z) {
    double ap = a;
    double del = 1 / a;
    double sum = del;
    for (int n = 0; n < MAX_ITER; n++) {
      ap += 1;
      del *= z / ap;
      sum += del;
      if (Math.abs(del) < Math.abs(sum) * EPS) {
        return sum * Math.exp(-z + a * Math.log(z) - lnGamma(a));
      }
    }
    throw new ArithmeticException("gamma series did not converge for a=" + a + " z=" + z);
  }

  private static double upperFraction(double a, double z) {
    double tiny = 1e-300;
    double b = z + 1 - a;
    double c = 1 / tiny;
    double d = 1 / b;
    double h = d;
    for (int i = 1; i < MAX_ITER; i++) {
      double an = -i * (i - a);
      b += 2;
      d = an * d + b;
      if (Math.abs(d) < tiny) {
        d = tiny;
      }
      c = b + an / c;
      if (Math.abs(c) < tiny) {
        c = tiny;
      }
      d = 1 / d;
      double del = d * c;
      h *= del;
      if (Math.abs(del - 1) < EPS) {
        return Math.exp(-z + a * Math.log(z) - lnGamma(a)) * h;
      }
    }
    throw new ArithmeticException("gamma fraction did not converge for a=" + a + " z=" + z);
  }

  /** A Gamma(shape, scale) variate, shape ≥ 1 (Marsaglia and Tsang, 2000). */
  static double sampleGamma(SplittableRandom rng, double shape, double scale) {
    if (shape < 1) {
      throw new IllegalArgumentException("shape must be >= 1: " + shape);
    }
    double d = shape - 1.0 / 3;
    double c = 1 / Math.sqrt(9 * d);
    while (true) {
      double x = rng.nextGaussian();
      double v = 1 + c * x;
      if (v <= 0) {
        continue;
      }
      v = v * v * v;
      double u = rng.nextDouble();
      if (u < 1 - 0.0331 * x * x * x * x
          || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) {
        return d * v * scale;
      }
    }
  }
}
