package io.locus.core.share;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Preemption victims: only to restore guarantees, never below a guarantee, in the stated order. */
class PreemptionTest {
  private static final int U = QueueSpec.UNLIMITED;
  private static final Preemption P = new Preemption(Preemption.DEFAULT_GRACE_SECONDS);

  private static QueueTree twoQueues() {
    return QueueTree.build(List.of(QueueSpec.of("a", null, 1, 4, U),
        QueueSpec.of("b", null, 1, 4, U)), 8);
  }

  private static RunningAttempt run(String id, String queue, int priority, double start,
      long bytesOnlyHere) {
    return new RunningAttempt(id, 0, queue, priority, start, "n1", bytesOnlyHere);
  }

  private static List<String> ids(PreemptionPlan plan) {
    List<String> out = new ArrayList<>();
    for (PreemptionPlan.Victim v : plan.victims()) {
      out.add(v.attempt().taskId());
    }
    return out;
  }

  /** b floods all 8 slots; a arrives with 2 pending tasks. */
  private static FairShare flooded(int aPending) {
    return FairShare.of(twoQueues(), PoolCapacity.slots(8),
        Map.of("a", QueueLoad.of(0, aPending), "b", QueueLoad.of(8, 50)), 100.0);
  }

  private static List<RunningAttempt> bAttempts() {
    List<RunningAttempt> r = new ArrayList<>();
    for (int i = 1; i <= 8; i++) {
      r.add(run("b" + i, "b", 0, i * 10.0, 0));
    }
    return r;
  }

  @Test
  void aStarvedQueueReclaimsTheMostRecentlyStartedAttempts() {
    PreemptionPlan plan = P.plan(flooded(2), bAttempts());
    // Least work lost: the latest starts (b8 at 80, b7 at 70) go.
    assertThat(ids(plan)).containsExactly("b8", "b7");
    assertThat(plan.victims()).allMatch(v -> v.forQueue().equals("a"));
    assertThat(plan.graceSeconds()).isEqualTo(30.0);
  }

  @Test
  void neverPushesAQueueBelowItsGuarantee() {
    // a wants 10 but is guaranteed 4; b keeps its own 4.
    PreemptionPlan plan = P.plan(flooded(10), bAttempts());
    assertThat(plan.victims()).hasSize(4);
    assertThat(ids(plan)).containsExactly("b8", "b7", "b6", "b5");
  }

  @Test
  void lowestPriorityFirstThenLeastWorkLost() {
    List<RunningAttempt> r = bAttempts();
    r.set(0, run("b1", "b", -5, 10.0, 0)); // oldest, but lowest priority
    r.set(7, run("b8", "b", 7, 80.0, 0)); // newest, but highest priority
    assertThat(ids(P.plan(flooded(2), r))).containsExactly("b1", "b7");
  }

  @Test
  void leastLocalityLostBreaksATieOfPriorityAndWork() {
    List<RunningAttempt> r = new ArrayList<>();
    for (int i = 1; i <= 8; i++) {
      // Same start for all: the bytes that exist only on the victim's node decide.
      r.add(run("b" + i, "b", 0, 50.0, i == 3 || i == 6 ? 0 : 1_000_000L * i));
    }
    assertThat(ids(P.plan(flooded(2), r))).containsExactly("b3", "b6");
  }

  @Test
  void theTaskIdBreaksTheLastTieAndTheInputOrderDoesNotMatter() {
    List<RunningAttempt> r = new ArrayList<>();
    for (int i = 1; i <= 8; i++) {
      r.add(run("b" + i, "b", 0, 50.0, 0));
    }
    List<RunningAttempt> shuffled = new ArrayList<>(r);
    Collections.reverse(shuffled);
    assertThat(ids(P.plan(flooded(2), r))).containsExactly("b1", "b2");
    assertThat(P.plan(flooded(2), shuffled)).isEqualTo(P.plan(flooded(2), r));
  }

  @Test
  void freeSlotsAreUsedBeforeAnyoneIsStopped() {
    FairShare s = FairShare.of(twoQueues(), PoolCapacity.slots(8),
        Map.of("a", QueueLoad.of(0, 3), "b", QueueLoad.of(6, 50)), 0);
    List<RunningAttempt> r = bAttempts().subList(0, 6);
    // 2 free slots cover 2 of a's 3: one attempt is stopped.
    assertThat(ids(P.plan(s, r))).containsExactly("b6");
  }

