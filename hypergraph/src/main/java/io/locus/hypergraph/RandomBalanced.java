package io.locus.hypergraph;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Baseline: a seeded random partition that respects balance. Free vertices go, heaviest first
 * (ties in random order), to a uniformly random part with room (W_p + w ≤ L_max), else to the
 * lightest part. Placing heavy vertices first keeps it balanced whenever a greedy packing is.
 */
public final class RandomBalanced implements Partitioner {
  @Override
  public String name() {
    return "RandomBalanced";
  }

  @Override
  public Partition partition(Hypergraph h, int k, double eps, int[] fixed, long seed) {
    fixed = Partitioner.checkArguments(h, k, eps, fixed);
    SplittableRandom rng = new SplittableRandom(seed);
    double lMax = (1 + eps) * h.totalWeight / k;
    int[] part = new int[h.n];
    double[] load = new double[k];
    int free = 0;
    for (int v = 0; v < h.n; v++) {
      if (fixed[v] >= 0) {
        part[v] = fixed[v];
        load[fixed[v]] += h.weight[v];
      } else {
        free++;
      }
    }
    Integer[] order = new Integer[free];
    for (int v = 0, i = 0; v < h.n; v++) {
      if (fixed[v] < 0) {
        order[i++] = v;
      }
    }
    for (int i = free - 1; i > 0; i--) { // Fisher–Yates, then a stable sort by weight desc
      int j = rng.nextInt(i + 1);
      Integer t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    Arrays.sort(order, (x, y) -> Double.compare(h.weight[y], h.weight[x]));
    int[] room = new int[k];
    for (int v : order) {
      double w = h.weight[v];
      int rooms = 0;
      int lightest = 0;
      for (int p = 0; p < k; p++) {
        if (load[p] + w <= lMax) {
          room[rooms++] = p;
        }
        if (load[p] < load[lightest]) {
          lightest = p;
        }
      }
      int p = rooms > 0 ? room[rng.nextInt(rooms)] : lightest;
      part[v] = p;
      load[p] += w;
    }
    return Partition.trusted(h, k, part);
  }
}
