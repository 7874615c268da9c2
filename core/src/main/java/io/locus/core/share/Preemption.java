package io.locus.core.share;

import io.locus.core.model.Ids;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which running attempts to stop so that queues below their guarantee get it back (Kueue's
 * {@code reclaimWithinCohort}; YuniKorn's preemption up to the guaranteed share). Only to restore
 * guarantees: a queue above its guarantee reclaims nothing, and nothing is ever preempted to reach a
 * better cache (the plan takes no locality goal as input). Deterministic: the same standing and
 * attempts give the same plan.
 *
 * <p><b>Claims.</b> Each leaf below its (effective) guarantee with pending work claims
 * min(pending, ⌊guarantee⌋ − running) slots, the lowest running/guarantee first. Slots free now
 * (the pool's slots less all running attempts) are counted against the claims first: no attempt is
 * stopped for a slot that is already free.
 *
 * <p><b>Victims.</b> Candidates are ordered by lowest priority, then least work lost (shortest
 * elapsed run time), then least locality lost ({@link RunningAttempt#bytesOnlyHere}: an attempt
 * whose inputs are cached elsewhere re-runs at no extra fetch), then task id ({@link Ids#ORDER})
 * and attempt. Each claim takes the first candidate whose taking leaves every queue of the
 * victim's lineage below the claimant's common ancestor at or above its guarantee, so a queue is
 * never pushed below its guarantee, and a claimant never preempts its own queue.
 */
public final class Preemption {
  /**
   * Default grace period: 30 s, Kubernetes' default {@code terminationGracePeriodSeconds} (a
   * polite SIGTERM, then SIGKILL), long enough for a task to flush, short against task lengths.
   */
  public static final double DEFAULT_GRACE_SECONDS = 30.0;

  private static final Comparator<RunningAttempt> VICTIM_ORDER =
      Comparator.comparingInt(RunningAttempt::priority)
          .thenComparingDouble(a -> -a.startTime())
          .thenComparingLong(RunningAttempt::bytesOnlyHere)
          .thenComparing(RunningAttempt::taskId, Ids.ORDER)
          .thenComparingInt(RunningAttempt::attempt);

  private final double graceSeconds;

  public Preemption(double graceSeconds) {
    if (!(graceSeconds >= 0) || Double.isInfinite(graceSeconds)) {
      throw new IllegalArgumentException("grace period must be a finite number of seconds >= 0, got "
          + graceSeconds);
    }
    this.graceSeconds = graceSeconds;
  }

  public double graceSeconds() {
    return graceSeconds;
  }

  /**
   * The plan for the queues of {@code share}, whose running attempts are {@code running} (their
   * queues must be leaves of the share's tree; their count per queue is the share's running).
   */
  public PreemptionPlan plan(FairShare share, List<RunningAttempt> running) {
    QueueTree tree = share.tree();
    Map<String, Integer> held = new HashMap<>();
    for (QueueStanding s : share.standings()) {
      held.put(s.queue(), s.running());
    }
    List<String> claimants = new ArrayList<>();
    Map<String, Integer> need = new HashMap<>();
    for (String leaf : tree.leaves()) {
      QueueStanding s = share.standing(leaf);
      int want = Math.min(s.pending(), (int) Math.floor(s.guarantee() + QueueStanding.EPS)
          - s.running());
      if (want > 0) {
        claimants.add(leaf);
        need.put(leaf, want);
      }
    }
    claimants.sort(Comparator.<String>comparingDouble(
        q -> share.standing(q).running() / share.standing(q).guarantee()).thenComparing(Ids.ORDER));
    int free = Math.max(0, share.capacity().slots() - share.runningTotal());
    List<RunningAttempt> candidates = new ArrayList<>(running);
    candidates.sort(VICTIM_ORDER);
    Set<RunningAttempt> taken = new HashSet<>();
    List<PreemptionPlan.Victim> victims = new ArrayList<>();
    for (String c : claimants) {
      int n = need.get(c);
      int fromFree = Math.min(free, n);
      free -= fromFree;
      n -= fromFree;
      for (int i = 0; i < fromFree; i++) {
        moveSlot(tree, held, null, c);
      }
      for (RunningAttempt a : candidates) {
        if (n == 0) {
          break;
        }
        if (!taken.contains(a) && mayTake(share, tree, held, a.queue(), c)) {
          taken.add(a);
          victims.add(new PreemptionPlan.Victim(a, c));
          moveSlot(tree, held, a.queue(), c);
          n--;
        }
      }
    }
    return new PreemptionPlan(victims, graceSeconds);
  }

  /** Taking one slot of {@code victim} for {@code claimant} keeps the victim's side at guarantee. */
  private static boolean mayTake(FairShare share, QueueTree tree, Map<String, Integer> held,
      String victim, String claimant) {
    if (victim.equals(claimant)) {
      return false;
    }
    Set<String> claimantLine = new HashSet<>(tree.lineage(claimant));
    for (String q : tree.lineage(victim)) {
      if (claimantLine.contains(q)) {
        continue; // a common ancestor keeps the slot: its usage does not change
      }
      if (held.get(q) - 1 < share.standing(q).guarantee() - QueueStanding.EPS) {
        return false;
      }
    }
    return true;
  }

  private static void moveSlot(QueueTree tree, Map<String, Integer> held, String from, String to) {
    if (from != null) {
      for (String q : tree.lineage(from)) {
        held.merge(q, -1, Integer::sum);
      }
    }
    for (String q : tree.lineage(to)) {
      held.merge(q, 1, Integer::sum);
    }
  }
}
