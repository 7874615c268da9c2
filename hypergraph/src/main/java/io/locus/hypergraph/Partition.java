package io.locus.hypergraph;

import java.util.Arrays;

/**
 * A k-way partition of a hypergraph: the part of every vertex, with its part weights and its
 * connectivity−1 cutsize χ(Π) = Σ_n c_n·(λ_n − 1) (spec §2.2). Immutable; empty parts are allowed
 * (D8).
 */
public final class Partition {
  /**
   * Relative slack of {@link #isBalanced}: partitioners test {@code W + w ≤ L_max} on running sums,
   * which may round differently from the vertex-order sums kept here.
   */
  public static final double BALANCE_TOLERANCE = 1e-9;

  private final Hypergraph h;
  private final int k;
  private final int[] part;
  private final double[] partWeight;
  private final double km1;

  private Partition(Hypergraph h, int k, int[] part) {
    this.h = h;
    this.k = k;
    this.part = part;
    this.partWeight = new double[k];
    for (int v = 0; v < part.length; v++) {
      partWeight[part[v]] += h.weight[v];
    }
    this.km1 = km1(h, k, part);
  }

  /** Validates and copies {@code parts}: one part in {@code [0, k)} per vertex. */
  public static Partition of(Hypergraph h, int k, int[] parts) {
    if (k < 1) {
      throw new IllegalArgumentException("k must be >= 1: " + k);
    }
    if (parts.length != h.n) {
      throw new IllegalArgumentException("need one part per vertex: " + parts.length + " for "
          + h.n + " vertices");
    }
    for (int v = 0; v < parts.length; v++) {
      if (parts[v] < 0 || parts[v] >= k) {
        throw new IllegalArgumentException("vertex " + v + " has part " + parts[v] + ", k = " + k);
      }
    }
    return new Partition(h, k, parts.clone());
  }

  /** No copy, no checks: for partitioners of this package that built {@code parts} themselves. */
  static Partition trusted(Hypergraph h, int k, int[] parts) {
    return new Partition(h, k, parts);
  }

  /** χ(Π) = Σ_n c_n·(λ_n − 1), summed over nets in id order. */
  static double km1(Hypergraph h, int k, int[] part) {
    int[] mark = new int[k];
    Arrays.fill(mark, -1);
    double chi = 0;
    for (int e = 0; e < h.m; e++) {
      int lambda = 0;
      for (int i = h.netStart[e]; i < h.netStart[e + 1]; i++) {
        int p = part[h.pins[i]];
        if (mark[p] != e) {
          mark[p] = e;
          lambda++;
        }
      }
      if (lambda > 1) {
        chi += h.cost[e] * (lambda - 1);
      }
    }
    return chi;
  }

  public Hypergraph hypergraph() {
    return h;
  }

  public int k() {
    return k;
  }

  public int part(int v) {
    return part[v];
  }

  /** A copy of the part of every vertex. */
  public int[] parts() {
    return part.clone();
  }

  public double partWeight(int p) {
    return partWeight[p];
  }

  public double[] partWeights() {
    return partWeight.clone();
  }

  public double maxPartWeight() {
    double mx = 0;
    for (double w : partWeight) {
      mx = Math.max(mx, w);
    }
    return mx;
  }

  /** The connectivity−1 cutsize χ(Π). */
  public double km1() {
    return km1;
  }

  /** λ_e: the number of parts net e touches. */
  public int connectivity(int e) {
    int lambda = 0;
    long[] seen = new long[(k + 63) >>> 6];
    for (int i = h.netStart[e]; i < h.netStart[e + 1]; i++) {
      int p = part[h.pins[i]];
      if ((seen[p >>> 6] & (1L << p)) == 0) {
        seen[p >>> 6] |= 1L << p;
        lambda++;
      }
    }
    return lambda;
  }

  /** The number of nets that touch two parts or more. */
  public int cutNets() {
    int cut = 0;
    for (int e = 0; e < h.m; e++) {
      int first = part[h.pins[h.netStart[e]]];
      for (int i = h.netStart[e] + 1; i < h.netStart[e + 1]; i++) {
        if (part[h.pins[i]] != first) {
          cut++;
          break;
        }
      }
    }
    return cut;
  }

  /** L_max = (1 + ε)·Σ_v w(v)/k (spec §2.2). */
  public static double maxPartWeight(Hypergraph h, int k, double eps) {
    return (1 + eps) * h.totalWeight / k;
  }

  /** max_p W_p / (Σ w / k) − 1; 0 when every weight is 0. */
  public double imbalance() {
    if (h.totalWeight <= 0) {
      return 0;
    }
    return maxPartWeight() / (h.totalWeight / k) - 1;
  }

  /** Every W_p ≤ L_max, up to {@link #BALANCE_TOLERANCE} relative rounding slack. */
  public boolean isBalanced(double eps) {
    double lMax = maxPartWeight(h, k, eps);
    return maxPartWeight() <= lMax + BALANCE_TOLERANCE * Math.max(lMax, Double.MIN_NORMAL);
  }

  /** Σ_p max(0, W_p − L_max): what a soft balance constraint minimises when it cannot hold. */
  public double overload(double eps) {
    double lMax = maxPartWeight(h, k, eps);
    double over = 0;
    for (double w : partWeight) {
      over += Math.max(0, w - lMax);
    }
    return over;
  }

  /** Whether every vertex with {@code fixed[v] ≥ 0} is in that part ({@code null}: none fixed). */
  public boolean respects(int[] fixed) {
    if (fixed == null) {
      return true;
    }
    for (int v = 0; v < part.length; v++) {
      if (fixed[v] >= 0 && fixed[v] != part[v]) {
        return false;
      }
    }
    return true;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Partition p && p.h == h && p.k == k && Arrays.equals(p.part, part);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(part) * 31 + k;
  }

  @Override
  public String toString() {
    return "Partition[k=" + k + ", km1=" + km1 + ", imbalance=" + imbalance() + "]";
  }
}
