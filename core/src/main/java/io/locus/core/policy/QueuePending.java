package io.locus.core.policy;

import io.locus.core.model.PendingCode;
import io.locus.core.model.Task;
import io.locus.core.share.FairShare;
import io.locus.core.share.LocalityWait;
import io.locus.core.share.PoolCapacity;
import io.locus.core.share.QueueReasons;
import io.locus.core.share.QueueStanding;
import io.locus.core.state.PoolState;
import io.locus.core.state.QueueBook;
import java.util.HashMap;
import java.util.Map;

/**
 * The pending reasons of a pool with queues ({@link PendingExplainer} asks it after the pool-wide
 * codes, {@code no-fit} and {@code backoff}): {@code queue-limit} and {@code queue-share} from
 * {@link QueueReasons} for the task's queue; for the queue fair share serves first, {@code
 * locality-wait} for its head when {@link QueueDispatch} would hold it ("waiting for locality on
 * N until T (queue's share)"), else {@code priority} (a higher-priority task heads its queue) or
 * {@code no-free-slot}. The policy's own data waits of tasks behind a queue's head do not apply:
 * with queues only a queue's head is held. Per pass: one share, one reason per queue, one
 * per-task answer per queue head; read-only (a metrics tick changes no decision).
 */
final class QueuePending {
  private final PoolState s;
  private final QueueBook book;
  private final FairShare share;
  private final ChoosesPerTask.TaskChooser chooser;
  private final LocalityWait wait = new LocalityWait(LocalityWait.DEFAULT_MAX_LOCALITY_WAIT);
  private final double now;
  /** Per leaf, the reason all its tasks share, or {@link #NONE}: computed once per pass. */
  private final Map<String, Pending> byLeaf = new HashMap<>();
  /** Per leaf, its head's locality wait, or {@link #NONE}. */
  private final Map<String, Pending> heads = new HashMap<>();
  private static final Pending NONE = Pending.of(null, PendingCode.NO_FREE_SLOT, "");

  private QueuePending(PoolState s, ChoosesPerTask.TaskChooser chooser, double now) {
    this.s = s;
    this.book = s.queueBook();
    this.share = book.ledger().share(PoolCapacity.slots(s.registeredSlots()), now);
    this.chooser = chooser;
    this.now = now;
  }

  /** The view for {@code s}, or null when it has no queues or its policy keeps its own order. */
  static QueuePending of(PoolState s, Policy policy, double now) {
    if (s.queueBook() == null || !(policy instanceof ChoosesPerTask c)) {
      return null;
    }
    ChoosesPerTask.TaskChooser tc = s.firstFree() == null ? null : c.chooser(s, now);
    if (s.firstFree() != null && tc == null) {
      return null; // EFT on staged caches: its own order, its own reasons
    }
    return new QueuePending(s, tc, now);
  }

  /** The reason of queued task {@code t} (its profile fits: {@code no-fit} is asked first). */
  Pending reason(Task t) {
    String leaf = book.leafOf(t);
    Pending q = byLeaf.computeIfAbsent(leaf, this::leafReason);
    if (q != NONE) {
      return new Pending(t.taskId(), q.code(), q.text(), q.node(), q.until(), q.bytesSaved(), -1);
    }
    Task head = book.head(leaf);
    if (head != null && head.priority() > t.priority()) {
      return Pending.of(t.taskId(), PendingCode.PRIORITY, "behind higher-priority tasks of queue '"
          + leaf + "' (its priority " + t.priority() + ", the queue's head " + head.priority()
          + ")");
    }
    String turn = "its turn in queue '" + leaf + "' (" + share.standing(leaf).pending()
        + " pending there; tasks go in priority, then arrival order)";
    return Pending.of(t.taskId(), PendingCode.NO_FREE_SLOT, s.firstFree() == null
        ? "every slot busy (" + s.busySlots() + "/" + s.registeredSlots() + "); " + turn : turn);
  }

  /** The reason every task of {@code leaf} shares, or null when its tasks differ (its head's). */
  private Pending leafReason(String leaf) {
    QueueReasons.Reason r = QueueReasons.of(share, leaf);
    if (r != null) {
      PendingCode c = r.code().equals(QueueReasons.QUEUE_LIMIT) ? PendingCode.QUEUE_LIMIT
          : PendingCode.QUEUE_SHARE;
      return Pending.of(null, c, r.text());
    }
    return NONE;
  }

  /** The locality wait of {@code leaf}'s head, or {@link #NONE} when it is not held. */
  private Pending headWait(Task head) {
    if (chooser == null) {
      return NONE; // every slot busy: it waits for a slot, whatever its data
    }
    ChoosesPerTask.Choice c = chooser.choose(head);
    if (c.dataWait() == null) {
      return NONE;
    }
    String leaf = book.leafOf(head);
    QueueStanding st = share.standing(leaf);
    double until = wait.until(st, share.tree().spec(leaf), c.policyWaitSeconds(),
        share.contended(leaf), QueueDispatch.clock(book, leaf, head), head.submitTime());
    if (now >= until) {
      return NONE;
    }
    return new Pending(head.taskId(), PendingCode.LOCALITY_WAIT,
        QueueReasons.localityWait(st, c.dataWait().node(), until).text(), c.dataWait().node(),
        until, c.dataWait().bytesSaved(), -1);
  }

  /** {@link #reason}, with the head's locality wait first. */
  Pending explain(Task t) {
    String leaf = book.leafOf(t);
    if (byLeaf.computeIfAbsent(leaf, this::leafReason) == NONE) {
      Task head = book.head(leaf);
      if (head != null && head.taskId().equals(t.taskId())) {
        Pending w = heads.computeIfAbsent(leaf, l -> headWait(head));
        if (w != NONE) {
          return w;
        }
      }
    }
    return reason(t);
  }
}
