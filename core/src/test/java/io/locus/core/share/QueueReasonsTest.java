package io.locus.core.share;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The pending reasons queues add: at the limit, behind another queue's share, locality wait. */
class QueueReasonsTest {
  private static final int U = QueueSpec.UNLIMITED;

  @Test
  void atItsOwnOrAnAncestorsLimit() {
    QueueTree t = QueueTree.build(List.of(QueueSpec.of("a", null, 1, 0, 3),
        QueueSpec.of("eng", null, 1, 0, 2), QueueSpec.of("ml", "eng", 1, 0, 2)), -1);
    FairShare s = FairShare.of(t, PoolCapacity.slots(10),
        Map.of("a", QueueLoad.of(3, 1), "ml", QueueLoad.of(2, 4)), 0);
    assertThat(QueueReasons.of(s, "a")).isEqualTo(new QueueReasons.Reason("queue-limit",
        "queue 'a' is at its limit (3 of 3 slots)"));
    assertThat(QueueReasons.of(s, "ml").text())
        .isEqualTo("queue 'eng' (above 'ml') is at its limit (2 of 2 slots)");
  }

  @Test
  void behindAnotherQueuesShare() {
    QueueTree t = QueueTree.build(List.of(QueueSpec.of("a", null, 1, 2, U),
        QueueSpec.of("b", null, 1, 0, U)), 8);
    FairShare s = FairShare.of(t, PoolCapacity.slots(8),
        Map.of("a", QueueLoad.of(1, 5), "b", QueueLoad.of(5, 5)), 0);
    assertThat(QueueReasons.of(s, "a")).isNull();
    assertThat(QueueReasons.of(s, "b")).isEqualTo(new QueueReasons.Reason("queue-share",
        "behind queue 'a''s share (a: 1 running, share 4.0, guaranteed 2.0; b: 5 running, share"
            + " 4.0)"));
  }

  @Test
  void keptForAnotherQueuesGuarantee() {
    QueueTree t = QueueTree.build(List.of(QueueSpec.of("a", null, 1, 0, U),
        QueueSpec.of("b", null, 1, 4, U).withLendingLimit(0)), 8);
    FairShare s = FairShare.of(t, PoolCapacity.slots(8), Map.of("a", QueueLoad.of(4, 5)), 0);
    assertThat(QueueReasons.of(s, "a").text()).isEqualTo(
        "queue 'a': the free slots are kept for other queues' guarantees (their lending limits)");
  }

  @Test
  void localityWaitSaysUntilWhenAndTheShare() {
    QueueStanding st = new QueueStanding("a", 3, 2, 2.0, 4.0, U, 1, 0.3, 0);
    assertThat(QueueReasons.localityWait(st, "n7", 12.25).text()).isEqualTo(
        "waiting for locality on n7 until t=12.3 s (queue 'a': 3 running, share 4.0, guaranteed"
            + " 2.0)");
  }
}
