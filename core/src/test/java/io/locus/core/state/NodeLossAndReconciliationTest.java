package io.locus.core.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.Scheduler;
import io.locus.core.model.Command;
import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import io.locus.core.policy.Policies;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 12: a lost or re-registered node's work, and the reconciliation of replayed events. */
class NodeLossAndReconciliationTest {
  private static Task task(String id, long seq, String file) {
    return Task.of(id, seq, 0, 1.0, InputFile.of(file, 100));
  }

  private static void place(PoolState s, Task t, String node) {
    s.assign(t, node, s.plan(t, s.node(node), true), "d-" + t.taskId(), 0);
  }

  private static List<Command.Run> runs(List<Command> cmds) {
    return cmds.stream().filter(c -> c instanceof Command.Run).map(c -> (Command.Run) c).toList();
  }

  @Test
  void aTaskOnALostNodeGetsANewAttemptThatIsNotCountedAsAFailure() {
    PoolState s = new PoolState(StateJournal.NONE, 1);
    s.registerNode("n1", 1, 1000, null, 0);
    s.registerNode("n2", 1, 1000, null, 0);
    Task t = task("t", 1, "f");
    s.enqueue(t);
    place(s, t, "n1");
    s.removeNode("n1");
    assertThat(s.queued("t").attempt()).isEqualTo(1);
    place(s, s.queued("t"), "n2");
    // lost again: with maxRetries 1, counting node losses would drop it here
    s.removeNode("n2");
    assertThat(s.queued("t")).isNotNull();
    assertThat(s.queued("t").attempt()).isEqualTo(2);
    assertThat(s.sparedAttempts("t")).isEqualTo(2);
    assertThat(s.counters().failures).isZero();
    assertThat(s.busySlots()).isZero();
    assertThat(s.registeredSlots()).isZero();
    // its own failures still count: one retry (maxRetries 1), then it fails for good
    s.registerNode("n3", 1, 1000, null, 0);
    place(s, s.queued("t"), "n3");
    assertThat(s.fail("t", 2, "n3")).isEqualTo(PoolState.EndOutcome.REQUEUED);
    place(s, s.queued("t"), "n3");
    assertThat(s.fail("t", 3, "n3")).isEqualTo(PoolState.EndOutcome.FAILED_PERMANENTLY);
    assertThat(s.counters().failures).isEqualTo(1);
    assertThat(s.sparedAttempts("t")).isZero();
  }

  @Test
  void aReRegisteredNodeRunsNothingOfThePoolAndItsTasksGetANewAttempt() {
    PoolState s = new PoolState(StateJournal.NONE, 0);
    s.registerNode("n1", 2, 1000, null, 0);
    Task a = task("a", 1, "f");
    Task b = task("b", 2, "g");
    s.enqueue(a);
    s.enqueue(b);
    place(s, a, "n1");
    place(s, b, "n1");
    assertThat(s.busySlots()).isEqualTo(2);
    List<Task> requeued = s.registerNode("n1", 2, 1000, null, 5);
    assertThat(requeued).extracting(Task::taskId).containsExactly("a", "b");
    assertThat(requeued).extracting(Task::attempt).containsOnly(1);
    assertThat(s.busySlots()).isZero();
    assertThat(s.node("n1").freeSlots()).isEqualTo(2);
    assertThat(s.counters().failures).isZero(); // maxRetries 0: a failure would have dropped them
  }

  @Test
  void mchPlacesTheLostNodesQueuedTasksElsewhere() {
    PoolState s = new PoolState();
    Scheduler sch = new Scheduler("p", s, Policies.create("MCH", Map.of()));
    sch.applyNodeRegistered("n1", 1, 1000, null, 0);
    sch.applyNodeRegistered("n2", 2, 1000, null, 0);
    sch.applyCacheDelta("n1", 1, Map.of("f", 100L), List.of());
    sch.applyJobArrival(task("j1", 1, "f"));
    sch.applyJobArrival(task("j2", 2, "f"));
    List<Command.Run> first = runs(sch.dispatch(1));
    // j1 goes where f is; j2 waits for n1 (MCH), though n2 is free
    assertThat(first).extracting(Command.Run::node).containsExactly("n1");
    assertThat(runs(sch.dispatch(2))).isEmpty();

    sch.applyNodeReleased("n1"); // declared lost
    assertThat(s.holders("f")).isEmpty();
    List<Command.Run> after = runs(sch.dispatch(3));
    assertThat(after).extracting(r -> r.task().taskId()).containsExactly("j1", "j2");
    assertThat(after).extracting(Command.Run::node).containsOnly("n2");
    assertThat(after.get(0).task().attempt()).isEqualTo(1);
    assertThat(s.queueLength()).isZero();
  }

  @Test
  void aStartedQueuedAttemptIsAdoptedAndACompletedOneFinishesWithoutPlacement() {
    PoolState s = new PoolState();
    s.registerNode("n1", 1, 1000, null, 0);
    s.enqueue(task("a", 1, "f"));
    s.enqueue(task("b", 2, "g"));
    assertThat(s.adopt("a", 1, "n1", "p/a/1", 1)).as("another attempt").isNull();
    assertThat(s.adopt("a", 0, "nx", "p/a/0", 1)).as("an unknown node").isNull();
    RunningTask r = s.adopt("a", 0, "n1", "p/a/0", 1);
    assertThat(r.node()).isEqualTo("n1");
    assertThat(s.busySlots()).isEqualTo(1);
    assertThat(s.firstFree()).isNull();
    assertThat(s.completeQueued("b", 1, 0, 0, 100)).isFalse();
    assertThat(s.completeQueued("b", 0, 0, 0, 100)).isTrue();
    assertThat(s.queueLength()).isZero();
    assertThat(s.counters().completions).isEqualTo(1);
    assertThat(s.complete("a", 0, "n1", 0, 0, 100)).isEqualTo(PoolState.EndOutcome.COMPLETED);
    assertThat(s.busySlots()).isZero();
    assertThat(s.counters().completions).isEqualTo(2);
  }
}
