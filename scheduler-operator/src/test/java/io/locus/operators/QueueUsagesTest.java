package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.share.PoolCapacity;
import io.locus.core.share.QueueLedger;
import io.locus.core.share.QueueSpec;
import io.locus.core.share.QueueTree;
import io.locus.schemas.QueueUsage;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How a pool's queue standings become its metrics' {@code queueUsage} (issue 24): depth first
 * (siblings in the tree's name order),
 * parents with their subtree's figures, preempted counts summed up the tree, limits as null when
 * there is none.
 */
class QueueUsagesTest {
  @Test
  void everyQueueDepthFirstWithItsSubtreesFiguresAndPreemptedCounts() {
    // eng (guarantee 4, limit 6) over ml and web; ops beside it; 8 slots
    QueueTree tree = QueueTree.build(List.of(
        QueueSpec.of("eng", null, 2, 4, 6),
        QueueSpec.of("web", "eng", 1, 1, 6),
        QueueSpec.of("ml", "eng", 1, 3, 6),
        QueueSpec.of("ops", null, 1, 2, QueueSpec.UNLIMITED)), 8);
    QueueLedger ledger = new QueueLedger(tree);
    for (int i = 0; i < 5; i++) {
      ledger.queued("ml", i);
    }
    for (int i = 0; i < 4; i++) {
      ledger.started("ml", i, null);
    }
    ledger.queued("web", 1);
    ledger.started("web", 1, null);
    ledger.queued("ops", 2);
    ledger.queued("ops", 3);
    ledger.countPreempted("ml");
    ledger.countPreempted("ml");
    ledger.countPreempted("web");

    List<QueueUsage> usage = QueueUsages.of(ledger.share(PoolCapacity.slots(8), 10), ledger);
    assertThat(usage).extracting(u -> u.getQueue() + "<" + u.getParent() + (u.getLeaf() ? "" : "/"))
        .containsExactly("default<null", "eng<null/", "ml<eng", "web<eng", "ops<null");
    QueueUsage eng = usage.get(1);
    assertThat(eng.getRunning()).isEqualTo(5);
    assertThat(eng.getPending()).isEqualTo(1);
    assertThat(eng.getLimit()).isEqualTo(6);
    assertThat(eng.getGuarantee()).isEqualTo(4.0);
    assertThat(eng.getBorrowed()).isEqualTo(1.0);
    assertThat(eng.getShare()).isEqualTo(5 / 8.0);
    assertThat(eng.getPreempted()).as("its leaves' together").isEqualTo(3);
    QueueUsage ml = usage.get(2);
    assertThat(ml.getRunning()).isEqualTo(4);
    assertThat(ml.getPending()).isEqualTo(1);
    assertThat(ml.getBorrowed()).isEqualTo(1.0);
    assertThat(ml.getLimit()).isEqualTo(6);
    assertThat(ml.getPreempted()).isEqualTo(2);
    assertThat(usage.get(3).getPreempted()).isEqualTo(1);
    assertThat(usage.get(0).getRunning() + usage.get(0).getPending()).as("default: idle").isZero();
    QueueUsage ops = usage.get(4);
    assertThat(ops.getRunning()).isZero();
    assertThat(ops.getLimit()).as("no limit").isNull();
    assertThat(ops.getPending()).isEqualTo(2);
    assertThat(ops.getGuarantee()).isEqualTo(2.0);
    assertThat(ops.getFairShare()).as("at least its guarantee while it has work").isEqualTo(2.0);
    assertThat(ops.getBorrowed()).isZero();
    assertThat(ops.getPreempted()).isZero();
    // the fair shares of the active top-level queues fill the pool
    assertThat(eng.getFairShare() + ops.getFairShare()).isEqualTo(8.0);
  }

  @Test
  void aPoolWithNoSlotLeftReportsAShareOfZeroNotInfinity() {
    QueueLedger ledger = new QueueLedger(QueueTree.defaultOnly());
    ledger.queued(QueueTree.DEFAULT, 0);
    ledger.started(QueueTree.DEFAULT, 0, null);
    // its nodes were lost while the attempt is still counted as running
    List<QueueUsage> usage = QueueUsages.of(ledger.share(PoolCapacity.slots(0), 1), ledger);
    assertThat(usage).singleElement().satisfies(u -> {
      assertThat(u.getRunning()).isEqualTo(1);
      assertThat(u.getShare()).isZero();
    });
  }
}
