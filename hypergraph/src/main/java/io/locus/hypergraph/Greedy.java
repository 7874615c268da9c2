package io.locus.hypergraph;

/**
 * Baseline: the initial greedy placement of {@link GreedyKm1} alone, without refinement (by
 * (w desc, id asc), each vertex to the feasible part it is most connected to).
 */
public final class Greedy implements Partitioner {
  private final GreedyKm1 placement = new GreedyKm1(0);

  @Override
  public String name() {
    return "Greedy";
  }

  @Override
  public Partition partition(Hypergraph h, int k, double eps, int[] fixed, long seed) {
    return placement.partition(h, k, eps, fixed, seed);
  }
}
