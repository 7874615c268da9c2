package io.locus.core.share;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.locus.core.model.InputFile;
import io.locus.core.model.ResourceVector;
import io.locus.core.model.Task;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Whose task runs next: guarantees, weights, borrowing, limits, lending, hierarchy, DRF, maxWait. */
class FairShareTest {
  private static final int U = QueueSpec.UNLIMITED;

  private static QueueTree tree(QueueSpec... specs) {
    return QueueTree.build(List.of(specs), -1);
  }

  private static FairShare share(QueueTree t, int slots, Map<String, QueueLoad> loads) {
    return FairShare.of(t, PoolCapacity.slots(slots), loads, 0);
  }

  @Test
  void aPoolWithoutQueuesServesTheDefaultQueueAlone() {
    FairShare s = share(QueueTree.defaultOnly(), 4, Map.of("default", QueueLoad.of(3, 10)));
    assertThat(s.order()).containsExactly("default");
    assertThat(s.standing("default").fairShare()).isEqualTo(4.0);
    // Late binding may hold more attempts than slots; fair share does not second-guess the pool.
    assertThat(share(QueueTree.defaultOnly(), 4, Map.of("default", QueueLoad.of(6, 1))).next())
        .isEqualTo("default");
    assertThat(share(QueueTree.defaultOnly(), 4, Map.of("default", QueueLoad.of(1, 0))).next())
        .isNull();
  }

  @Test
  void aQueueBelowItsGuaranteeGoesBeforeALowerShare() {
    QueueTree t = tree(QueueSpec.of("a", null, 1, 4, U), QueueSpec.of("b", null, 1, 0, U));
    // a holds 3 of its 4 guaranteed slots, b holds 1 and no guarantee: a is served first although
    // b's share is lower.
    FairShare s = share(t, 10, Map.of("a", QueueLoad.of(3, 5), "b", QueueLoad.of(1, 5)));
    assertThat(s.order()).containsExactly("a", "b");
    // At its guarantee, a competes by share: b's 1/10 beats a's 4/10.
    assertThat(share(t, 10, Map.of("a", QueueLoad.of(4, 5), "b", QueueLoad.of(1, 5))).order())
        .containsExactly("b", "a");
  }

  @Test
  void theMostStarvedGuaranteeFirst() {
    QueueTree t = tree(QueueSpec.of("a", null, 1, 4, U), QueueSpec.of("b", null, 1, 8, U));
    // a at 2/4 = 0.5 of its guarantee, b at 3/8 = 0.375: b first.
    FairShare s = share(t, 12, Map.of("a", QueueLoad.of(2, 5), "b", QueueLoad.of(3, 5)));
    assertThat(s.order()).containsExactly("b", "a");
  }

  @Test
  void weightsDivideWhatIsAboveTheGuarantees() {
    QueueTree t = tree(QueueSpec.of("a", null, 2, 0, U), QueueSpec.of("b", null, 1, 0, U));
    // a with weight 2 at 3 slots (3/2 = 1.5) goes before b at 2 slots (2/1 = 2).
    assertThat(share(t, 10, Map.of("a", QueueLoad.of(3, 9), "b", QueueLoad.of(2, 9))).next())
        .isEqualTo("a");
    // a at 5 (2.5) yields to b at 2 (2).
    assertThat(share(t, 10, Map.of("a", QueueLoad.of(5, 9), "b", QueueLoad.of(2, 9))).next())
        .isEqualTo("b");
    FairShare s = share(t, 9, Map.of("a", QueueLoad.of(0, 9), "b", QueueLoad.of(0, 9)));
    assertThat(s.standing("a").fairShare()).isCloseTo(6.0, within(1e-6));
    assertThat(s.standing("b").fairShare()).isCloseTo(3.0, within(1e-6));
  }

  @Test
  void simulatedRoundsConvergeToTheWeights() {
    QueueTree t = tree(QueueSpec.of("a", null, 3, 0, U), QueueSpec.of("b", null, 1, 0, U));
    FairShare s = share(t, 12, Map.of("a", QueueLoad.of(0, 100), "b", QueueLoad.of(0, 100)));
    for (int i = 0; i < 12; i++) {
      s = s.after(s.next(), null);
    }
    assertThat(s.standing("a").running()).isEqualTo(9);
    assertThat(s.standing("b").running()).isEqualTo(3);
  }

  @Test
  void anIdleQueuesShareIsBorrowedUpToTheLimit() {
    QueueTree t = tree(QueueSpec.of("a", null, 1, 5, 7), QueueSpec.of("b", null, 1, 5, U));
    // b idle: a borrows b's guarantee, but only up to its limit of 7.
    FairShare s = share(t, 10, Map.of("a", QueueLoad.of(6, 9)));
    assertThat(s.next()).isEqualTo("a");
    assertThat(s.standing("a").borrowed()).isEqualTo(1.0);
    assertThat(share(t, 10, Map.of("a", QueueLoad.of(7, 9))).next()).isNull();
    assertThat(share(t, 10, Map.of("a", QueueLoad.of(7, 9))).standing("a").atLimit()).isTrue();
    assertThat(s.standing("a").fairShare()).isEqualTo(7.0);
  }

