package io.locus.core.staging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class TransferEngineTest {
  private static final long MIB = 1L << 20;
  private final TransferEngine engine = new TransferEngine(new CostModel(1, 150, 0.001, 4));

  @Test
  void storageNodeServesOneTransferAtATimeInIssueOrder() {
    engine.submit("a", MIB, 1, "n1");
    engine.submit("b", 2 * MIB, 1, "n2");
    List<TransferEngine.Transfer> started = engine.start(0);
    assertThat(started).extracting(TransferEngine.Transfer::file).containsExactly("a");
    assertThat(started.get(0).end()).isEqualTo(1.0);
    engine.finish(started.get(0));
    List<TransferEngine.Transfer> next = engine.start(1);
    assertThat(next).extracting(TransferEngine.Transfer::file).containsExactly("b");
    assertThat(next.get(0).end()).isEqualTo(3.0);
  }

  @Test
  void aNodeReceivesOneFileAtATime() {
    engine.submit("a", MIB, 1, "n1");
    engine.submit("b", MIB, 2, "n1");
    engine.submit("c", MIB, 3, "n2");
    List<TransferEngine.Transfer> started = engine.start(0);
    // b waits for n1's ingress; c, issued later, passes it (storage 3 and n2 are idle)
    assertThat(started).extracting(TransferEngine.Transfer::file).containsExactly("a", "c");
    assertThat(engine.pending()).extracting(TransferEngine.Request::file).containsExactly("b");
  }

  /** Ends of one instant are all applied before the scan (D1): the earlier request wins. */
  @Test
  void equalTimeEndsAreAppliedBeforeOneScan() {
    TransferEngine.Transfer toN1 = first(engine, "x", 1, "n1");
    TransferEngine.Transfer toN2 = first(engine, "y", 2, "n2");
    engine.submit("r1", MIB, 1, "n2"); // needs storage 1 and n2
    engine.submit("r2", MIB, 1, "n1"); // needs storage 1 and n1
    engine.finish(toN1);
    engine.finish(toN2);
    assertThat(engine.start(1)).extracting(TransferEngine.Transfer::file).containsExactly("r1");
  }

  private static TransferEngine.Transfer first(TransferEngine e, String f, int s, String n) {
    e.submit(f, MIB, s, n);
    return e.start(0).stream().filter(t -> t.file().equals(f)).findFirst().orElseThrow();
  }

  @Test
  void finishingATransferThatIsNotRunningFails() {
    engine.submit("a", MIB, 1, "n1");
    TransferEngine.Transfer t = engine.start(0).get(0);
    engine.finish(t);
    assertThatThrownBy(() -> engine.finish(t)).isInstanceOf(IllegalStateException.class);
    assertThat(engine.isIdle()).isTrue();
  }

  @Test
  void aCopyIsIndependent() {
    engine.submit("a", MIB, 1, "n1");
    engine.submit("b", MIB, 1, "n1");
    TransferEngine.Transfer t = engine.start(0).get(0);
    TransferEngine copy = engine.copy();
    engine.finish(t);
    assertThat(engine.start(1)).hasSize(1);
    assertThat(copy.start(1)).isEmpty(); // a still runs in the copy
    copy.finish(t);
    assertThat(copy.start(1)).extracting(TransferEngine.Transfer::file).containsExactly("b");
  }
}
