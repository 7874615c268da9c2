package io.locus.core.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.model.Command;
import io.locus.core.model.Task;
import io.locus.core.share.PoolCapacity;
import io.locus.core.share.QueueSpec;
import io.locus.core.share.QueueTree;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The preemption round and the PREEMPTED transition of a pool (issue 24): queue a fills the pool,
 * queue b arrives below its guarantee; the round asks to stop exactly b's deficit, once; the
 * node's PREEMPTED re-queues the task spared (not a failure), and anything else is ignored.
 */
class PreemptionRoundTest {
  private static final QueueTree TREE = QueueTree.build(List.of(
      QueueSpec.of("a", null, 1, 2, QueueSpec.UNLIMITED),
      QueueSpec.of("b", null, 1, 2, QueueSpec.UNLIMITED)), 4);

  /** Every journal call about preemption marks, in order. */
  private final List<String> journal = new ArrayList<>();
  private PoolState state;
  private final PreemptionRound round = new PreemptionRound(30);

  @BeforeEach
  void fillThePoolWithQueueA() {
    state = new PoolState(new StateJournal() {
      @Override
      public void taskPreempting(String taskId, int attempt) {
        journal.add(taskId + "#" + attempt);
      }

      @Override
      public void queuePreempted(String leaf, long count) {
        journal.add(leaf + "=" + count);
      }
    }, PoolState.DEFAULT_MAX_RETRIES);
    state.setQueueTree(TREE);
    state.registerNode("n1", 2, 0, null, 0);
    state.registerNode("n2", 2, 0, null, 0);
    for (int i = 0; i < 4; i++) {
      Task t = Task.of("a" + i, i, 0, 100).withQueue("a");
      state.enqueue(t);
      state.assign(t, i < 2 ? "n1" : "n2", List.of(), "p/a" + i + "/0", i);
    }
    for (int i = 0; i < 3; i++) {
      state.enqueue(Task.of("b" + i, 10 + i, 5, 100).withQueue("b"));
    }
  }

  private List<Command.Preempt> round(double now) {
    return round.run(state, TREE, PoolCapacity.slots(4), state.queueLedger().loads(), now);
  }

  @Test
  void theRoundStopsExactlyTheDeficitOnceTheLatestStartedFirst() {
    List<Command.Preempt> first = round(6);
    // b is owed 2 slots (its guarantee); a keeps its own 2; the latest started go first
    assertThat(first).extracting(Command.Preempt::taskId).containsExactly("a3", "a2");
    assertThat(first).allSatisfy(p -> {
      assertThat(p.node()).isEqualTo("n2");
      assertThat(p.attempt()).isZero();
      assertThat(p.forQueue()).isEqualTo("b");
      assertThat(p.graceSeconds()).isEqualTo(30);
      assertThat(p.reason()).contains("queue 'b' is below its guarantee (0 running, guarantee 2,"
          + " 3 pending)");
    });
    assertThat(state.preempting()).containsExactly("a2", "a3");
    assertThat(journal).containsExactly("a3#0", "a2#0");
    // while the grace runs, nothing more is planned: the two slots are counted as freed
    assertThat(round(7)).isEmpty();
    assertThat(round(40)).isEmpty();
  }

  @Test
  void preemptedRequeuesTheTaskSparedAndFreesItsSlot() {
    round(6);
    int busy = state.busySlots();
    assertThat(state.preempted("a3", 0, "n2")).isEqualTo(PoolState.EndOutcome.REQUEUED);
    assertThat(state.busySlots()).isEqualTo(busy - 1);
    Task again = state.queued("a3");
    assertThat(again.attempt()).isEqualTo(1);
    assertThat(again.seq()).as("its original queue position").isEqualTo(3);
    assertThat(state.failuresOf(again)).as("not a failure").isZero();
    assertThat(state.sparedAttempts("a3")).isEqualTo(1);
    assertThat(state.counters().retries).isZero();
    assertThat(state.counters().failures).isZero();
    assertThat(state.queueLedger().preempted("a")).as("counted once").isEqualTo(1);
    assertThat(state.isPreempting("a3")).isFalse();
    assertThat(journal).as("the count is journalled: it is history, not derived")
        .endsWith("a3#-1", "a=1");
    // a duplicate answer changes nothing
    assertThat(state.preempted("a3", 0, "n2")).isEqualTo(PoolState.EndOutcome.IGNORED);
    assertThat(state.queued("a3").attempt()).isEqualTo(1);
    assertThat(state.queueLedger().preempted("a")).isEqualTo(1);
  }