  @Test
  void aLendingLimitKeepsPartOfAnIdleGuarantee() {
    // b lends 1 of its 4 guaranteed slots: 3 stay free for b's next task even while b is idle.
    QueueTree t = tree(QueueSpec.of("a", null, 1, 0, U),
        QueueSpec.of("b", null, 1, 4, U).withLendingLimit(1));
    assertThat(share(t, 10, Map.of("a", QueueLoad.of(6, 9))).canStart("a")).isTrue();
    assertThat(share(t, 10, Map.of("a", QueueLoad.of(7, 9))).canStart("a")).isFalse();
    // b using 2 of its reserve leaves 1 reserved: a may hold 10 − 2 − 1 = 7.
    Map<String, QueueLoad> loads = Map.of("a", QueueLoad.of(6, 9), "b", QueueLoad.of(2, 0));
    assertThat(share(t, 10, loads).canStart("a")).isTrue();
    loads = Map.of("a", QueueLoad.of(7, 9), "b", QueueLoad.of(2, 0));
    assertThat(share(t, 10, loads).canStart("a")).isFalse();
    // b itself may always use its reserve.
    assertThat(share(t, 10, Map.of("a", QueueLoad.of(7, 0), "b", QueueLoad.of(0, 3))).next())
        .isEqualTo("b");
  }

  @Test
  void nestedReservesCountOnce() {
    // p keeps 2 (4 guaranteed, lends 2); inside it c keeps 2 (2 guaranteed, lends 0): the subtree
    // keeps max(2, 2) = 2, not 4.
    QueueTree t = tree(QueueSpec.of("a", null, 1, 0, U),
        QueueSpec.of("p", null, 1, 4, U).withLendingLimit(2),
        QueueSpec.of("c", "p", 1, 2, U).withLendingLimit(0));
    assertThat(share(t, 10, Map.of("a", QueueLoad.of(7, 9))).canStart("a")).isTrue();
    assertThat(share(t, 10, Map.of("a", QueueLoad.of(8, 9))).canStart("a")).isFalse();
  }

  @Test
  void childrenShareWhatTheirParentGets() {
    QueueTree t = tree(QueueSpec.of("eng", null, 1, 0, U), QueueSpec.of("ops", null, 1, 0, U),
        QueueSpec.of("ml", "eng", 3, 0, U), QueueSpec.of("web", "eng", 1, 0, U));
    Map<String, QueueLoad> loads = new HashMap<>();
    loads.put("ml", QueueLoad.of(0, 100));
    loads.put("web", QueueLoad.of(0, 100));
    loads.put("ops", QueueLoad.of(0, 100));
    FairShare s = share(t, 16, loads);
    for (int i = 0; i < 16; i++) {
      s = s.after(s.next(), null);
    }
    // eng and ops halve the pool; eng's 8 go 3:1 to ml and web.
    assertThat(s.standing("ops").running()).isEqualTo(8);
    assertThat(s.standing("eng").running()).isEqualTo(8);
    assertThat(s.standing("ml").running()).isEqualTo(6);
    assertThat(s.standing("web").running()).isEqualTo(2);
    FairShare fresh = share(t, 16, loads);
    assertThat(fresh.standing("eng").fairShare()).isCloseTo(8.0, within(1e-6));
    assertThat(fresh.standing("ml").fairShare()).isCloseTo(6.0, within(1e-6));
    assertThat(fresh.standing("web").fairShare()).isCloseTo(2.0, within(1e-6));
  }

  @Test
  void aParentAtItsLimitStopsEveryChild() {
    QueueTree t = tree(QueueSpec.of("eng", null, 1, 0, 4), QueueSpec.of("ml", "eng", 1, 0, 4),
        QueueSpec.of("web", "eng", 1, 0, 4));
    FairShare s = share(t, 16, Map.of("ml", QueueLoad.of(3, 5), "web", QueueLoad.of(1, 5)));
    assertThat(s.order()).isEmpty();
    assertThat(s.canStart("web")).isFalse();
    assertThat(s.standing("eng").atLimit()).isTrue();
  }

  @Test
  void guaranteesShrinkWithThePool() {
    QueueTree t = tree(QueueSpec.of("a", null, 1, 6, U), QueueSpec.of("b", null, 1, 2, U));
    // The pool has 4 slots (provisioning released nodes): guarantees scale by 4/8.
    FairShare s = share(t, 4, Map.of("a", QueueLoad.of(0, 9), "b", QueueLoad.of(0, 9)));
    assertThat(s.standing("a").guarantee()).isEqualTo(3.0);
    assertThat(s.standing("b").guarantee()).isEqualTo(1.0);
  }

