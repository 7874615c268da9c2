package io.locus.workloads;

import java.util.SplittableRandom;

/**
 * The typeless Lublin–Feitelson arrival model (hypergraph spec §4.4, D25): gamma-distributed
 * log inter-arrival times, modulated by a daily cycle of 48 half-hour buckets whose weights come
 * from a gamma density over the hour of the day. The state (bucket, points, remainder) carries over
 * from one arrival to the next, as in the model's reference code.
 */
final class LublinArrivals {
  static final double AARR = 10.2303;
  static final double BARR = 0.4871;
  static final double ANUM = 8.1737;
  static final double BNUM = 3.9631;
  static final double ARAR = 1.0225;
  static final int BUCKETS = 48;
  static final double SECONDS_IN_BUCKET = 1800;
  static final int CYCLIC_DAY_START = 11;
  static final double TOO_MUCH_ARRIVE_TIME = 13;

  private final double[] w = weights();
  private final SplittableRandom rng;
  private int bucket;
  private double points;
  private double remainder;
  private double t;

  LublinArrivals(SplittableRandom rng) {
    this.rng = rng;
  }

  /** Bucket weights, normalised to mean 1 (so they sum to 48). */
  static double[] weights() {
    double[] w = new double[BUCKETS];
    for (int i = CYCLIC_DAY_START; i < CYCLIC_DAY_START + BUCKETS; i++) {
      int idx = (i - 1) % BUCKETS;
      w[idx] = GammaMath.gammaCdf(i + 0.5, ANUM, BNUM) - GammaMath.gammaCdf(i - 0.5, ANUM, BNUM);
    }
    double mean = 0;
    for (double x : w) {
      mean += x;
    }
    mean /= BUCKETS;
    for (int i = 0; i < BUCKETS; i++) {
      w[i] /= mean;
    }
    return w;
  }

  /** Time of the next arrival, in the model's own (unscaled) seconds. */
  double next() {
    double gam;
    do {
      gam = GammaMath.sampleGamma(rng, AARR * ARAR, BARR);
    } while (gam > TOO_MUCH_ARRIVE_TIME);
    points += Math.exp(gam) / SECONDS_IN_BUCKET;
    double dt = 0;
    while (points > w[bucket]) {
      points -= w[bucket];
      bucket = (bucket + 1) % BUCKETS;
      dt += SECONDS_IN_BUCKET;
    }
    double r = points / w[bucket];
    dt += SECONDS_IN_BUCKET * (r - remainder);
    remainder = r;
    t += dt;
    return t;
  }

  /** N arrivals, rescaled linearly so the last is exactly {@code tlArrival}. */
  static double[] generate(int n, double tlArrival, SplittableRandom rng) {
    LublinArrivals model = new LublinArrivals(rng);
    double[] a = new double[n];
    for (int i = 0; i < n; i++) {
      a[i] = model.next();
    }
    return rescale(a, tlArrival);
  }

  /**
   * Scales ascending times so the last equals {@code tl} exactly. x · (tl / last) can land one ulp
   * away from tl, so the last is set, not computed, and the others are capped at it; one common
   * factor keeps the order.
   */
  static double[] rescale(double[] a, double tl) {
    int n = a.length;
    double factor = tl / a[n - 1];
    for (int i = 0; i < n - 1; i++) {
      a[i] = Math.min(a[i] * factor, tl);
    }
    a[n - 1] = tl;
    return a;
  }
}
