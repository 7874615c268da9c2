package io.locus.hypergraph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The {@link Partitioner} contract, for every partitioner of the package. */
class PartitionerContractTest {
  private static final List<Partitioner> ALL = List.of(new GreedyKm1(), new Greedy(),
      new RandomBalanced(), new MultilevelKm1());

  /**
   * Random instances where balance is provably reachable by any greedy placement: every free
   * weight is at most ε·Σw/k, and fixed vertices leave every part below L_max. (If no part had
   * room for a free vertex of weight w, every part would weigh more than L_max − w ≥ Σw/k.)
   * Every partitioner must then return a balanced partition that honours the fixed vertices.
   */
  @Test
  void balanceAndFixedVerticesOnRandomFeasibleInstances() {
    SplittableRandom rng = new SplittableRandom(7);
    int feasibleTrials = 0;
    for (int t = 0; t < 120; t++) {
      int k = 1 + rng.nextInt(t % 4 == 0 ? 64 : 12);
      double eps = List.of(0.03, 0.05, 0.1, 0.3).get(rng.nextInt(4));
      int n = 20 + rng.nextInt(400);
      double wLo = t % 2 == 0 ? 1 : 0.5;
      double wHi = t % 2 == 0 ? 1 : 1.5;
      Hypergraph h = Instances.random(n, n + rng.nextInt(4 * n), 8, wLo, wHi, 5, rng);
      int[] fixed = Instances.allFree(n);
      double[] fixedLoad = new double[k];
      double lMax = Partition.maxPartWeight(h, k, eps);
      for (int v = 0; v < n; v++) {
        int p = rng.nextInt(k);
        if (rng.nextInt(10) == 0 && fixedLoad[p] + h.weight(v) <= 0.5 * lMax) {
          fixed[v] = p;
          fixedLoad[p] += h.weight(v);
        }
      }
      double maxFree = 0;
      for (int v = 0; v < n; v++) {
        if (fixed[v] < 0) {
          maxFree = Math.max(maxFree, h.weight(v));
        }
      }
      boolean provablyFeasible = maxFree <= eps * h.totalWeight() / k;
      feasibleTrials += provablyFeasible ? 1 : 0;
      for (Partitioner p : ALL) {
        Partition part = p.partition(h, k, eps, fixed, t);
        assertThat(part.respects(fixed)).as("%s trial %d", p.name(), t).isTrue();
        assertThat(part.k()).isEqualTo(k);
        if (provablyFeasible) {
          assertThat(part.isBalanced(eps)).as("%s trial %d: %s", p.name(), t, part).isTrue();
        }
      }
    }
    assertThat(feasibleTrials).isGreaterThan(50);
  }

  @Test
  void fixedVerticesAreHonouredEvenWhenBalanceIsInfeasible() {
    SplittableRandom rng = new SplittableRandom(11);
    for (int t = 0; t < 40; t++) {
      int n = 30 + rng.nextInt(100);
      int k = 2 + rng.nextInt(6);
      Hypergraph h = Instances.random(n, 3 * n, 6, 0.1, 10, 3, rng);
      int[] fixed = Instances.allFree(n);
      for (int v = 0; v < n; v++) {
        if (rng.nextInt(3) == 0) {
          fixed[v] = rng.nextInt(2); // crowd parts 0 and 1
        }
      }
      for (Partitioner p : ALL) {
        Partition part = p.partition(h, k, 0.0, fixed, t);
        assertThat(part.respects(fixed)).as("%s trial %d", p.name(), t).isTrue();
      }
    }
  }

  @Test
  void sameSeedSamePartition() {
    Hypergraph h = RandomHypergraphs.clustered(600, 3000, 2, 8, 8, 0.7, 3);
    int[] fixed = Instances.allFree(600);
    for (int v = 0; v < 600; v += 37) {
      fixed[v] = v % 8;
    }
    for (Partitioner p : ALL) {
      for (long seed : new long[] {0, 1, 123456789L}) {
        Partition a = p.partition(h, 8, 0.05, fixed, seed);
        Partition b = p.partition(h, 8, 0.05, fixed.clone(), seed);
        assertThat(b.parts()).as(p.name()).containsExactly(a.parts());
      }
    }
    // seeded partitioners do use the seed
    assertThat(new RandomBalanced().partition(h, 8, 0.05, null, 1).parts())
        .isNotEqualTo(new RandomBalanced().partition(h, 8, 0.05, null, 2).parts());
  }

  @Test
  void theInputIsNotModified() {
    Hypergraph h = RandomHypergraphs.uniform(200, 600, 2, 6, 1);
    int[] fixed = Instances.allFree(200);
    fixed[3] = 1;
    String before = HMetis.toString(h);
    for (Partitioner p : ALL) {
      p.partition(h, 4, 0.05, fixed, 1);
      assertThat(fixed[3]).isEqualTo(1);
      assertThat(fixed[4]).isEqualTo(-1);
      assertThat(HMetis.toString(h)).isEqualTo(before);
    }
  }

  @Test
  void argumentsAreChecked() {
    Hypergraph h = Instances.ring(6);
    for (Partitioner p : ALL) {
      assertThatThrownBy(() -> p.partition(h, 0, 0.1, null, 0))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> p.partition(h, 2, -0.1, null, 0))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> p.partition(h, 2, 0.1, new int[5], 0))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> p.partition(h, 2, 0.1, new int[] {0, 0, 2, -1, -1, -1}, 0))
          .isInstanceOf(IllegalArgumentException.class);
      assertThat(p.name()).isNotBlank();
    }
  }
}