  @Test
  void dominantResourceShareCountsDeclaredResources() {
    QueueTree t = tree(QueueSpec.of("a", null, 1, 0, U), QueueSpec.of("b", null, 1, 0, U));
    PoolCapacity cap = new PoolCapacity(10, ResourceVector.of(10, 10, 10));
    // a: 2 slots but 6 of 10 memory (dominant 0.6); b: 4 slots, little memory (dominant 0.4).
    Map<String, QueueLoad> loads = Map.of(
        "a", QueueLoad.of(2, 5).withResources(ResourceVector.of(0.2, 6, 0)),
        "b", QueueLoad.of(4, 5).withResources(ResourceVector.of(0.4, 0.4, 0)));
    FairShare s = FairShare.of(t, cap, loads, 0);
    assertThat(s.standing("a").dominantShare()).isCloseTo(0.6, within(1e-12));
    assertThat(s.next()).isEqualTo("b");
    // Slots alone would have picked a.
    assertThat(share(t, 10, Map.of("a", QueueLoad.of(2, 5), "b", QueueLoad.of(4, 5))).next())
        .isEqualTo("a");
    FairShare after = s.after("b", ResourceVector.of(0.1, 3, 0));
    assertThat(after.standing("b").dominantShare()).isCloseTo(0.5, within(1e-12));
  }

  @Test
  void anOverdueQueueGoesFirstAtTheCernBound() {
    QueueTree t = tree(QueueSpec.of("a", null, 1, 4, U),
        QueueSpec.of("slow", null, 1, 0, U).withMaxWait(100.0));
    Map<String, QueueLoad> loads = Map.of("a", QueueLoad.of(0, 9),
        "slow", QueueLoad.of(5, 2).withOldestPending(10.0));
    PoolCapacity cap = PoolCapacity.slots(10);
    assertThat(FairShare.of(t, cap, loads, 110.0).next()).isEqualTo("a");
    FairShare late = FairShare.of(t, cap, loads, 110.5);
    assertThat(late.next()).isEqualTo("slow");
    assertThat(late.standing("slow").overdueSeconds()).isEqualTo(0.5);
  }

  @Test
  void theHeadOfAQueueIsItsFirstTaskInQueueOrder() {
    QueueTree t = tree(QueueSpec.of("a", null, 1, 0, U));
    InputFile f = InputFile.of("f", 1);
    List<Task> ranked = List.of(Task.of("t1", 1, 0, 1, f), Task.of("t2", 2, 0, 1, f).withQueue("a"),
        Task.of("t3", 3, 0, 1, f).withQueue("a"));
    FairShare s = share(t, 2, Map.of("a", QueueLoad.of(0, 2), "default", QueueLoad.of(0, 1)));
    assertThat(s.headOf(ranked, "a").taskId()).isEqualTo("t2");
    assertThat(s.headOf(ranked, "default").taskId()).isEqualTo("t1");
  }

  @Test
  void contendedWhenAnotherQueueCouldStart() {
    QueueTree t = tree(QueueSpec.of("a", null, 1, 0, U), QueueSpec.of("b", null, 1, 0, U));
    assertThat(share(t, 4, Map.of("a", QueueLoad.of(0, 3))).contended("a")).isFalse();
    assertThat(share(t, 4, Map.of("a", QueueLoad.of(0, 3), "b", QueueLoad.of(0, 1)))
        .contended("a")).isTrue();
  }

  @Test
  void loadsOfNonLeavesAreRefused() {
    QueueTree t = tree(QueueSpec.of("p", null, 1, 0, U), QueueSpec.of("c", "p", 1, 0, U));
    assertThatThrownBy(() -> share(t, 4, Map.of("p", QueueLoad.of(0, 1))))
        .hasMessage("'p' is not a leaf queue of this pool");
    assertThatThrownBy(() -> share(t, 4, Map.of("x", QueueLoad.of(0, 1))))
        .hasMessage("'x' is not a leaf queue of this pool");
    assertThatThrownBy(() -> share(t, 4, Map.of()).after("c", null))
        .hasMessage("queue 'c' has no pending task to start");
  }

  @Test
  void theSameInputsGiveTheSameOrder() {
    QueueTree t = tree(QueueSpec.of("q10", null, 1, 0, U), QueueSpec.of("q9", null, 1, 0, U),
        QueueSpec.of("q2", null, 1, 0, U));
    Map<String, QueueLoad> loads = Map.of("q10", QueueLoad.of(1, 1), "q9", QueueLoad.of(1, 1),
        "q2", QueueLoad.of(1, 1));
    // Equal shares: the name order (numbers compared as numbers) decides, every time.
    for (int i = 0; i < 3; i++) {
      assertThat(share(t, 6, new HashMap<>(loads)).order()).containsExactly("q2", "q9", "q10");
    }
  }
}
