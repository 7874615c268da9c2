package io.locus.core.share;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The first "done when", on the core alone: two queues with equal weights and guarantees,
 * one flooding the pool first; the second reaches its guarantee within a stated bound (one grace
 * period with preemption, one task length without), and every task completes exactly once.
 * A small discrete-event loop drives the ledger, fair share and preemption as a pool would.
 */
class FloodScenarioTest {
  private static final int SLOTS = 8;
  private static final double TASK_SECONDS = 100;
  private static final double GRACE = 5;

  /** What a run gives: when b first held its guarantee, and how often each task completed. */
  private record Outcome(double bAtGuarantee, Map<String, Integer> completions, int preempted) {}

  private record Run(String id, String queue, double submit, double end) {}

  private static Outcome run(boolean preemption) {
    QueueTree tree = QueueTree.build(List.of(QueueSpec.of("a", null, 1, 4, QueueSpec.UNLIMITED),
        QueueSpec.of("b", null, 1, 4, QueueSpec.UNLIMITED)), SLOTS);
    QueueLedger ledger = new QueueLedger(tree);
    Preemption p = new Preemption(GRACE);
    Map<String, ArrayDeque<String[]>> pending = Map.of("a", new ArrayDeque<>(),
        "b", new ArrayDeque<>());
    List<Run> running = new ArrayList<>();
    Map<String, Integer> completions = new TreeMap<>();
    Set<String> stopping = new HashSet<>();
    double stopAt = Double.NaN;
    int preempted = 0;
    double bAtGuarantee = Double.NaN;
    // a floods at t = 0 with 40 tasks; b submits 12 at t = 1.
    for (double now = 0; now <= 2000; now += 1) {
      if (now == 0 || now == 1) {
        String q = now == 0 ? "a" : "b";
        for (int i = 0; i < (now == 0 ? 40 : 12); i++) {
          pending.get(q).add(new String[] {q + i, String.valueOf(now)});
          ledger.queued(q, now);
        }
      }
      for (Run r : new ArrayList<>(running)) {
        if (r.end() <= now) {
          running.remove(r);
          ledger.ended(r.queue(), null);
          completions.merge(r.id(), 1, Integer::sum);
        } else if (stopping.contains(r.id()) && now >= stopAt) {
          // The agent stopped it after the grace period: re-queued, not a failure.
          running.remove(r);
          stopping.remove(r.id());
          ledger.requeued(r.queue(), r.submit(), null);
          pending.get(r.queue()).addFirst(new String[] {r.id(), String.valueOf(r.submit())});
          preempted++;
        }
      }
      if (preemption && stopping.isEmpty()) {
        List<RunningAttempt> attempts = new ArrayList<>();
        for (Run r : running) {
          attempts.add(new RunningAttempt(r.id(), 0, r.queue(), 0, r.end() - TASK_SECONDS, "n",
              0));
        }
        PreemptionPlan plan = p.plan(ledger.share(PoolCapacity.slots(SLOTS), now), attempts);
        for (PreemptionPlan.Victim v : plan.victims()) {
          stopping.add(v.attempt().taskId());
          stopAt = now + plan.graceSeconds();
        }
      }
      while (running.size() < SLOTS) {
        String q = ledger.share(PoolCapacity.slots(SLOTS), now).next();
        if (q == null) {
          break;
        }
        String[] t = pending.get(q).poll();
        double submit = Double.parseDouble(t[1]);
        ledger.started(q, submit, null);
        running.add(new Run(t[0], q, submit, now + TASK_SECONDS));
      }
      long b = running.stream().filter(r -> r.queue().equals("b")).count();
      if (Double.isNaN(bAtGuarantee) && b >= 4) {
        bAtGuarantee = now;
      }
    }
    return new Outcome(bAtGuarantee, completions, preempted);
  }

  @Test
  void withPreemptionTheStarvedQueueReachesItsGuaranteeWithinOneGracePeriod() {
    Outcome o = run(true);
    // b arrives at t = 1, a's four newest attempts are told to stop then, and stop at 1 + 5.
    assertThat(o.bAtGuarantee()).isEqualTo(1 + GRACE);
    assertThat(o.preempted()).isEqualTo(4);
    assertThat(o.completions()).hasSize(52).allSatisfy((id, n) -> assertThat(n).isEqualTo(1));
  }

  @Test
  void withoutPreemptionItWaitsForOneTaskLength() {
    Outcome o = run(false);
    // a's first eight end at t = 100; b, below its guarantee, takes the first four freed slots.
    assertThat(o.bAtGuarantee()).isEqualTo(TASK_SECONDS);
    assertThat(o.preempted()).isZero();
    assertThat(o.completions()).hasSize(52).allSatisfy((id, n) -> assertThat(n).isEqualTo(1));
  }

  @Test
  void theRunIsDeterministic() {
    assertThat(run(true)).isEqualTo(run(true));
  }
}
