package io.locus.hypergraph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PartitionTest {
  @Test
  void km1AgreesWithTwoIndependentComputations() {
    SplittableRandom rng = new SplittableRandom(5);
    for (int t = 0; t < 200; t++) {
      int n = 1 + rng.nextInt(60);
      int k = 1 + rng.nextInt(9);
      Hypergraph h = Instances.random(n, rng.nextInt(3 * n + 1), 7, 0, 3, 9, rng);
      int[] parts = new int[n];
      for (int v = 0; v < n; v++) {
        parts[v] = rng.nextInt(k);
      }
      Partition p = Partition.of(h, k, parts);
      assertThat(p.km1()).isEqualTo(Instances.km1BySets(h, parts));
      assertThat(p.km1()).isCloseTo(Instances.km1ByParts(h, k, parts), within(1e-9));
      int cut = 0;
      double viaLambda = 0;
      for (int e = 0; e < h.numNets(); e++) {
        viaLambda += h.cost(e) * (p.connectivity(e) - 1);
        cut += p.connectivity(e) > 1 ? 1 : 0;
      }
      assertThat(p.km1()).isEqualTo(viaLambda);
      assertThat(p.cutNets()).isEqualTo(cut);
    }
  }

  @Test
  void weightsImbalanceAndBalance() {
    Hypergraph.Builder b = Hypergraph.builder();
    b.addVertex(1);
    b.addVertex(2);
    b.addVertex(3);
    b.addVertex(2);
    b.addNet(4, 0, 1, 2);
    Hypergraph h = b.build();
    Partition p = Partition.of(h, 2, new int[] {0, 0, 1, 1});
    assertThat(p.partWeights()).containsExactly(3.0, 5.0);
    assertThat(p.imbalance()).isCloseTo(5.0 / 4 - 1, within(1e-12));
    assertThat(p.isBalanced(0.25)).isTrue();
    assertThat(p.isBalanced(0.2)).isFalse();
    assertThat(p.overload(0.2)).isCloseTo(5 - 4.8, within(1e-12));
    assertThat(p.km1()).isEqualTo(4.0);
    assertThat(p.respects(new int[] {0, -1, 1, -1})).isTrue();
    assertThat(p.respects(new int[] {1, -1, -1, -1})).isFalse();
    assertThat(p.respects(null)).isTrue();
    // empty parts are fine (D8)
    Partition q = Partition.of(h, 3, new int[] {0, 0, 0, 0});
    assertThat(q.partWeight(1)).isZero();
    assertThat(q.km1()).isZero();
  }

  @Test
  void ofChecksItsInputAndCopiesIt() {
    Hypergraph h = Instances.ring(3);
    assertThatThrownBy(() -> Partition.of(h, 2, new int[] {0, 1}))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Partition.of(h, 2, new int[] {0, 1, 2}))
        .isInstanceOf(IllegalArgumentException.class);
    int[] parts = {0, 1, 1};
    Partition p = Partition.of(h, 2, parts);
    parts[0] = 1;
    assertThat(p.part(0)).isZero();
    p.parts()[1] = 0;
    assertThat(p.part(1)).isEqualTo(1);
  }
}
