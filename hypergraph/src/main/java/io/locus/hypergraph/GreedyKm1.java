package io.locus.hypergraph;

import java.util.Arrays;

/**
 * {@code GreedyKm1}: the default Online-HPS partitioner, exactly the PARTITION pseudocode of spec
 * §2.2. Fixed vertices first; then free vertices by (w desc, id asc), each to the feasible part
 * with the largest connection cost (tie: smaller W, then lower part); then up to {@code maxPasses}
 * passes of positive-gain single-vertex moves by vertex id. Deterministic: the seed is not used.
 *
 * <p>Gains are summed net by net in incidence order, as printed, so ties resolve exactly as in the
 * spec even with non-integral costs. Cost is O(pins·k) per pass, fine at the spec's sizes (P = 4,
 * at most about 1,000 vertices).
 */
public final class GreedyKm1 implements Partitioner {
  public static final int DEFAULT_MAX_PASSES = 10;

  private final int maxPasses;

  public GreedyKm1() {
    this(DEFAULT_MAX_PASSES);
  }

  /** {@code maxPasses = 0} is the initial greedy placement alone (the {@link Greedy} baseline). */
  public GreedyKm1(int maxPasses) {
    if (maxPasses < 0) {
      throw new IllegalArgumentException("maxPasses must be >= 0: " + maxPasses);
    }
    this.maxPasses = maxPasses;
  }

  @Override
  public String name() {
    return maxPasses == DEFAULT_MAX_PASSES ? "GreedyKm1" : "GreedyKm1(maxPasses=" + maxPasses + ")";
  }

  @Override
  public Partition partition(Hypergraph h, int k, double eps, int[] fixed, long seed) {
    fixed = Partitioner.checkArguments(h, k, eps, fixed);
    int n = h.n;
    double lMax = (1 + eps) * h.totalWeight / k;
    int[] part = new int[n];
    Arrays.fill(part, -1);
    double[] load = new double[k];
    int[] pinsIn = new int[h.m * k]; // pinsIn(e, p) = pinsIn[e·k + p]
    int free = 0;
    for (int v = 0; v < n; v++) {
      if (fixed[v] >= 0) {
        place(h, k, v, fixed[v], part, load, pinsIn);
      } else {
        free++;
      }
    }
    Integer[] order = new Integer[free];
    for (int v = 0, i = 0; v < n; v++) {
      if (fixed[v] < 0) {
        order[i++] = v;
      }
    }
    // Stable sort on (w desc); the id-ascending input order breaks ties.
    Arrays.sort(order, (x, y) -> Double.compare(h.weight[y], h.weight[x]));

    double[] conn = new double[k];
    for (int v : order) {
      Arrays.fill(conn, 0);
      for (int i = h.vertexStart[v]; i < h.vertexStart[v + 1]; i++) {
        int e = h.nets[i];
        for (int p = 0; p < k; p++) {
          if (pinsIn[e * k + p] > 0) {
            conn[p] += h.cost[e];
          }
        }
      }
      double w = h.weight[v];
      boolean anyFeasible = false;
      for (int p = 0; p < k && !anyFeasible; p++) {
        anyFeasible = load[p] + w <= lMax;
      }
      int fallback = anyFeasible ? -1 : argminLoad(load); // feasible = ∅: the lightest part
      int best = -1;
      for (int p = 0; p < k; p++) {
        if (anyFeasible ? load[p] + w > lMax : p != fallback) {
          continue;
        }
        if (best < 0 || conn[p] > conn[best] || (conn[p] == conn[best] && load[p] < load[best])) {
          best = p; // scanning p ascending keeps the lower part on a full tie
        }
      }
      place(h, k, v, best, part, load, pinsIn);
    }

    double[] gain = new double[k];
    for (int pass = 0; pass < maxPasses; pass++) {
      boolean moved = false;
      for (int v = 0; v < n; v++) {
        if (fixed[v] >= 0) {
          continue;
        }
        int a = part[v];
        Arrays.fill(gain, 0);
        for (int i = h.vertexStart[v]; i < h.vertexStart[v + 1]; i++) {
          int e = h.nets[i];
          double c = h.cost[e];
          int leaves = pinsIn[e * k + a] == 1 ? 1 : 0;
          for (int b = 0; b < k; b++) {
            if (b != a) {
              gain[b] += c * (leaves - (pinsIn[e * k + b] == 0 ? 1 : 0));
            }
          }
        }
        double w = h.weight[v];
        int best = -1;
        for (int b = 0; b < k; b++) {
          if (b == a || !(gain[b] > 0) || load[b] + w > lMax) {
            continue;
          }
          if (best < 0 || gain[b] > gain[best]
              || (gain[b] == gain[best] && load[b] < load[best])) {
            best = b;
          }
        }
        if (best >= 0) {
          unplace(h, k, v, part, load, pinsIn);
          place(h, k, v, best, part, load, pinsIn);
          moved = true;
        }
      }
      if (!moved) {
        break;
      }
    }
    return Partition.trusted(h, k, part);
  }

  private static int argminLoad(double[] load) {
    int best = 0;
    for (int p = 1; p < load.length; p++) {
      if (load[p] < load[best]) {
        best = p;
      }
    }
    return best;
  }

  private static void place(Hypergraph h, int k, int v, int p, int[] part, double[] load,
      int[] pinsIn) {
    part[v] = p;
    load[p] += h.weight[v];
    for (int i = h.vertexStart[v]; i < h.vertexStart[v + 1]; i++) {
      pinsIn[h.nets[i] * k + p]++;
    }
  }

  private static void unplace(Hypergraph h, int k, int v, int[] part, double[] load,
      int[] pinsIn) {
    int p = part[v];
    load[p] -= h.weight[v];
    for (int i = h.vertexStart[v]; i < h.vertexStart[v + 1]; i++) {
      pinsIn[h.nets[i] * k + p]--;
    }
  }
}
