package io.locus.core.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.model.PendingCode;
import io.locus.core.share.QueueSpec;
import io.locus.core.share.QueueTree;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The pending codes queues add (issue 24 item 4): queue-limit, queue-share, locality-wait. */
class QueuePendingTest {
  private static final int U = QueueSpec.UNLIMITED;

  private static Map<String, Integer> counts(QueuePool p) {
    return PendingExplainer.explainQueue(p.s.state(), p.s.policy(), false, p.now).byCode();
  }

  private static Pending reason(QueuePool p, String task) {
    return PendingExplainer.explain(p.s.state(), p.s.policy(), false, task, p.now);
  }

  @Test
  void aQueueAtItsLimitSaysSoWhileNodesIdle() {
    QueueTree tree = QueueTree.build(List.of(QueueSpec.of("a", null, 1, 0, 3)), 8);
    QueuePool p = new QueuePool("FA", tree, 8, 1);
    for (int i = 0; i < 20; i++) {
      p.submit(QueuePool.task("a" + i, i + 1, "a", 0, 10, "f" + i));
    }
    p.runUntil(0);
    assertThat(counts(p)).isEqualTo(Map.of("queue-limit", 17));
    assertThat(reason(p, "a19").text()).isEqualTo("queue 'a' is at its limit (3 of 3 slots)");
  }

  @Test
  void aQueueBehindAnotherSaysWhose() {
    QueueTree tree = QueueTree.build(List.of(QueueSpec.of("a", null, 1, 1, U),
        QueueSpec.of("b", null, 1, 1, U)), 2);
    QueuePool p = new QueuePool("FA", tree, 2, 1);
    for (int i = 0; i < 5; i++) {
      p.submit(QueuePool.task("a" + i, i + 1, "a", 0, 10, "f" + i));
    }
    for (int j = 0; j < 3; j++) {
      p.submit(QueuePool.task("b" + j, 10 + j, "b", 1, 10, "g" + j));
    }
    p.runUntil(1); // a borrowed b's idle slot at 0; b arrives at 1, every slot busy
    assertThat(counts(p)).isEqualTo(Map.of("queue-share", 3, "no-free-slot", 3));
    Pending a = reason(p, "a2");
    assertThat(a.code()).isEqualTo(PendingCode.QUEUE_SHARE);
    assertThat(a.text()).startsWith("behind queue 'b''s share (b: 0 running");
    assertThat(reason(p, "b1").code()).isEqualTo(PendingCode.NO_FREE_SLOT);
    assertThat(reason(p, "b1").text()).contains("its turn in queue 'b'");
  }

  @Test
  void aHeldHeadSaysUntilWhenAndWhereItsQueueStands() {
    QueueTree tree = QueueTree.build(List.of(QueueSpec.of("a", null, 1, 1, U),
        QueueSpec.of("b", null, 1, 1, U)), 2);
    QueuePool p = new QueuePool("MCH", tree, 2, 1);
    p.cache(QueuePool.node(0), "f");
    p.submit(QueuePool.task("x", 1, "a", 0, 100, "g"));
    p.submit(QueuePool.task("y", 2, "a", 2, 10, "f"));
    p.runUntil(3);
    Pending y = reason(p, "y");
    assertThat(y.code()).isEqualTo(PendingCode.LOCALITY_WAIT);
    assertThat(y.node()).isEqualTo("n00");
    assertThat(y.until()).isEqualTo(5.0);
    assertThat(y.text()).isEqualTo("waiting for locality on n00 until t=5.0 s (queue 'a': 1"
        + " running, share 2.0, guaranteed 1.0)");
    assertThat(counts(p)).isEqualTo(Map.of("locality-wait", 1));
    p.runUntil(5);
    assertThat(counts(p)).isEmpty();
  }
}
