package io.locus.core.policy;

import io.locus.core.model.Task;
import io.locus.core.share.FairShare;
import io.locus.core.share.LocalityWait;
import io.locus.core.share.PoolCapacity;
import io.locus.core.share.QueueStanding;
import io.locus.core.state.QueueBook;
import io.locus.core.state.PoolState;
import java.util.HashSet;
import java.util.Set;

/**
 * The dispatch of a pool with queues (issue 24; docs/policies.md, "Sharing a pool"): fair share
 * decides <i>whose</i> task runs next, the pool's policy <i>where</i> ({@link ChoosesPerTask}), and
 * a head the policy would hold for its data waits only as long as {@link LocalityWait} allows.
 *
 * <p>Per free slot: the leaves that may start a task, in {@link FairShare#order()} (overdue, below
 * guarantee, lowest weighted dominant share; a queue at its limit is not in it), are offered the
 * slot in turn. A leaf looks at its first {@link #LOOKAHEAD} tasks in queue order (priority, then
 * arrival) and starts the first the policy would place now (delay scheduling's "a local task of the
 * job"); when all would wait, its head is held while {@link LocalityWait#mayWait} allows, and the
 * slot goes to the next leaf (delay scheduling skips the job), else the head goes to the best node
 * free now ({@link ChoosesPerTask.TaskChooser#now}; label {@code /FAR}). One placement per
 * round; the share is recomputed after each.
 *
 * <p><b>The locality-wait clock</b> is the queue's last launch: the latest placement time among
 * its placed attempts, or the head's submission if later (it cannot have waited before it came),
 * or the head's submission when nothing of the queue is placed. Delay scheduling counts from the
 * job's last launch, not from its tasks' submissions, so a backlog does not void locality. The
 * clock is derived from what the pool persists (placed attempts with their placement times, queued
 * tasks with their submissions), so a restored pool decides the same with no state of its own.
 *
 * <p><b>Cost</b> per placement: the share (O(queues · depth)), and per leaf offered at most
 * {@link #LOOKAHEAD} tasks, each the policy's per-task answer (its holders); a leaf's tasks come
 * from its own ordered set ({@link QueueBook}), so another queue's backlog is never walked.
 */
public final class QueueDispatch {
  /** Tasks of one leaf asked per offer: MCH's "another window task may go", bounded per queue. */
  public static final int LOOKAHEAD = 16;

  private final ChoosesPerTask policy;
  private final LocalityWait wait;
  private double wakeup = Double.NaN;
  private long asked;

  public QueueDispatch(ChoosesPerTask policy, LocalityWait wait) {
    this.policy = policy;
    this.wait = wait;
  }

  /**
   * Places what fair share and the policy allow. False, having placed nothing, when the policy
   * cannot choose per task in this state (EFT on staged caches): the caller dispatches as before.
   */
  public boolean dispatch(Dispatch d) {
    PoolState s = d.state();
    QueueBook book = s.queueBook();
    wakeup = Double.NaN;
    if (s.firstFree() == null || s.queueLength() == 0) {
      return true;
    }
    if (policy.chooser(s, d.now()) == null) {
      return false;
    }
    Set<String> held = new HashSet<>();
    while (s.firstFree() != null && s.queueLength() > 0) {
      ChoosesPerTask.TaskChooser c = policy.chooser(s, d.now());
      FairShare share = book.ledger().share(PoolCapacity.slots(s.registeredSlots()), d.now());
      boolean placed = false;
      for (String leaf : share.order()) {
        if (!held.contains(leaf) && offer(d, book, share, c, leaf, held)) {
          placed = true;
          break;
        }
      }
      if (!placed) {
        break; // every queue that may start is held for locality, or none may (limits)
      }
    }
    return true;
  }

  /** The earliest time a head held by the last dispatch may stop waiting (NaN: none held). */
  public double wakeup() {
    return wakeup;
  }

  /** Per-task answers asked since this dispatcher was made: the work, for the cost tests. */
  public long asked() {
    return asked;
  }

  private boolean offer(Dispatch d, QueueBook book, FairShare share,
      ChoosesPerTask.TaskChooser c, String leaf, Set<String> held) {
    Task head = book.head(leaf);
    if (head == null) {
      return false;
    }
    ChoosesPerTask.Choice headChoice = null;
    int n = 0;
    for (Task t : book.queuedIn(leaf)) {
      if (n++ == LOOKAHEAD) {
        break;
      }
      asked++;
      ChoosesPerTask.Choice ch = c.choose(t);
      if (ch.node() != null) {
        d.place(t, ch.node(), c.label(), c.caching());
        return true;
      }
      if (headChoice == null) {
        headChoice = ch;
      }
    }
    QueueStanding st = share.standing(leaf);
    double since = clock(book, leaf, head);
    boolean contended = share.contended(leaf);
    double until = wait.until(st, share.tree().spec(leaf), headChoice.policyWaitSeconds(),
        contended, since, head.submitTime());
    if (d.now() < until) {
      held.add(leaf);
      wakeup = Double.isNaN(wakeup) ? until : Math.min(wakeup, until);
      return false;
    }
    d.place(head, c.now(head), c.label() + "/FAR", c.caching());
    return true;
  }

  /** The queue's locality-wait clock (see the class comment). */
  public static double clock(QueueBook book, String leaf, Task head) {
    double last = book.lastLaunch(leaf);
    return Double.isNaN(last) ? head.submitTime() : Math.max(last, head.submitTime());
  }
}
