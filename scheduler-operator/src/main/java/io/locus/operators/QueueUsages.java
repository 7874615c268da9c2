package io.locus.operators;

import io.locus.core.Scheduler;
import io.locus.core.share.FairShare;
import io.locus.core.share.PoolCapacity;
import io.locus.core.share.QueueLedger;
import io.locus.core.share.QueueLoad;
import io.locus.core.share.QueueSpec;
import io.locus.core.share.QueueStanding;
import io.locus.core.share.QueueTree;
import io.locus.core.state.PoolState;
import io.locus.schemas.QueueUsage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A file pool's per-queue usage for its metrics record ({@code SchedulerMetrics.queueUsage}, issue
 * 24): each queue's standing ({@link QueueStanding}: running, pending, effective guarantee, fair
 * share, dominant share, borrowed) with its configured weight and limit and its cumulative
 * preempted count, every queue of the tree depth first (a parent before its children, siblings in
 * the tree's name order), so a reader can indent without sorting.
 *
 * <p>Read from the pool's state through the core's own {@link Scheduler#queueShare}, the figures
 * the placement decides with. A pool with no tree configured reports its {@code default} queue
 * alone, standing for the whole pool (guarantee 0, no limit, its fair share the pool up to its
 * demand), so that a dashboard's per-queue panel shows every pool the same way; it never preempts,
 * so its count is 0. A parent's preempted count is its leaves' together.
 *
 * <p>Cost: O(queues) per metrics tick (the ledger keeps the per-leaf loads), whatever the backlog.
 */
final class QueueUsages {
  private QueueUsages() {}

  /** The usage of the pool {@code state} holds, at pool time {@code nowSeconds}. */
  static List<QueueUsage> of(String pool, PoolState state, double nowSeconds) {
    FairShare share = Scheduler.registry(pool, state).queueShare(nowSeconds);
    QueueLedger ledger = state.queueLedger();
    if (share == null) {
      // no tree: the one default queue holds the pool's placed attempts and placeable tasks (a
      // task waiting out its retry backoff is not placeable, as in a tree's ledger)
      QueueTree one = QueueTree.defaultOnly();
      share = FairShare.of(one, PoolCapacity.slots(state.registeredSlots()),
          Map.of(QueueTree.DEFAULT, QueueLoad.of(state.running().size(), state.queueLength())),
          nowSeconds);
      ledger = null;
    }
    return of(share, ledger);
  }

  /** Every queue of {@code share}'s tree, depth first; {@code ledger} null: none preempted. */
  static List<QueueUsage> of(FairShare share, QueueLedger ledger) {
    QueueTree tree = share.tree();
    Map<String, Long> preempted = new HashMap<>();
    if (ledger != null) {
      for (String leaf : tree.leaves()) {
        long n = ledger.preempted(leaf);
        for (String q : tree.lineage(leaf)) {
          preempted.merge(q, n, Long::sum);
        }
      }
    }
    List<QueueUsage> out = new ArrayList<>();
    add(out, tree, null, share, preempted);
    return out;
  }

  private static void add(List<QueueUsage> out, QueueTree tree, String parent, FairShare share,
      Map<String, Long> preempted) {
    for (String q : tree.children(parent)) {
      QueueStanding s = share.standing(q);
      QueueSpec spec = tree.spec(q);
      out.add(QueueUsage.newBuilder()
          .setQueue(q)
          .setParent(parent)
          .setLeaf(tree.isLeaf(q))
          .setWeight(s.weight())
          .setGuarantee(s.guarantee())
          .setLimit(spec.limitSlots() == QueueSpec.UNLIMITED ? null : spec.limitSlots())
          .setRunning(s.running())
          .setPending(s.pending())
          // a pool with no slot left (its nodes lost) has no share to give: 0, not infinity,
          // which JSON readers (the dashboard) cannot parse
          .setShare(Double.isFinite(s.dominantShare()) ? s.dominantShare() : 0)
          .setFairShare(s.fairShare())
          .setBorrowed(s.borrowed())
          .setPreempted(preempted.getOrDefault(q, 0L))
          .build());
      add(out, tree, q, share, preempted);
    }
  }
}
