package io.locus.core.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import io.locus.core.staging.CostModel;
import io.locus.hypergraph.GreedyKm1;
import io.locus.hypergraph.Partition;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Hypergraph spec §8, T6: the run-time hypergraph of Online-HPS and its GreedyKm1 partition. */
class OnlineHpsGraphTest {
  private static final long UNIT = 1L << 20; // 1 MiB = one unit
  /** Setting U: transfer 1 per file (RBW 1), local read 0.3 (LBW 1/0.3), compute 0.2. */
  private static final CostModel U = new CostModel(1.0, 1 / 0.3, 0.2, 4);

  private static Task job(String id, long seq, String... files) {
    InputFile[] in = new InputFile[files.length];
    for (int i = 0; i < files.length; i++) {
      in[i] = InputFile.of(files[i], UNIT);
    }
    return Task.of(id, seq, 0, 0, in);
  }

  @Test
  void t6WeightsNetsAndTheGreedyPartition() {
    // node 1 runs r3 (cache {f1, f9}, weight 1.0); node 2 runs r4 (cache {f4}, weight 3.5)
    Task r3 = job("r3", 1, "f1", "f9");
    Task r4 = job("r4", 2, "f4", "g1", "g2");
    var u1 = new OnlineHpsGraph.RunningNode(0, r3, Set.of("f1", "f9"), Set.of("f1", "f9"), 0);
    var u2 = new OnlineHpsGraph.RunningNode(1, r4, Set.of("f4"), Set.of("f4"), 0);
    List<Task> pending = List.of(job("j5", 5, "f1", "f2"), job("j6", 6, "f2", "f3"),
        job("j7", 7, "f4", "f5"));

    OnlineHpsGraph.Built b = OnlineHpsGraph.build(pending, List.of(u1, u2), U, 2, 0);
    var h = b.graph();
    assertThat(h.numVertices()).isEqualTo(5);
    assertThat(h.weight(0)).isCloseTo(2.5, within(1e-9)); // v5
    assertThat(h.weight(1)).isCloseTo(2.75, within(1e-9)); // v6
    assertThat(h.weight(2)).isCloseTo(2.75, within(1e-9)); // v7
    assertThat(h.weight(3)).isCloseTo(1.0, within(1e-9)); // u1
    assertThat(h.weight(4)).isCloseTo(3.5, within(1e-9)); // u2
    // nets f1 {v5,u1}, f2 {v5,v6}, f4 {v7,u2}; f3 and f5 have one pin and are dropped
    assertThat(h.numNets()).isEqualTo(3);
    for (int e = 0; e < h.numNets(); e++) {
      assertThat(h.cost(e)).isEqualTo(1.0);
      assertThat(h.netSize(e)).isEqualTo(2);
    }
    assertThat(b.fixed()).containsExactly(-1, -1, -1, 0, 1);

    Partition p = new GreedyKm1().partition(h, 2, 0.10, b.fixed(), 0);
    assertThat(p.part(3)).isZero();
    assertThat(p.part(4)).isEqualTo(1);
    assertThat(new int[] {p.part(0), p.part(1), p.part(2)}).containsExactly(0, 0, 1);
    assertThat(p.partWeight(0)).isCloseTo(6.25, within(1e-9));
    assertThat(p.partWeight(1)).isCloseTo(6.25, within(1e-9));
    assertThat(p.km1()).isZero();
  }

  @Test
  void progressInTheReadPhaseLowersARunningNodesWeight() {
    Task r = job("r", 1, "a", "b");
    var run = new OnlineHpsGraph.RunningNode(0, r, Set.of("a", "b"), Set.of("a", "b"), 10.0);
    Task p = job("p", 2, "a");
    // read + compute of two present files = 2 × 0.5 = 1.0; 0.4 s into the read phase → 0.6
    var b = OnlineHpsGraph.build(List.of(p), List.of(run), U, 2, 10.4);
    assertThat(b.graph().weight(1)).isCloseTo(0.6, within(1e-9));
    // and never below zero
    var late = OnlineHpsGraph.build(List.of(p), List.of(run), U, 2, 99);
    assertThat(late.graph().weight(1)).isZero();
  }
}
