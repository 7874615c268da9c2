package io.locus.core.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.core.Scheduler;
import io.locus.core.model.Command;
import io.locus.core.model.InputFile;
import io.locus.core.model.PendingCode;
import io.locus.core.model.Task;
import io.locus.core.policy.Pending;
import io.locus.core.policy.PendingExplainer;
import io.locus.core.policy.Policies;
import io.locus.core.policy.Policy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The retry backoff rule (docs/policies.md, "Retries") and how the pool state applies it. */
class RetryBackoffTest {
  private static Task task(String id, long seq) {
    return Task.of(id, seq, 0, 1.0, InputFile.of("f-" + id, 100));
  }

  private static void place(PoolState s, Task t, String node, double now) {
    s.assign(t, node, s.plan(t, s.node(node), true), "d-" + t.taskId(), now);
  }

  @Test
  void delayDoublesFromTheInitialUpToTheCap() {
    RetryBackoff b = new RetryBackoff(10, 60);
    assertThat(b.delay(1)).isEqualTo(10);
    assertThat(b.delay(2)).isEqualTo(20);
    assertThat(b.delay(3)).isEqualTo(40);
    assertThat(b.delay(4)).isEqualTo(60);
    assertThat(b.delay(5000)).isEqualTo(60); // no overflow past the cap
    assertThat(b.delay(0)).isZero();
    assertThat(RetryBackoff.NONE.delay(3)).isZero();
    assertThat(RetryBackoff.NONE.enabled()).isFalse();
    assertThat(RetryBackoff.DEFAULT).isEqualTo(new RetryBackoff(10, 360));
  }

  @Test
  void badBackoffsAreRefused() {
    assertThatThrownBy(() -> new RetryBackoff(-1, 10)).hasMessageContaining("≥ 0");
    assertThatThrownBy(() -> new RetryBackoff(10, 5)).hasMessageContaining("at least");
    assertThatThrownBy(() -> new RetryBackoff(Double.NaN, 5)).hasMessageContaining("finite");
    assertThatThrownBy(() -> new RetryBackoff(1, Double.POSITIVE_INFINITY))
        .hasMessageContaining("finite");
  }

  @Test
  void aFailedTaskIsParkedUntilItsBackoffEndsThenGoesBackToItsQueuePosition() {
    List<String> journal = new ArrayList<>();
    PoolState s = new PoolState(new StateJournal() {
      @Override
      public void taskParked(String taskId, double until) {
        journal.add(taskId + "@" + until);
      }
    }, 3, new RetryBackoff(10, 360));
    s.registerNode("n1", 1, 1000, null, 0);
    s.enqueue(task("first", 1));
    s.enqueue(task("second", 2));
    place(s, s.queued("first"), "n1", 100);
    assertThat(s.fail("first", 0, "n1", 100)).isEqualTo(PoolState.EndOutcome.REQUEUED);
    // not in the queue: no policy can place it
    assertThat(s.queue()).extracting(Task::taskId).containsExactly("second");
    assertThat(s.isQueued("first")).isFalse();
    assertThat(s.parked("first").until()).isEqualTo(110);
    assertThat(s.parked("first").task().attempt()).isEqualTo(1);
    assertThat(s.backoffLength()).isEqualTo(1);
    assertThat(s.nextRelease()).isEqualTo(110);
    assertThat(s.counters().retries).isEqualTo(1);
    // a duplicate arrival of a parked task is one
    assertThat(s.enqueue(task("first", 1))).isFalse();
    assertThat(s.releaseDue(109.999)).isEmpty();
    assertThat(s.releaseDue(110)).extracting(Task::taskId).containsExactly("first");
    // back ahead of "second", with the next attempt number
    assertThat(s.queue()).extracting(Task::taskId).containsExactly("first", "second");
    assertThat(s.backoffLength()).isZero();
    assertThat(s.nextRelease()).isNaN();
    assertThat(journal).containsExactly("first@110.0", "first@NaN");
  }

  @Test
  void eachFailureOfItsOwnDoublesTheWaitAndSparedAttemptsDoNotCount() {
    PoolState s = new PoolState(StateJournal.NONE, 3, new RetryBackoff(10, 25));
    s.registerNode("n1", 1, 1000, null, 0);
    s.enqueue(task("t", 1));
    place(s, s.queued("t"), "n1", 0);
    s.fail("t", 0, "n1", 0);
    assertThat(s.parked("t").until()).isEqualTo(10);
    s.releaseDue(10);
    place(s, s.queued("t"), "n1", 10);
    // its node is lost: re-queued at once, not a failure of its own
    s.removeNode("n1");
    assertThat(s.queued("t").attempt()).isEqualTo(2);
    s.registerNode("n1", 1, 1000, null, 11);
    place(s, s.queued("t"), "n1", 11);
    s.fail("t", 2, "n1", 12);
    // its second failure of its own: 20 s
    assertThat(s.parked("t").until()).isEqualTo(32);
    s.releaseDue(32);
    place(s, s.queued("t"), "n1", 32);
    s.fail("t", 3, "n1", 40);
    // the third: 40 s, capped at 25 s
    assertThat(s.parked("t").until()).isEqualTo(65);
    s.releaseDue(65);
    place(s, s.queued("t"), "n1", 65);
    // the fourth failure of its own is past its 3 retries
    assertThat(s.fail("t", 4, "n1", 70)).isEqualTo(PoolState.EndOutcome.FAILED_PERMANENTLY);
    assertThat(s.parked("t")).isNull();
    assertThat(s.queueLength()).isZero();
  }

