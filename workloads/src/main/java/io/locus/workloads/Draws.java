package io.locus.workloads;

import java.util.SplittableRandom;

/** Random draws shared by the generators, all from an explicitly seeded stream. */
final class Draws {
  private Draws() {}

  /** A uniformly random permutation of 0 … n−1. */
  static int[] permutation(int n, SplittableRandom rng) {
    int[] a = new int[n];
    for (int i = 0; i < n; i++) {
      a[i] = i;
    }
    shuffle(a, rng);
    return a;
  }

  /** Fisher–Yates, in place. */
  static void shuffle(int[] a, SplittableRandom rng) {
    for (int i = a.length - 1; i > 0; i--) {
      int j = rng.nextInt(i + 1);
      int t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
  }

  /** Binomial(trials, p) as a sum of Bernoulli draws; trials is tiny here (6). */
  static int binomial(int trials, double p, SplittableRandom rng) {
    int k = 0;
    for (int i = 0; i < trials; i++) {
      if (rng.nextDouble() < p) {
        k++;
      }
    }
    return k;
  }
}
