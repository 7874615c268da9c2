package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The node registry's state layout, liveness order and rate limits. */
class NodeRegistryTest {
  @Test
  void entriesRoundTripWhateverTheOwnerContains() {
    for (NodeRegistry.Entry e : List.of(new NodeRegistry.Entry(null, 0),
        new NodeRegistry.Entry("", 5), new NodeRegistry.Entry("a|+-b", 1L << 42),
        new NodeRegistry.Entry("-", 7))) {
      assertThat(NodeRegistry.decode(NodeRegistry.encode(e))).isEqualTo(e);
    }
    assertThatThrownBy(() -> NodeRegistry.decode("12")).hasMessageContaining("corrupt");
    assertThatThrownBy(() -> NodeRegistry.decode("12|x")).hasMessageContaining("corrupt");
  }

  @Test
  void nodesOfAnOlderCheckpointAreUnclaimedAndHeardAtTheRestoredClock() throws Exception {
    HeapMapState<String, String> state = new HeapMapState<>();
    state.put("n1", NodeRegistry.encode(new NodeRegistry.Entry("i1", 100)));
    NodeRegistry r = NodeRegistry.load(state, List.of("n1", "n2"), 5000);
    assertThat(r.get("n1")).isEqualTo(new NodeRegistry.Entry("i1", 100));
    assertThat(r.get("n2")).isEqualTo(new NodeRegistry.Entry(null, 5000));
    assertThat(state.map).containsKey("n2"); // written through
    assertThat(r.silent(30_100, 30_000)).isEmpty();
    assertThat(r.silent(30_101, 30_000)).containsExactly("n1");
    assertThat(r.silent(35_001, 30_000)).containsExactly("n1", "n2");
  }

  @Test
  void hearingANodeMovesItInTheLivenessOrderAndRemovingItForgetsIt() throws Exception {
    HeapMapState<String, String> state = new HeapMapState<>();
    NodeRegistry r = NodeRegistry.load(state, List.of(), 0);
    r.put("a", "x", 10);
    r.put("b", "y", 20);
    r.put("a", "x", 1_030);
    assertThat(r.silent(2_000, 100)).containsExactly("b", "a");
    r.remove("b");
    assertThat(r.silent(2_000, 100)).containsExactly("a");
    assertThat(state.map).containsOnlyKeys("a");
    assertThat(NodeRegistry.decode(state.get("a")).heardMs()).isEqualTo(1_030);
  }

  @Test
  void heardTimesAreWrittenAtMostOncePerSecondOfRecordClockAndOwnersAtOnce() throws Exception {
    HeapMapState<String, String> state = new HeapMapState<>();
    NodeRegistry r = NodeRegistry.load(state, List.of(), 0);
    r.put("a", "x", 10);
    r.put("a", "x", 500);
    r.put("a", "x", 1_009);
    assertThat(r.get("a").heardMs()).isEqualTo(1_009); // the liveness check sees every record
    assertThat(r.silent(1_100, 100)).isEmpty();
    assertThat(NodeRegistry.decode(state.get("a"))).isEqualTo(new NodeRegistry.Entry("x", 10));
    r.put("a", "x", 1_010);
    assertThat(NodeRegistry.decode(state.get("a"))).isEqualTo(new NodeRegistry.Entry("x", 1_010));
    r.put("a", "y", 1_020); // a new owner is written at once
    assertThat(NodeRegistry.decode(state.get("a"))).isEqualTo(new NodeRegistry.Entry("y", 1_020));
    // a restore reads what was written: at most a second behind
    NodeRegistry restored = NodeRegistry.load(state, List.of("a"), 1_500);
    r.put("a", "y", 1_900);
    assertThat(restored.get("a")).isEqualTo(new NodeRegistry.Entry("y", 1_020));
  }

  @Test
  void rateLimitsAreOnTheRecordClockAndPerNode() throws Exception {
    NodeRegistry r = NodeRegistry.load(new HeapMapState<>(), List.of(), 0);
    assertThat(r.resyncDue("a", 100, 50)).isTrue();
    assertThat(r.resyncDue("a", 149, 50)).isFalse();
    assertThat(r.resyncDue("b", 149, 50)).isTrue();
    assertThat(r.resyncDue("a", 150, 50)).isTrue();
    assertThat(r.warningDue("a", 150, 50)).isTrue(); // its own limit
  }
}
