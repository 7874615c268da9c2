package io.locus.core.share;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.core.model.ResourceVector;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The per-queue loads kept event by event, applying a new tree, and determinism of the share. */
class QueueLedgerTest {
  private static final int U = QueueSpec.UNLIMITED;

  private static QueueTree tree() {
    return QueueTree.build(List.of(QueueSpec.of("a", null, 1, 2, U),
        QueueSpec.of("b", null, 2, 0, U)), 8);
  }

  @Test
  void eventsMoveTasksBetweenPendingAndRunning() {
    QueueLedger l = new QueueLedger(tree());
    l.queued("a", 5.0);
    l.queued("a", 3.0);
    l.queued("a", 3.0);
    assertThat(l.loads().get("a")).isEqualTo(new QueueLoad(0, 3, ResourceVector.ZERO, 3.0));
    l.started("a", 3.0, ResourceVector.of(0.5, 0.25, 0));
    assertThat(l.loads().get("a").oldestPendingSubmit()).isEqualTo(3.0);
    l.started("a", 3.0, null);
    assertThat(l.loads().get("a")).isEqualTo(
        new QueueLoad(2, 1, ResourceVector.of(0.5, 0.25, 0), 5.0));
    l.requeued("a", 3.0, ResourceVector.of(0.5, 0.25, 0));
    assertThat(l.loads().get("a")).isEqualTo(new QueueLoad(1, 2, ResourceVector.ZERO, 3.0));
    l.unqueued("a", 5.0);
    l.ended("a", null);
    assertThat(l.loads().get("a")).isEqualTo(new QueueLoad(0, 1, ResourceVector.ZERO, 3.0));
  }

  @Test
  void aMissedEventShowsAtOnce() {
    QueueLedger l = new QueueLedger(tree());
    assertThatThrownBy(() -> l.ended("a", null))
        .hasMessage("queue 'a' has no running attempt to end");
    assertThatThrownBy(() -> l.started("a", 1.0, null))
        .hasMessage("queue 'a' has no pending task submitted at 1.0");
    assertThatThrownBy(() -> l.queued("zz", 1.0))
        .hasMessage("'zz' is not a leaf queue of this pool");
  }

  @Test
  void aNewTreeThatWouldOrphanWorkIsRefusedWhole() {
    QueueLedger l = new QueueLedger(tree());
    l.queued("b", 1.0);
    l.queued("b", 1.0);
    l.started("b", 1.0, null);
    QueueTree withoutB = QueueTree.build(List.of(QueueSpec.of("a", null, 1, 2, U)), 8);
    assertThat(l.blockers(withoutB)).containsExactly(
        "queue 'b' holds 1 running and 1 pending tasks and the new configuration removes it");
    assertThatThrownBy(() -> l.apply(withoutB)).isInstanceOf(IllegalStateException.class);
    assertThat(l.tree().contains("b")).isTrue();
    QueueTree bIsParent = QueueTree.build(List.of(QueueSpec.of("b", null, 1, 0, U),
        QueueSpec.of("b1", "b", 1, 0, U)), 8);
    assertThat(l.blockers(bIsParent)).containsExactly(
        "queue 'b' holds 1 running and 1 pending tasks and the new configuration gives it child"
            + " queues");
    // a is idle: a tree without it applies, and b's loads are kept.
    QueueTree onlyB = QueueTree.build(List.of(QueueSpec.of("b", null, 3, 1, U)), 8);
    l.apply(onlyB);
    assertThat(l.tree()).isSameAs(onlyB);
    assertThat(l.loads().get("b")).isEqualTo(QueueLoad.of(1, 1).withOldestPending(1.0));
  }

  @Test
  void aCopyIsIndependent() {
    QueueLedger l = new QueueLedger(tree());
    l.queued("a", 1.0);
    QueueLedger c = l.copy();
    c.started("a", 1.0, null);
    assertThat(l.loads().get("a")).isEqualTo(QueueLoad.of(0, 1).withOldestPending(1.0));
    assertThat(c.loads().get("a")).isEqualTo(QueueLoad.of(1, 0));
  }

  @Test
  void theShareDoesNotDependOnTheOrderLoadsWereGivenIn() {
    QueueTree t = QueueTree.build(List.of(QueueSpec.of("q1", null, 1, 1, U),
        QueueSpec.of("q2", null, 3, 0, U), QueueSpec.of("p", null, 2, 2, U),
        QueueSpec.of("p1", "p", 1, 1, U), QueueSpec.of("p2", "p", 1, 0, 5),
        QueueSpec.of("p3", "p", 1, 0, U), QueueSpec.of("p4", "p", 1, 0, U)), 12);
    // Resources dominate the shares (100 slots, 12 of each resource), so sums of doubles matter.
    PoolCapacity cap = new PoolCapacity(100, ResourceVector.uniform(12));
    SplittableRandom rng = new SplittableRandom(24);
    for (int round = 0; round < 200; round++) {
      Map<String, QueueLoad> loads = new LinkedHashMap<>();
      for (String q : t.leaves()) {
        loads.put(q, new QueueLoad(rng.nextInt(5), rng.nextInt(4),
            ResourceVector.of(rng.nextDouble() * 0.3, rng.nextDouble() * 0.7, rng.nextDouble()),
            rng.nextInt(100)));
      }
      List<String> keys = new ArrayList<>(loads.keySet());
      Collections.shuffle(keys, new java.util.Random(round));
      Map<String, QueueLoad> shuffled = new LinkedHashMap<>();
      for (String k : keys) {
        shuffled.put(k, loads.get(k));
      }
      FairShare a = FairShare.of(t, cap, loads, 50.0);
      FairShare b = FairShare.of(t, cap, shuffled, 50.0);
      assertThat(b.order()).isEqualTo(a.order());
      assertThat(b.standings()).isEqualTo(a.standings());
    }
  }
}
