package io.locus.core.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PoolStateTest {
  private static Task task(String id, long seq, String file) {
    return Task.of(id, seq, 0, 1.0, InputFile.of(file, 100));
  }

  private static void place(PoolState s, Task t, String node) {
    s.assign(t, node, s.plan(t, s.node(node), true), "d-" + t.taskId(), 0);
  }

  @Test
  void completionFreesTheSlotOnceAndDuplicatesAreIgnored() {
    PoolState s = new PoolState();
    s.registerNode("n1", 1, 1000, null, 0);
    Task t = task("t", 1, "f");
    s.enqueue(t);
    place(s, t, "n1");
    assertThat(s.firstFree()).isNull();
    assertThat(s.complete("t", 0, "n1", 0, 0, 100)).isEqualTo(PoolState.EndOutcome.COMPLETED);
    assertThat(s.complete("t", 0, "n1", 0, 0, 100)).isEqualTo(PoolState.EndOutcome.IGNORED);
    assertThat(s.counters().completions).isEqualTo(1);
    assertThat(s.counters().bytesStorage).isEqualTo(100);
    assertThat(s.firstFree().id()).isEqualTo("n1");
    assertThat(s.busySlots()).isZero();
  }

  @Test
  void completionOfAnOldAttemptOrFromAnotherNodeIsIgnored() {
    PoolState s = new PoolState();
    s.registerNode("n1", 1, 1000, null, 0);
    Task t = task("t", 1, "f");
    s.enqueue(t);
    place(s, t, "n1");
    assertThat(s.complete("t", 1, "n1", 0, 0, 0)).isEqualTo(PoolState.EndOutcome.IGNORED);
    assertThat(s.complete("t", 0, "n2", 0, 0, 0)).isEqualTo(PoolState.EndOutcome.IGNORED);
    assertThat(s.running("t")).isNotNull();
  }

  @Test
  void failedTasksAreRetriedAtTheirQueuePositionThenDropped() {
    PoolState s = new PoolState(StateJournal.NONE, 2);
    s.registerNode("n1", 1, 1000, null, 0);
    s.enqueue(task("first", 1, "f"));
    s.enqueue(task("second", 2, "g"));
    Task t = s.queue().iterator().next();
    place(s, t, "n1");
    assertThat(s.fail("first", 0, "n1")).isEqualTo(PoolState.EndOutcome.REQUEUED);
    // back ahead of "second", with the next attempt number
    assertThat(s.queue()).extracting(Task::taskId).containsExactly("first", "second");
    assertThat(s.queue().iterator().next().attempt()).isEqualTo(1);
    place(s, s.queue().iterator().next(), "n1");
    assertThat(s.fail("first", 1, "n1")).isEqualTo(PoolState.EndOutcome.REQUEUED);
    place(s, s.queue().iterator().next(), "n1");
    assertThat(s.fail("first", 2, "n1")).isEqualTo(PoolState.EndOutcome.FAILED_PERMANENTLY);
    assertThat(s.counters().failures).isEqualTo(1);
    assertThat(s.queue()).extracting(Task::taskId).containsExactly("second");
  }

  @Test
  void duplicateArrivalsAreIgnored() {
    PoolState s = new PoolState();
    assertThat(s.enqueue(task("t", 1, "f"))).isTrue();
    assertThat(s.enqueue(task("t", 2, "f"))).isFalse();
    assertThat(s.queueLength()).isEqualTo(1);
  }

  @Test
  void aNodeThatLeavesOrRestartsGivesBackItsTasksAndCache() {
    PoolState s = new PoolState();
    s.registerNode("n1", 2, 1000, null, 0);
    s.applyCacheDelta("n1", 1, Map.of("f", 100L), List.of());
    Task t = task("t", 1, "f");
    s.enqueue(t);
    place(s, t, "n1");
    List<Task> requeued = s.registerNode("n1", 2, 1000, null, 5);
    assertThat(requeued).extracting(Task::taskId).containsExactly("t");
    assertThat(s.queue().iterator().next().attempt()).isEqualTo(1);
    place(s, s.queue().iterator().next(), "n1");
    assertThat(s.removeNode("n1")).extracting(Task::taskId).containsExactly("t");
    assertThat(s.holders("f")).isEmpty();
    assertThat(s.registeredSlots()).isZero();
    assertThat(s.nodes()).isEmpty();
  }

  @Test
  void cacheDeltasApplyInOrderAndDuplicatesAreIgnored() {
    PoolState s = new PoolState();
    s.registerNode("n1", 1, 1000, null, 0);
    assertThat(s.applyCacheDelta("n1", 1, Map.of("a", 10L), List.of())).isTrue();
    assertThat(s.applyCacheDelta("n1", 1, Map.of("b", 10L), List.of())).isFalse();
    assertThat(s.applyCacheDelta("n1", 2, Map.of("b", 10L), List.of("a"))).isTrue();
    assertThat(s.node("n1").cached().keySet()).containsExactly("b");
    assertThat(s.holders("a")).isEmpty();
    s.applyCacheSnapshot("n1", 7, Map.of("c", 5L));
    assertThat(s.node("n1").cached()).isEqualTo(Map.of("c", 5L));
    assertThat(s.node("n1").cachedBytes()).isEqualTo(5);
    assertThat(s.node("n1").lastCacheSeq()).isEqualTo(7);
  }

  @Test
  void drainingNodesGetNoWork() {
    PoolState s = new PoolState();
    s.registerNode("n1", 1, 1000, null, 0);
    s.setDraining("n1", true);
    assertThat(s.freePool()).isEmpty();
    Task t = task("t", 1, "f");
    s.enqueue(t);
    assertThatThrownBy(() -> place(s, t, "n1")).isInstanceOf(IllegalStateException.class);
    assertThat(s.isQueued("t")).isTrue();
    s.setDraining("n1", false);
    assertThat(s.firstFree().id()).isEqualTo("n1");
  }

  @Test
  void freePoolIsInTheOrderNodesBecameFree() {
    PoolState s = new PoolState();
    s.registerNode("a", 1, 0, null, 0);
    s.registerNode("b", 1, 0, null, 0);
    Task t = task("t", 1, "f");
    s.enqueue(t);
    place(s, t, "a");
    assertThat(s.freePool()).extracting(NodeView::id).containsExactly("b");
    s.complete("t", 0, "a", 0, 0, 0);
    assertThat(s.freePool()).extracting(NodeView::id).containsExactly("b", "a");
  }

  @Test
  void reevaluatingTheQueueUndoesTheKhannaMappingsAndKeepsRunningTasks() {
    PoolState s = new PoolState();
    s.registerNode("n1", 1, 1000, null, 0);
    s.registerNode("n2", 1, 1000, null, 0);
    Task a = task("a", 1, "f");
    Task b = task("b", 2, "g");
    Task c = task("c", 3, "h");
    s.enqueue(a);
    s.enqueue(b);
    s.enqueue(c);
    StagingState st = s.staging();
    st.map(a, "n1");
    st.map(b, "n2");
    place(s, a, "n1"); // a runs: it leaves the mappings
    assertThat(st.unmapped()).extracting(Task::taskId).containsExactly("c");
    s.dispatchIndex(); // built: dropped by the re-evaluation, rebuilt on next use

    assertThat(s.reevaluateQueue()).as("b and c are queued").isEqualTo(2);

    assertThat(st.unmapped()).extracting(Task::taskId).containsExactly("b", "c");
    assertThat(st.queue("n2")).isEmpty();
    assertThat(st.mappedNode("b")).isNull();
    assertThat(s.indexIfBuilt()).isNull();
    assertThat(s.running("a")).isNotNull();
    st.map(b, "n1"); // the new policy maps it afresh
    assertThat(st.queue("n1")).extracting(Task::taskId).containsExactly("b");
  }

  @Test
  void aCancelledQueuedTaskLeavesTheQueueForGood() {
    PoolState s = new PoolState();
    s.enqueue(task("a", 1, "f"));
    s.enqueue(task("b", 2, "g"));
    assertThat(s.cancelQueued("a")).extracting(Task::taskId).isEqualTo("a");
    assertThat(s.cancelQueued("a")).isNull();
    assertThat(s.queue()).extracting(Task::taskId).containsExactly("b");
    assertThat(s.queuedReaders("f")).isZero();
    s.registerNode("n1", 2, 1000, null, 0);
    assertThat(s.cancelPlaced("a")).as("not placed").isNull();
    assertThat(s.counters().failures).isZero();
  }

  @Test
  void aCancelledPlacedAttemptKeepsItsSlotUntilItEndsAndItsEndNeverCounts() {
    PoolState s = new PoolState(StateJournal.NONE, 3);
    s.registerNode("n1", 1, 1000, null, 0);
    Task t = task("t", 1, "f");
    s.enqueue(t);
    place(s, t, "n1");
    RunningTask r = s.cancelPlaced("t");
    assertThat(r.node()).isEqualTo("n1");
    assertThat(s.cancelPlaced("t")).as("already being cancelled").isNull();
    assertThat(s.isCancelling("t")).isTrue();
    assertThat(s.firstFree()).as("the slot stays taken").isNull();
    assertThat(s.complete("t", 0, "n1", 5, 5, 5)).isEqualTo(PoolState.EndOutcome.CANCELLED);
    assertThat(s.isCancelling("t")).isFalse();
    assertThat(s.firstFree().id()).isEqualTo("n1");
    assertThat(s.counters().completions).isZero();
    assertThat(s.counters().bytesLocal).isZero();
    assertThat(s.queueLength()).isZero();
  }

  @Test
  void aCancelledAttemptsFailureOrLostNodeIsNeitherARetryNorARequeue() {
    PoolState s = new PoolState(StateJournal.NONE, 3);
    s.registerNode("n1", 2, 1000, null, 0);
    Task a = task("a", 1, "f");
    Task b = task("b", 2, "g");
    s.enqueue(a);
    s.enqueue(b);
    place(s, a, "n1");
    place(s, b, "n1");
    s.cancelPlaced("a");
    s.cancelPlaced("b");
    assertThat(s.fail("a", 0, "n1")).isEqualTo(PoolState.EndOutcome.CANCELLED);
    assertThat(s.removeNode("n1")).as("b is not placed again").isEmpty();
    assertThat(s.queueLength()).isZero();
    assertThat(s.counters().failures).isZero();
    assertThat(s.counters().retries).isZero();
    assertThat(s.isCancelling("b")).isFalse();
  }
}