  @Test
  void aRefusalAndAPoolWithoutBackoffReQueueAtOnce() {
    PoolState s = new PoolState(StateJournal.NONE, 3, new RetryBackoff(10, 360));
    s.registerNode("n1", 1, 1000, null, 0);
    s.enqueue(task("t", 1));
    place(s, s.queued("t"), "n1", 0);
    assertThat(s.fail("t", 0, "n1")).isEqualTo(PoolState.EndOutcome.REQUEUED); // refused
    assertThat(s.queued("t").attempt()).isEqualTo(1);
    PoolState none = new PoolState(StateJournal.NONE, 3);
    none.registerNode("n1", 1, 1000, null, 0);
    none.enqueue(task("t", 1));
    place(none, none.queued("t"), "n1", 0);
    none.fail("t", 0, "n1", 5);
    assertThat(none.queued("t").attempt()).isEqualTo(1);
    assertThat(none.backoffLength()).isZero();
  }

  @Test
  void aParkedTaskCanBeCancelledAdoptedOrCompleted() {
    PoolState s = new PoolState(StateJournal.NONE, 3, new RetryBackoff(10, 360));
    s.registerNode("n1", 2, 1000, null, 0);
    for (String id : List.of("a", "b", "c")) {
      s.enqueue(task(id, id.charAt(0)));
    }
    place(s, s.queued("a"), "n1", 0);
    place(s, s.queued("b"), "n1", 0);
    s.fail("a", 0, "n1", 1);
    s.fail("b", 0, "n1", 1);
    assertThat(s.cancelQueued("a").attempt()).isEqualTo(1);
    assertThat(s.parked("a")).isNull();
    assertThat(s.releaseDue(1000)).extracting(Task::taskId).containsExactly("b");
    place(s, s.queued("b"), "n1", 1000);
    s.fail("b", 1, "n1", 1000);
    // reconciliation after a restore: the parked attempt is known to run, or to have completed
    assertThat(s.adopt("b", 1, "n1", "d", 1001)).isNull(); // not the parked attempt
    assertThat(s.adopt("b", 2, "n1", "d", 1001)).isNotNull();
    assertThat(s.backoffLength()).isZero();
    place(s, s.queued("c"), "n1", 1001);
    s.fail("c", 0, "n1", 1001);
    assertThat(s.completeQueued("c", 1, 0, 0, 0)).isTrue();
    assertThat(s.backoffLength()).isZero();
    assertThat(s.queueLength()).isZero();
  }

  @Test
  void theSchedulerReleasesDueTasksBeforeItDispatches() {
    PoolState s = new PoolState(StateJournal.NONE, 3, new RetryBackoff(10, 360));
    Scheduler sched = new Scheduler("p", s, Policies.create("FA", Map.of()));
    sched.applyNodeRegistered("n1", 1, 1000, null, 0);
    sched.applyJobArrival(task("t", 1));
    Command.Run run = (Command.Run) sched.dispatch(0).get(0);
    sched.applyTaskFailed("t", run.task().attempt(), "n1", 5);
    assertThat(sched.dispatch(14.9)).isEmpty();
    List<Command> after = sched.dispatch(15);
    assertThat(after).hasSize(1);
    assertThat(((Command.Run) after.get(0)).task().attempt()).isEqualTo(1);
  }

  @Test
  void aParkedTaskIsPendingWithCodeBackoffAndItsReleaseTime() {
    PoolState s = new PoolState(StateJournal.NONE, 3, new RetryBackoff(10, 360));
    Policy fa = Policies.create("FA", Map.of());
    s.registerNode("n1", 1, 1000, null, 0);
    s.enqueue(task("a", 1));
    s.enqueue(task("b", 2));
    place(s, s.queued("a"), "n1", 0);
    s.fail("a", 0, "n1", 1_764_331_200); // 2025-11-28T12:00:00Z
    Pending p = PendingExplainer.explain(s, fa, false, "a", 1_764_331_205);
    assertThat(p.code()).isEqualTo(PendingCode.BACKOFF);
    assertThat(p.until()).isEqualTo(1_764_331_210);
    assertThat(p.text()).startsWith("retry 1 (attempt 1) after backoff until "
        + "2025-11-28T12:00:10Z (in 5.0 s");
    PendingExplainer.Summary sum = PendingExplainer.explainQueue(s, fa, false, 1_764_331_205);
    assertThat(sum.byCode()).containsEntry("backoff", 1).containsEntry("no-free-slot", 1);
    // the pool-wide codes come first
    assertThat(PendingExplainer.explain(s, fa, true, "a", 0).code())
        .isEqualTo(PendingCode.PAUSED);
    assertThat(PendingExplainer.explainQueue(s, fa, true, 0).byCode())
        .containsExactly(Map.entry("paused", 2));
    Map<String, PendingCode> refreshed = new HashMap<>();
    PendingExplainer.explainQueue(s, fa, false, 0, new PendingExplainer.Refresh() {
      @Override
      public boolean wants(Task t, PendingCode code) {
        return true;
      }

      @Override
      public void accept(Task t, Pending reason) {
        refreshed.put(t.taskId(), reason.code());
      }
    });
    assertThat(refreshed).containsEntry("a", PendingCode.BACKOFF)
        .containsEntry("b", PendingCode.NO_FREE_SLOT);
  }
}