  @Test
  void aQueueAtOrAboveItsGuaranteeReclaimsNothing() {
    FairShare s = FairShare.of(twoQueues(), PoolCapacity.slots(8),
        Map.of("a", QueueLoad.of(4, 9), "b", QueueLoad.of(4, 9)), 0);
    List<RunningAttempt> r = new ArrayList<>(bAttempts().subList(0, 4));
    for (int i = 1; i <= 4; i++) {
      r.add(run("a" + i, "a", 0, i, 0));
    }
    assertThat(P.plan(s, r).isEmpty()).isTrue();
    // Nor does a queue without a guarantee, however far below its fair share it is.
    QueueTree t = QueueTree.build(List.of(QueueSpec.of("a", null, 1, 0, U),
        QueueSpec.of("b", null, 1, 0, U)), 8);
    FairShare noGuarantees = FairShare.of(t, PoolCapacity.slots(8),
        Map.of("a", QueueLoad.of(0, 9), "b", QueueLoad.of(8, 9)), 0);
    assertThat(P.plan(noGuarantees, bAttempts()).isEmpty()).isTrue();
  }

  @Test
  void siblingsUnderOneParentReclaimWithoutTouchingTheParentsGuarantee() {
    // eng (guaranteed 4) has ml (2) and web (2); ops floods the rest. ml is starved while web
    // borrows inside eng: ml reclaims from web (eng's usage is unchanged), not from ops, which is
    // at its guarantee.
    QueueTree t = QueueTree.build(List.of(QueueSpec.of("eng", null, 1, 4, U),
        QueueSpec.of("ml", "eng", 1, 2, U), QueueSpec.of("web", "eng", 1, 2, U),
        QueueSpec.of("ops", null, 1, 4, U)), 8);
    FairShare s = FairShare.of(t, PoolCapacity.slots(8), Map.of("ml", QueueLoad.of(0, 5),
        "web", QueueLoad.of(4, 0), "ops", QueueLoad.of(4, 9)), 0);
    List<RunningAttempt> r = List.of(run("w1", "web", 0, 1, 0), run("w2", "web", 0, 2, 0),
        run("w3", "web", 0, 3, 0), run("w4", "web", 0, 4, 0), run("o1", "ops", -9, 9, 0),
        run("o2", "ops", -9, 9, 0), run("o3", "ops", -9, 9, 0), run("o4", "ops", -9, 9, 0));
    PreemptionPlan plan = P.plan(s, r);
    assertThat(ids(plan)).containsExactly("w4", "w3");
  }

  @Test
  void theMostStarvedClaimantIsServedFirst() {
    QueueTree t = QueueTree.build(List.of(QueueSpec.of("a", null, 1, 2, U),
        QueueSpec.of("c", null, 1, 4, U), QueueSpec.of("b", null, 1, 0, U)), 8);
    // a holds 1 of 2 (0.5), c holds 0 of 4 (0): c is served first; b (no guarantee) gives 5 of 7.
    FairShare s = FairShare.of(t, PoolCapacity.slots(8), Map.of("a", QueueLoad.of(1, 5),
        "c", QueueLoad.of(0, 9), "b", QueueLoad.of(7, 9)), 0);
    List<RunningAttempt> r = new ArrayList<>();
    r.add(run("a1", "a", 0, 1, 0));
    for (int i = 1; i <= 7; i++) {
      r.add(run("b" + i, "b", 0, i, 0));
    }
    PreemptionPlan plan = P.plan(s, r);
    assertThat(plan.victims()).extracting(PreemptionPlan.Victim::forQueue)
        .containsExactly("c", "c", "c", "c", "a");
    assertThat(ids(plan)).containsExactly("b7", "b6", "b5", "b4", "b3");
  }

  @Test
  void aBadGracePeriodIsRefused() {
    assertThatThrownBy(() -> new Preemption(-1))
        .hasMessage("grace period must be a finite number of seconds >= 0, got -1.0");
    assertThatThrownBy(() -> new Preemption(Double.NaN)).hasMessageContaining("got NaN");
  }
}
