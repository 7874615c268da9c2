package io.locus.hypergraph;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;

/** Small test hypergraphs, an independent χ, and a brute-force optimum. */
final class Instances {
  private Instances() {}

  /** A ring of n unit vertices and n unit 2-pin nets {i, i+1 mod n}. */
  static Hypergraph ring(int n) {
    Hypergraph.Builder b = Hypergraph.builder();
    b.addVertices(n, 1);
    for (int i = 0; i < n; i++) {
      b.addNet(1, i, (i + 1) % n);
    }
    return b.build();
  }

  /** A rows × cols grid graph as 2-pin nets, unit weights and costs. */
  static Hypergraph grid(int rows, int cols) {
    Hypergraph.Builder b = Hypergraph.builder();
    b.addVertices(rows * cols, 1);
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < cols; c++) {
        int v = r * cols + c;
        if (c + 1 < cols) {
          b.addNet(1, v, v + 1);
        }
        if (r + 1 < rows) {
          b.addNet(1, v, v + cols);
        }
      }
    }
    return b.build();
  }

  /**
   * {@code clusters} disjoint groups of {@code size} unit vertices; each group is covered by
   * {@code netsPerCluster} random nets of 2–4 pins inside it plus a spanning path, so the
   * optimum with one group per part is χ = 0.
   */
  static Hypergraph disjointClusters(int clusters, int size, int netsPerCluster, long seed) {
    SplittableRandom rng = new SplittableRandom(seed);
    Hypergraph.Builder b = Hypergraph.builder();
    b.addVertices(clusters * size, 1);
    for (int c = 0; c < clusters; c++) {
      int base = c * size;
      for (int i = 0; i + 1 < size; i++) {
        b.addNet(1 + rng.nextInt(3), base + i, base + i + 1);
      }
      for (int e = 0; e < netsPerCluster; e++) {
        int s = 2 + rng.nextInt(3);
        int[] pins = new int[s];
        for (int i = 0; i < s; i++) {
          pins[i] = base + rng.nextInt(size);
        }
        b.addNet(1 + rng.nextInt(3), pins);
      }
    }
    return b.build();
  }

  /** Random hypergraph: weights in [wLo, wHi], costs integers 1..maxCost, net sizes 2..maxPins. */
  static Hypergraph random(int n, int m, int maxPins, double wLo, double wHi, int maxCost,
      SplittableRandom rng) {
    Hypergraph.Builder b = Hypergraph.builder();
    for (int v = 0; v < n; v++) {
      b.addVertex(wLo + (wHi - wLo) * rng.nextDouble());
    }
    for (int e = 0; e < m; e++) {
      int s = 2 + rng.nextInt(Math.max(1, Math.min(maxPins, n) - 1));
      int[] pins = new int[s];
      for (int i = 0; i < s; i++) {
        pins[i] = rng.nextInt(n);
      }
      b.addNet(1 + rng.nextInt(maxCost), pins);
    }
    return b.build();
  }

  /** χ computed from sets of parts per net, independent of {@link Partition#km1()}. */
  static double km1BySets(Hypergraph h, int[] parts) {
    double chi = 0;
    for (int e = 0; e < h.numNets(); e++) {
      Set<Integer> touched = new HashSet<>();
      for (int p : h.pins(e)) {
        touched.add(parts[p]);
      }
      chi += h.cost(e) * (touched.size() - 1);
    }
    return chi;
  }

  /** χ = Σ_p Σ_{e touches p} c_e − Σ_e c_e: a second identity. */
  static double km1ByParts(Hypergraph h, int k, int[] parts) {
    double sum = 0;
    for (int p = 0; p < k; p++) {
      for (int e = 0; e < h.numNets(); e++) {
        for (int v : h.pins(e)) {
          if (parts[v] == p) {
            sum += h.cost(e);
            break;
          }
        }
      }
    }
    return sum - h.totalCost();
  }

  /** The optimum of an exhaustive search: least overload, then least χ. */
  record Optimum(double km1, boolean balanced, double overload) {}


  /**
   * Exhaustive search over all k^n assignments respecting {@code fixed}: the least χ among the
   * balanced ones (W_p ≤ (1+ε)·Σw/k), or, when none is balanced, the least overload.
   */
  static Optimum bruteForce(Hypergraph h, int k, double eps, int[] fixed) {
    int n = h.numVertices();
    double lMax = (1 + eps) * h.totalWeight() / k;
    int[] parts = new int[n];
    double[] load = new double[k];
    double[] best = {Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY}; // overload, χ
    search(h, k, lMax, fixed, 0, parts, load, best);
    return new Optimum(best[1], best[0] <= 1e-9, best[0]);
  }

  private static void search(Hypergraph h, int k, double lMax, int[] fixed, int v, int[] parts,
      double[] load, double[] best) {
    if (v == h.numVertices()) {
      double over = 0;
      for (double w : load) {
        over += Math.max(0, w - lMax);
      }
      double chi = fastKm1(h, k, parts);
      if (over < best[0] - 1e-9 || (over <= best[0] + 1e-9 && chi < best[1])) {
        best[0] = over;
        best[1] = chi;
      }
      return;
    }
    for (int p = 0; p < k; p++) {
      if (fixed != null && fixed[v] >= 0 && fixed[v] != p) {
        continue;
      }
      parts[v] = p;
      load[p] += h.weight(v);
      search(h, k, lMax, fixed, v + 1, parts, load, best);
      load[p] -= h.weight(v);
    }
  }

  /** χ with a mark array per net (the brute force evaluates k^n partitions). */
  private static double fastKm1(Hypergraph h, int k, int[] parts) {
    double chi = 0;
    boolean[] seen = new boolean[k];
    for (int e = 0; e < h.numNets(); e++) {
      int lambda = 0;
      for (int i = 0; i < h.netSize(e); i++) {
        int p = parts[h.pin(e, i)];
        if (!seen[p]) {
          seen[p] = true;
          lambda++;
        }
      }
      for (int i = 0; i < h.netSize(e); i++) {
        seen[parts[h.pin(e, i)]] = false;
      }
      chi += h.cost(e) * (lambda - 1);
    }
    return chi;
  }

  static int[] allFree(int n) {
    int[] f = new int[n];
    java.util.Arrays.fill(f, -1);
    return f;
  }
}
