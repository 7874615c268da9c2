package io.locus.hypergraph;

import java.util.SplittableRandom;

/** Seeded random hypergraphs for tests and benchmarks. */
public final class RandomHypergraphs {
  private RandomHypergraphs() {}

  /**
   * n unit-weight vertices and m unit-cost nets; each net has a uniform size in
   * [minPins, maxPins] and uniformly drawn distinct pins.
   */
  public static Hypergraph uniform(int n, int m, int minPins, int maxPins, long seed) {
    return clustered(n, m, minPins, maxPins, 1, 0, seed);
  }

  /**
   * A hypergraph with planted structure: vertices are split into {@code clusters} equal blocks,
   * and each pin of a net is drawn from the block of the net's first pin with probability
   * {@code locality}, else uniformly. Unit weights and costs.
   */
  public static Hypergraph clustered(int n, int m, int minPins, int maxPins, int clusters,
      double locality, long seed) {
    if (n < maxPins || minPins < 1 || maxPins < minPins || clusters < 1 || clusters > n
        || !(locality >= 0 && locality <= 1)) {
      throw new IllegalArgumentException("bad random hypergraph parameters");
    }
    SplittableRandom rng = new SplittableRandom(seed);
    Hypergraph.Builder b = Hypergraph.builder();
    b.addVertices(n, 1);
    int block = n / clusters;
    int[] pins = new int[maxPins];
    for (int e = 0; e < m; e++) {
      int size = minPins + rng.nextInt(maxPins - minPins + 1);
      int first = rng.nextInt(n);
      int c = Math.min(first / Math.max(1, block), clusters - 1);
      int lo = c * block;
      int hi = c == clusters - 1 ? n : lo + block;
      pins[0] = first;
      int got = 1;
      while (got < size) {
        int v = rng.nextDouble() < locality && hi - lo >= size
            ? lo + rng.nextInt(hi - lo) : rng.nextInt(n);
        boolean dup = false;
        for (int i = 0; i < got && !dup; i++) {
          dup = pins[i] == v;
        }
        if (!dup) {
          pins[got++] = v;
        }
      }
      b.addNet(1, java.util.Arrays.copyOf(pins, size));
    }
    return b.build();
  }

  /**
   * Like {@link #uniform} with vertex weights uniform in [minWeight, maxWeight] and net costs
   * uniform in [minCost, maxCost].
   */
  public static Hypergraph weighted(int n, int m, int minPins, int maxPins, double minWeight,
      double maxWeight, double minCost, double maxCost, long seed) {
    Hypergraph u = uniform(n, m, minPins, maxPins, seed);
    SplittableRandom rng = new SplittableRandom(~seed);
    Hypergraph.Builder b = Hypergraph.builder();
    for (int v = 0; v < n; v++) {
      b.addVertex(minWeight + (maxWeight - minWeight) * rng.nextDouble());
    }
    for (int e = 0; e < m; e++) {
      b.addNet(minCost + (maxCost - minCost) * rng.nextDouble(), u.pins(e));
    }
    return b.build();
  }
}