  @Test
  void aPreemptedOfAnAttemptNotBeingPreemptedOrFromAnotherNodeChangesNothing() {
    round(6);
    Map<String, Object> before = snapshot();
    assertThat(state.preempted("a0", 0, "n1")).as("not being preempted")
        .isEqualTo(PoolState.EndOutcome.IGNORED);
    assertThat(state.preempted("a3", 0, "n1")).as("from another node")
        .isEqualTo(PoolState.EndOutcome.IGNORED);
    assertThat(state.preempted("a3", 1, "n2")).as("another attempt")
        .isEqualTo(PoolState.EndOutcome.IGNORED);
    assertThat(snapshot()).isEqualTo(before);
    assertThat(state.queueLedger().preempted("a")).isZero();
  }

  @Test
  void anAttemptThatEndsOtherwiseLosesItsMarkAndACancelledOneOnlyFreesItsSlot() {
    round(6);
    // a3 completed before its node read the preemption: a completion, no re-queue
    assertThat(state.complete("a3", 0, "n2", 0, 0, 0)).isEqualTo(PoolState.EndOutcome.COMPLETED);
    assertThat(state.isPreempting("a3")).isFalse();
    // a2 is cancelled by its user while being preempted: its PREEMPTED only frees the slot
    state.cancelPlaced("a2");
    assertThat(state.preempted("a2", 0, "n2")).isEqualTo(PoolState.EndOutcome.CANCELLED);
    assertThat(state.queued("a2")).isNull();
    assertThat(state.running("a2")).isNull();
  }

  @Test
  void aLostNodeReQueuesItsAttemptsBeingPreemptedSparedAndTheRoundDoesNotRepeat() {
    round(6);
    List<Task> requeued = state.removeNode("n2");
    assertThat(requeued).extracting(Task::taskId).containsExactly("a2", "a3");
    assertThat(state.preempting()).isEmpty();
    assertThat(state.failuresOf(state.queued("a2"))).isZero();
  }

  @Test
  void aRestoredPoolKeepsItsPreemptionsInFlightAndPlansNothingMore() {
    round(6);
    PoolState restored = new PoolState();
    restored.setQueueTree(TREE);
    restored.registerNode("n1", 2, 0, null, 0);
    restored.registerNode("n2", 2, 0, null, 0);
    for (RunningTask r : state.running()) {
      restored.restoreRunning(r);
    }
    for (Task t : state.queue()) {
      restored.restoreQueued(t);
    }
    restored.restorePreempting("a2", 0);
    restored.restorePreempting("a3", 0);
    restored.restorePreempting("a0", 7); // a stale mark (another attempt) is not restored
    restored.finishRestore();
    assertThat(restored.preempting()).containsExactly("a2", "a3");
    assertThat(round.run(restored, TREE, PoolCapacity.slots(4),
        restored.queueLedger().loads(), 7)).isEmpty();
  }

  @Test
  void aQueueAtItsGuaranteeClaimsNothing() {
    // b's tasks leave; a runs 4 of 4 with nobody waiting: no claim, no victim
    for (int i = 0; i < 3; i++) {
      state.cancelQueued("b" + i);
    }
    assertThat(round(6)).isEmpty();
    assertThat(state.preempting()).isEmpty();
  }

  private Map<String, Object> snapshot() {
    Map<String, Object> m = new TreeMap<>();
    for (RunningTask r : state.running()) {
      m.put("run " + r.task().taskId(), r.task().attempt() + "@" + r.node());
    }
    for (Task t : state.queue()) {
      m.put("queued " + t.taskId(), t.attempt());
    }
    m.put("busy", state.busySlots());
    m.put("preempting", List.copyOf(state.preempting()));
    return m;
  }
}
