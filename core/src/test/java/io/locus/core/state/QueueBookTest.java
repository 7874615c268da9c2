package io.locus.core.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import io.locus.core.share.QueueLoad;
import io.locus.core.share.QueueSpec;
import io.locus.core.share.QueueTree;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The pool's per-queue book is kept by every transition: after each one, the incremental ledger
 * equals one rebuilt from scratch from the pool's queue and placed attempts.
 */
class QueueBookTest {
  private static final int U = QueueSpec.UNLIMITED;
  private static final QueueTree TREE = QueueTree.build(List.of(
      QueueSpec.of("a", null, 1, 2, U), QueueSpec.of("b", null, 1, 2, U)), 4);

  private static Task task(String id, long seq, String queue, double submit) {
    return new Task(id, id, 0, seq, List.of(new InputFile("f" + seq, 10, 0, "s", null)), 1.0,
        submit, null, List.of(), 0, null, List.of(), queue);
  }

  /** The loads of the live ledger, checked against a rebuild. */
  private static Map<String, QueueLoad> checked(PoolState s) {
    Map<String, QueueLoad> live = s.queueLedger().loads();
    Map<String, QueueLoad> before = Map.copyOf(live);
    s.setQueueTree(TREE); // rebuild from the queue and the placed attempts
    Map<String, QueueLoad> rebuilt = s.queueLedger().loads();
    live.entrySet().removeIf(e -> e.getValue().running() + e.getValue().pending() == 0);
    assertThat(rebuilt).isEqualTo(live);
    return before;
  }

  private static QueueLoad load(PoolState s, String leaf) {
    return checked(s).getOrDefault(leaf, QueueLoad.EMPTY);
  }

  @Test
  void everyTransitionKeepsTheBookEqualToARebuild() {
    PoolState s = new PoolState(StateJournal.NONE, 3, new RetryBackoff(5, 5));
    s.setQueueTree(TREE);
    s.registerNode("n1", 2, 0, "e1", 0);
    s.registerNode("n2", 1, 0, "e2", 0);
    s.enqueue(task("a1", 1, "a", 0));
    s.enqueue(task("a2", 2, "a", 0));
    s.enqueue(task("b1", 3, "b", 1));
    s.enqueue(task("d1", 4, null, 1));
    assertThat(load(s, "a")).isEqualTo(QueueLoad.of(0, 2).withOldestPending(0));
    assertThat(s.queueBook().head("b").taskId()).isEqualTo("b1");

    s.assign(s.queued("a1"), "n1", List.of(), "d", 2);
    s.assign(s.queued("b1"), "n1", List.of(), "d", 3);
    assertThat(load(s, "a")).isEqualTo(QueueLoad.of(1, 1).withOldestPending(0));
    assertThat(s.queueBook().lastLaunch("b")).isEqualTo(3.0);
    assertThat(s.queueBook().head("a").taskId()).isEqualTo("a2");

    s.fail("b1", 0, "n1", 4); // parked: neither pending nor running
    assertThat(load(s, "b")).isEqualTo(QueueLoad.EMPTY);
    assertThat(s.queueBook().lastLaunch("b")).isNaN();
    s.releaseDue(9);
    assertThat(load(s, "b")).isEqualTo(QueueLoad.of(0, 1).withOldestPending(1));

    s.cancelQueued("d1");
    s.assign(s.queued("a2"), "n2", List.of(), "d", 10);
    s.removeNode("n2"); // a2 lost with its node: pending again
    assertThat(load(s, "a")).isEqualTo(QueueLoad.of(1, 1).withOldestPending(0));
    s.complete("a1", 0, "n1", 0, 0, 10);
    assertThat(load(s, "a")).isEqualTo(QueueLoad.of(0, 1).withOldestPending(0));
    assertThat(load(s, QueueTree.DEFAULT)).isEqualTo(QueueLoad.EMPTY);
  }

  @Test
  void aRestoredPoolRebuildsItsBookAndKeepsPreemptedCounts() {
    PoolState s = new PoolState();
    s.setQueueTree(TREE);
    s.registerNode("n1", 2, 0, "e1", 0);
    s.enqueue(task("a1", 1, "a", 0));
    s.enqueue(task("b1", 2, "b", 0));
    RunningTask r = s.assign(s.queued("a1"), "n1", List.of(), "d", 1);
    s.queueLedger().countPreempted("a");

    PoolState restored = new PoolState();
    restored.setQueueTree(TREE);
    restored.restoreNode(s.node("n1"));
    restored.restoreQueued(s.queued("b1"));
    restored.restoreRunning(r);
    restored.queueLedger().restorePreempted("a", 1);
    restored.finishRestore();
    assertThat(restored.queueLedger().loads()).isEqualTo(s.queueLedger().loads());
    assertThat(restored.queueLedger().preempted("a")).isEqualTo(1);
    assertThat(restored.queueBook().lastLaunch("a")).isEqualTo(1.0);
    restored.setQueueTree(null);
    assertThat(restored.queueLedger()).isNull();
  }
}
