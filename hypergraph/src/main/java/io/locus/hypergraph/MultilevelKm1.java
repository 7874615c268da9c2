package io.locus.hypergraph;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Multilevel k-way partitioner for χ = Σ c_n(λ_n − 1) with fixed vertices, in plain Java.
 *
 * <ol>
 *   <li><b>Coarsening</b> ({@link Coarsener}): heavy-connectivity matching, never pairing vertices
 *       fixed to different parts, with a cap on cluster weight, until at most
 *       max(contractionFactor·k, minCoarsest) vertices remain or a step shrinks too little.
 *   <li><b>Initial partitioning</b> ({@link InitialPartitioner}): greedy and greedy-growing
 *       tries on the coarsest level (more of them when it is small), each refined; the best is
 *       kept and refined with FM.
 *   <li><b>Uncoarsening</b>: project, rebalance, label propagation, then k-way FM passes with a
 *       gain cache, a gain heap, swaps through full parts and rollback to the best prefix
 *       ({@link Refiner}), level by level.
 * </ol>
 *
 * <p>Balance is soft: rebalancing moves vertices out of overloaded parts (when no part has room,
 * it still lowers the total overload), label propagation only moves into parts with room, and an
 * FM pass never ends less balanced than it began. On 2,000 vertices / 12,000 nets / k = 64 it
 * takes about 100 ms (benchmarks: {@code PartitionBenchmark}, {@code PartitionReport}).
 * Deterministic for a seed: every random choice comes from one {@link SplittableRandom}, split
 * in a fixed order, and no hash-order iteration is involved.
 */
public final class MultilevelKm1 implements Partitioner {
  /**
   * Tuning knobs.
   *
   * @param contractionFactor coarsen until about contractionFactor·k vertices
   * @param minCoarsest never coarsen below this many vertices
   * @param clusterWeightFactor cap on a coarse vertex: this times Σw over the contraction limit
   * @param initialTries initial partitions tried on the coarsest level
   * @param lpRounds label-propagation rounds per level (stops early with no move)
   * @param fmPasses FM passes per level (stops early without improvement)
   * @param fmStopAfter an FM pass ends after this many moves without improvement
   */
  public record Options(int contractionFactor, int minCoarsest, double clusterWeightFactor,
      int initialTries, int lpRounds, int fmPasses, int fmStopAfter) {
    public static final Options DEFAULT = new Options(8, 100, 2.0, 2, 5, 3, 50);

    public Options {
      if (contractionFactor < 1 || minCoarsest < 1 || !(clusterWeightFactor > 0)
          || initialTries < 1 || lpRounds < 0 || fmPasses < 0 || fmStopAfter < 1) {
        throw new IllegalArgumentException("invalid multilevel options: " + this);
      }
    }
  }

  private final Options options;

  public MultilevelKm1() {
    this(Options.DEFAULT);
  }

  public MultilevelKm1(Options options) {
    this.options = options;
  }

  @Override
  public String name() {
    return "MultilevelKm1";
  }

  public Options options() {
    return options;
  }

  @Override
  public Partition partition(Hypergraph h, int k, double eps, int[] fixed, long seed) {
    fixed = Partitioner.checkArguments(h, k, eps, fixed);
    if (k == 1 || h.n == 0) {
      return Partition.trusted(h, k, new int[h.n]);
    }
    SplittableRandom rng = new SplittableRandom(seed);
    double lMax = (1 + eps) * h.totalWeight / k;
    int limit = Math.max(options.contractionFactor() * k, options.minCoarsest());
    double maxFree = 0;
    for (int v = 0; v < h.n; v++) {
      if (fixed[v] < 0) {
        maxFree = Math.max(maxFree, h.weight[v]);
      }
    }
    double maxCluster = Math.max(maxFree, options.clusterWeightFactor() * h.totalWeight / limit);

    List<Coarsener.Level> levels = new ArrayList<>();
    Hypergraph cur = h;
    int[] curFixed = fixed;
    while (cur.n > limit) {
      Coarsener.Level next = Coarsener.coarsen(cur, curFixed, maxCluster, rng.split());
      if (next.h().n == cur.n) {
        break;
      }
      levels.add(next);
      boolean slow = next.h().n > 0.9 * cur.n; // little left to match: stop here
      cur = next.h();
      curFixed = next.fixed();
      if (slow) {
        break;
      }
    }

    Refiner refiner = new Refiner(h.n, options.lpRounds(), options.fmPasses(),
        options.fmStopAfter());
    // Tries are refined by label propagation only; FM runs once, on the best of them.
    int[] parts = InitialPartitioner.partition(cur, k, lMax, curFixed, options.initialTries(),
        refiner, rng.split());
    WorkState top = new WorkState(cur, k, lMax, curFixed);
    top.assignAll(parts);
    int[] topOrder = InitialPartitioner.freeVertices(curFixed);
    Coarsener.shuffle(topOrder, rng);
    refiner.refine(top, topOrder, true);
    parts = top.part;
    for (int i = levels.size() - 1; i >= 0; i--) {
      int[] map = levels.get(i).fineToCoarse();
      Hypergraph fine = i == 0 ? h : levels.get(i - 1).h();
      int[] fineFixed = i == 0 ? fixed : levels.get(i - 1).fixed();
      int[] fineParts = new int[fine.n];
      for (int v = 0; v < fine.n; v++) {
        fineParts[v] = parts[map[v]];
      }
      WorkState s = new WorkState(fine, k, lMax, fineFixed);
      s.assignAll(fineParts);
      int[] order = InitialPartitioner.freeVertices(fineFixed);
      Coarsener.shuffle(order, rng);
      refiner.refine(s, order, true);
      parts = s.part;
    }
    for (int v = 0; v < h.n; v++) { // the contract, checked rather than trusted
      if (fixed[v] >= 0 && parts[v] != fixed[v]) {
        throw new IllegalStateException("vertex " + v + " left its fixed part " + fixed[v]);
      }
    }
    return Partition.trusted(h, k, Arrays.copyOf(parts, h.n));
  }
}
