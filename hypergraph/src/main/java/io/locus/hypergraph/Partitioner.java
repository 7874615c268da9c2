package io.locus.hypergraph;

/**
 * A k-way hypergraph partitioner for the connectivity−1 objective under a soft balance constraint
 * with fixed vertices (spec §2.2, D7).
 *
 * <p>Contract of every implementation in this package:
 *
 * <ul>
 *   <li>every vertex with {@code fixed[v] ≥ 0} ends in part {@code fixed[v]};
 *   <li>balance W_p ≤ L_max = (1 + ε)·Σ w / k is soft: it holds whenever the partitioner finds a
 *       way, else the overload is kept small;
 *   <li>empty parts are allowed (D8);
 *   <li>the result is a function of the arguments alone: same input and seed, same partition.
 * </ul>
 */
public interface Partitioner {
  /**
   * @param h the hypergraph
   * @param k number of parts, ≥ 1
   * @param eps imbalance tolerance ε ≥ 0
   * @param fixed per vertex its fixed part, or −1 when free; {@code null} means all free
   * @param seed seed of every random choice (ignored by deterministic partitioners)
   */
  Partition partition(Hypergraph h, int k, double eps, int[] fixed, long seed);

  /** The name to report with results (D7: report which partitioner was used). */
  String name();

  /** Checks the arguments and returns a fixed array of length n (a fresh all-free one for null). */
  static int[] checkArguments(Hypergraph h, int k, double eps, int[] fixed) {
    if (k < 1) {
      throw new IllegalArgumentException("k must be >= 1: " + k);
    }
    if (!(eps >= 0) || Double.isInfinite(eps)) {
      throw new IllegalArgumentException("eps must be finite and >= 0: " + eps);
    }
    if (fixed == null) {
      int[] free = new int[h.numVertices()];
      java.util.Arrays.fill(free, -1);
      return free;
    }
    if (fixed.length != h.numVertices()) {
      throw new IllegalArgumentException("fixed has " + fixed.length + " entries for "
          + h.numVertices() + " vertices");
    }
    for (int v = 0; v < fixed.length; v++) {
      if (fixed[v] < -1 || fixed[v] >= k) {
        throw new IllegalArgumentException("vertex " + v + " is fixed to part " + fixed[v]
            + ", k = " + k);
      }
    }
    return fixed;
  }
}
