package io.locus.core.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.Scheduler;
import io.locus.core.model.Command;
import io.locus.core.model.Task;
import io.locus.core.share.QueueSpec;
import io.locus.core.share.QueueTree;
import io.locus.core.state.PoolState;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The scheduler's preemption round after a fair-share dispatch (issue 24): queue a fills the pool,
 * b arrives; b's guarantee is reclaimed with Preempt commands once, the freed slots go to b (not
 * back to the re-queued a tasks), and every task completes exactly once with no failure counted.
 */
class SchedulerPreemptionTest {
  private static final QueueTree TREE = QueueTree.build(List.of(
      QueueSpec.of("a", null, 1, 2, QueueSpec.UNLIMITED),
      QueueSpec.of("b", null, 1, 2, QueueSpec.UNLIMITED)), 4);

  private static Task task(String id, long seq, String queue, double submit) {
    return Task.of(id, seq, submit, 100).withQueue(queue);
  }

  private static List<Command.Run> runs(List<Command> cmds) {
    return cmds.stream().filter(c -> c instanceof Command.Run).map(c -> (Command.Run) c).toList();
  }

  private static List<Command.Preempt> preempts(List<Command> cmds) {
    return cmds.stream().filter(c -> c instanceof Command.Preempt).map(c -> (Command.Preempt) c)
        .toList();
  }

  @Test
  void aQueueBelowItsGuaranteeReclaimsItsSlotsAndEveryTaskCompletesOnce() {
    Scheduler s = new Scheduler("p", new PoolState(), Policies.create("FA", Map.of()));
    s.setQueues(TREE);
    s.setPreemptionGrace(5);
    s.applyNodeRegistered("n1", 2, 0, null, 0);
    s.applyNodeRegistered("n2", 2, 0, null, 0);
    Map<String, Command.Run> placed = new TreeMap<>();
    for (int i = 0; i < 4; i++) {
      s.applyJobArrival(task("a" + i, i, "a", 0));
    }
    runs(s.dispatch(0)).forEach(r -> placed.put(r.task().taskId(), r));
    assertThat(placed).hasSize(4);

    s.applyJobArrival(task("b0", 10, "b", 1));
    s.applyJobArrival(task("b1", 11, "b", 1));
    List<Command> at1 = s.dispatch(1);
    assertThat(runs(at1)).isEmpty();
    List<Command.Preempt> stops = preempts(at1);
    assertThat(stops).hasSize(2).allSatisfy(p -> {
      assertThat(p.forQueue()).isEqualTo("b");
      assertThat(p.graceSeconds()).isEqualTo(5);
    });
    assertThat(preempts(s.dispatch(2))).as("not planned twice during the grace").isEmpty();

    // the nodes answer PREEMPTED: each freed slot goes to b, not back to the re-queued a task
    for (Command.Preempt p : stops) {
      assertThat(s.applyTaskPreempted(p.taskId(), p.attempt(), p.node()))
          .isEqualTo(PoolState.EndOutcome.REQUEUED);
      List<Command.Run> next = runs(s.dispatch(3));
      assertThat(next).hasSize(1);
      assertThat(next.get(0).task().queue()).isEqualTo("b");
      assertThat(next.get(0).node()).isEqualTo(p.node());
      placed.put(next.get(0).task().taskId(), next.get(0));
      placed.remove(p.taskId());
    }
    assertThat(s.state().queueLedger().preempted("a")).isEqualTo(2);
    assertThat(s.state().queueLedger().preempted("b")).isZero();
    // a duplicate PREEMPTED changes nothing and is not counted again
    assertThat(s.applyTaskPreempted(stops.get(0).taskId(), 0, stops.get(0).node()))
        .isEqualTo(PoolState.EndOutcome.IGNORED);
    assertThat(s.state().queueLedger().preempted("a")).isEqualTo(2);

    // everything runs to its end: each task completes exactly once
    Map<String, Integer> completions = new TreeMap<>();
    double now = 100;
    while (!placed.isEmpty()) {
      for (Command.Run r : List.copyOf(placed.values())) {
        assertThat(s.applyTaskCompleted(r.task().taskId(), r.task().attempt(), r.node(), 0, 0, 0))
            .isEqualTo(PoolState.EndOutcome.COMPLETED);
        completions.merge(r.task().taskId(), 1, Integer::sum);
        placed.remove(r.task().taskId());
      }
      now += 100;
      for (Command c : s.dispatch(now)) {
        assertThat(c).isInstanceOf(Command.Run.class);
        Command.Run r = (Command.Run) c;
        placed.put(r.task().taskId(), r);
      }
    }
    assertThat(completions).containsOnlyKeys("a0", "a1", "a2", "a3", "b0", "b1")
        .allSatisfy((id, n) -> assertThat(n).isEqualTo(1));
    assertThat(s.state().counters().failures).isZero();
    assertThat(s.state().counters().retries).isZero();
    assertThat(s.state().counters().completions).isEqualTo(6);
  }

  @Test
  void withoutQueuesOrWithPreemptionOffNothingIsPreempted() {
    Scheduler s = new Scheduler("p", new PoolState(), Policies.create("FA", Map.of()));
    s.setQueues(TREE);
    s.setPreemptionGrace(Double.NaN);
    s.applyNodeRegistered("n1", 4, 0, null, 0);
    for (int i = 0; i < 4; i++) {
      s.applyJobArrival(task("a" + i, i, "a", 0));
    }
    assertThat(runs(s.dispatch(0))).hasSize(4);
    s.applyJobArrival(task("b0", 10, "b", 1));
    assertThat(s.dispatch(1)).isEmpty();
    assertThat(s.preemptionGrace()).isNaN();

    Scheduler plain = new Scheduler("p", new PoolState(), Policies.create("FA", Map.of()));
    plain.applyNodeRegistered("n1", 4, 0, null, 0);
    for (int i = 0; i < 4; i++) {
      plain.applyJobArrival(task("a" + i, i, "a", 0));
    }
    assertThat(runs(plain.dispatch(0))).hasSize(4);
    plain.applyJobArrival(task("b0", 10, "b", 1));
    assertThat(plain.dispatch(1)).isEmpty();
  }
}
