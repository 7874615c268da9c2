package io.locus.core.share;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The locality wait that shrinks with a queue's deficit, at its edges. */
class LocalityWaitTest {
  private static final LocalityWait W = new LocalityWait(10.0);
  private static final double INF = Double.POSITIVE_INFINITY;

  /** A standing with guarantee 4 and fair share 8 (overdue when asked). */
  private static QueueStanding at(int running, double overdue) {
    return new QueueStanding("q", running, 5, 4.0, 8.0, QueueSpec.UNLIMITED, 1, 0, overdue);
  }

  @Test
  void fullWaitAtOrAboveTheShare() {
    assertThat(W.allowed(at(8, 0), INF, true)).isEqualTo(10.0);
    assertThat(W.allowed(at(9, 0), INF, true)).isEqualTo(10.0);
    // The policy's own shorter wait (EFT's D) is kept.
    assertThat(W.allowed(at(8, 0), 2.5, true)).isEqualTo(2.5);
  }

  @Test
  void zeroWaitBelowTheGuarantee() {
    assertThat(W.allowed(at(3, 0), INF, true)).isZero();
    assertThat(W.allowed(at(0, 0), 5.0, true)).isZero();
  }

  @Test
  void linearBetweenGuaranteeAndShare() {
    assertThat(W.allowed(at(4, 0), INF, true)).isZero();
    assertThat(W.allowed(at(5, 0), INF, true)).isEqualTo(2.5);
    assertThat(W.allowed(at(6, 0), INF, true)).isEqualTo(5.0);
    assertThat(W.allowed(at(7, 0), 4.0, true)).isEqualTo(3.0);
  }

  @Test
  void uncontendedTheWaitIsThePolicysOwn() {
    // Nobody else could take the slot: waiting costs no queue its share.
    assertThat(W.allowed(at(0, 0), INF, false)).isEqualTo(10.0);
    assertThat(W.allowed(at(5, 0), 3.0, false)).isEqualTo(3.0);
  }

  @Test
  void anOverdueQueueAndAPolicyThatNeverWaitsWaitNothing() {
    assertThat(W.allowed(at(9, 0.1), INF, true)).isZero();
    assertThat(W.allowed(at(9, 0.1), INF, false)).isZero();
    assertThat(W.allowed(at(9, 0), 0.0, true)).isZero();
    assertThat(new LocalityWait(0).allowed(at(9, 0), INF, true)).isZero();
  }

  @Test
  void noGuaranteeAndNothingRunningWaitsNothingWhenContended() {
    QueueStanding s = new QueueStanding("q", 0, 5, 0.0, 4.0, QueueSpec.UNLIMITED, 1, 0, 0);
    assertThat(W.allowed(s, INF, true)).isZero();
    QueueStanding half = new QueueStanding("q", 2, 5, 0.0, 4.0, QueueSpec.UNLIMITED, 1, 0, 0);
    assertThat(W.allowed(half, INF, true)).isEqualTo(5.0);
  }

  @Test
  void untilIsBoundedByTheQueuesMaxWait() {
    QueueSpec spec = QueueSpec.of("q", null, 1, 4, QueueSpec.UNLIMITED).withMaxWait(30.0);
    // Held since 100 with a full wait of 10 s, but the head was submitted at 75: overdue at 105.
    assertThat(W.until(at(8, 0), spec, INF, true, 100.0, 75.0)).isEqualTo(105.0);
    assertThat(W.until(at(8, 0), spec, INF, true, 100.0, 0.0 + 100.0)).isEqualTo(110.0);
    assertThat(W.mayWait(at(8, 0), spec, INF, true, 100.0, 75.0, 104.9)).isTrue();
    assertThat(W.mayWait(at(8, 0), spec, INF, true, 100.0, 75.0, 105.0)).isFalse();
    QueueSpec unbounded = QueueSpec.of("q", null, 1, 4, QueueSpec.UNLIMITED);
    assertThat(W.until(at(6, 0), unbounded, INF, true, 100.0, 0.0)).isEqualTo(105.0);
  }

  @Test
  void fromAFairShareStanding() {
    QueueTree t = QueueTree.build(List.of(QueueSpec.of("a", null, 1, 2, QueueSpec.UNLIMITED),
        QueueSpec.of("b", null, 1, 2, QueueSpec.UNLIMITED)), 8);
    FairShare s = FairShare.of(t, PoolCapacity.slots(8),
        Map.of("a", QueueLoad.of(3, 9), "b", QueueLoad.of(5, 9)), 0);
    // Both have fair share 4: a at 3 is halfway between its guarantee 2 and 4; b is above.
    assertThat(W.allowed(s.standing("a"), INF, s.contended("a"))).isEqualTo(5.0);
    assertThat(W.allowed(s.standing("b"), INF, s.contended("b"))).isEqualTo(10.0);
  }

  @Test
  void aNegativeCapIsRefused() {
    assertThatThrownBy(() -> new LocalityWait(-1))
        .hasMessage("max locality wait must be >= 0 seconds, got -1.0");
    assertThat(LocalityWait.DEFAULT_MAX_LOCALITY_WAIT).isEqualTo(3.0);
  }
}
