package io.locus.core.share;

import io.locus.core.model.Ids;
import io.locus.core.model.ResourceVector;
import io.locus.core.model.Task;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Whose task runs next: the pool's queues at one decision, from their loads. Immutable; a new one
 * is made per decision ({@link #after} for the next slot of the same round), which is cheap for
 * the handful of queues a pool has. The pool's placement policy then decides <i>where</i>.
 *
 * <p><b>Order</b> ({@link #order}): top-down, as hierarchical fair schedulers do (YuniKorn, the
 * Hadoop fair scheduler's pools): the top-level queues compete, the winner's children compete for
 * what it gets, down to a leaf. Among siblings that have pending work and can start one more task:
 * <ol>
 *   <li>a queue overdue (its oldest pending task waited past its {@code maxWaitSeconds}: the CERN
 *       starvation rule, spec D16, per queue) first, the longest overdue first;
 *   <li>then a queue below its guarantee, the lowest running/guarantee first (Kueue admits within
 *       nominal quota before borrowing; the fair scheduler serves pools below their min share first);
 *   <li>then the lowest weighted dominant share, dominant share / weight (weighted DRF: Kueue's
 *       fair sharing, Armada, YARN);
 *   <li>then the name ({@link Ids#ORDER}), so the order is total and deterministic.
 * </ol>
 * A queue can start one more task when its running count and every ancestor's are below their limits
 * and, where others' lending limits keep part of their guarantee for them, a free slot remains
 * outside those reserves (Kueue's lendingLimit). Within a leaf, tasks go in the pool's queue order
 * (priority, then arrival: {@link Task#queueRank}).
 */
public final class FairShare {
  private final QueueTree tree;
  private final PoolCapacity capacity;
  private final double now;
  private final Map<String, QueueLoad> loads;
  private final Map<String, Agg> agg = new HashMap<>();
  private final Entitlements entitled;
  private int runningTotal;

  /** Subtree sums of one queue. */
  private static final class Agg {
    int running;
    int pending;
    ResourceVector resources = ResourceVector.ZERO;
    double overdue;
  }

  private FairShare(QueueTree tree, PoolCapacity capacity, Map<String, QueueLoad> loads,
      double now) {
    this.tree = tree;
    this.capacity = capacity;
    this.now = now;
    this.loads = loads;
    for (String q : tree.specs().keySet()) {
      agg.put(q, new Agg());
    }
    // Leaves in the tree's order, not the map's: sums of doubles (declared resources) then come
    // out bit for bit the same whichever order the caller filled the map in.
    for (String leaf : tree.leaves()) {
      QueueLoad l = loads.get(leaf);
      if (l != null) {
        addLoad(leaf, l);
      }
    }
    Map<String, Integer> demand = new HashMap<>();
    for (Map.Entry<String, Agg> e : agg.entrySet()) {
      demand.put(e.getKey(), e.getValue().running + e.getValue().pending);
    }
    this.entitled = new Entitlements(tree, capacity.slots(), demand);
  }

  /**
   * The queues of {@code tree} with these leaf loads (a leaf not in {@code loads} is empty) in a pool
   * of {@code capacity}, at event time {@code now} (for the maximum waits; never the wall clock).
   */
  public static FairShare of(QueueTree tree, PoolCapacity capacity, Map<String, QueueLoad> loads,
      double now) {
    for (String q : loads.keySet()) {
      if (!tree.contains(q) || !tree.isLeaf(q)) {
        throw new IllegalArgumentException("'" + q + "' is not a leaf queue of this pool");
      }
    }
    return new FairShare(tree, capacity, new LinkedHashMap<>(loads), now);
  }

  private void addLoad(String leaf, QueueLoad l) {
    runningTotal += l.running();
    Double maxWait = tree.spec(leaf).maxWaitSeconds();
    double leafOverdue = overdue(l, maxWait);
    for (String q : tree.lineage(leaf)) {
      Agg a = agg.get(q);
      a.running += l.running();
      a.pending += l.pending();
      a.resources = a.resources.plus(l.resources());
      // A parent's own bound applies to every task of its subtree; a child's to its own.
      Double own = tree.spec(q).maxWaitSeconds();
      a.overdue = Math.max(a.overdue, Math.max(leafOverdue, overdue(l, own)));
    }
  }

  private double overdue(QueueLoad l, Double maxWait) {
    if (maxWait == null || l.pending() == 0 || Double.isNaN(l.oldestPendingSubmit())) {
      return 0;
    }
    return Math.max(0, now - l.oldestPendingSubmit() - maxWait);
  }

  /** Where {@code queue} stands (a leaf, or a parent with its subtree). */
  public QueueStanding standing(String queue) {
    QueueSpec s = tree.spec(queue);
    Agg a = agg.get(queue);
    return new QueueStanding(queue, a.running, a.pending, entitled.guarantee(queue),
        entitled.fairShare(queue),
        s.limitSlots(), s.weight(), capacity.dominantShare(a.running, a.resources), a.overdue);
  }

  /** Every queue's standing, in {@link Ids#ORDER}. */
  public List<QueueStanding> standings() {
    List<QueueStanding> out = new ArrayList<>();
    for (String q : tree.specs().keySet()) {
      out.add(standing(q));
    }
    return out;
  }

  public QueueTree tree() {
    return tree;
  }

  public PoolCapacity capacity() {
    return capacity;
  }

  public double now() {
    return now;
  }

  /** Slots held by running attempts, all queues together. */
  public int runningTotal() {
    return runningTotal;
  }

  /**
   * The leaf queues that may start a task now, best first (see the class comment). The pool offers
   * a free slot to the first; when its head waits for a better node (the locality wait), to the
   * next, as delay scheduling skips a job that cannot launch a local task.
   */
  public List<String> order() {
    List<String> out = new ArrayList<>();
    collect(null, out);
    return out;
  }

  /** The leaf whose task runs next, or null when no queue may start one. */
  public String next() {
    List<String> o = order();
    return o.isEmpty() ? null : o.get(0);
  }

  /**
   * True when a queue other than {@code leaf} could start a task now: a slot {@code leaf}'s head
   * leaves free for locality would go to someone else, so waiting costs {@code leaf} its share
   * ({@link LocalityWait}).
   */
  public boolean contended(String leaf) {
    for (String q : order()) {
      if (!q.equals(leaf)) {
        return true;
      }
    }
    return false;
  }

  /** True when {@code leaf} has pending work and may start one more task. */
  public boolean canStart(String leaf) {
    if (!tree.isLeaf(leaf)) {
      throw new IllegalArgumentException("'" + leaf + "' is not a leaf queue");
    }
    for (String q : tree.lineage(leaf)) {
      Agg a = agg.get(q);
      if (a.pending == 0 || a.running >= tree.spec(q).limitSlots()) {
        return false;
      }
    }
    double blocked = blocked(leaf);
    return blocked == 0 || runningTotal + 1 + blocked <= capacity.slots() + QueueStanding.EPS;
  }

  /** This share after {@code leaf} started one pending task using {@code profile} (may be null). */
  public FairShare after(String leaf, ResourceVector profile) {
    QueueLoad l = loads.getOrDefault(leaf, QueueLoad.EMPTY);
    if (l.pending() == 0) {
      throw new IllegalStateException("queue '" + leaf + "' has no pending task to start");
    }
    Map<String, QueueLoad> next = new LinkedHashMap<>(loads);
    next.put(leaf, new QueueLoad(l.running() + 1, l.pending() - 1,
        profile == null ? l.resources() : l.resources().plus(profile), l.oldestPendingSubmit()));
    return new FairShare(tree, capacity, next, now);
  }

  private void collect(String parent, List<String> out) {
    List<String> kids = new ArrayList<>(tree.children(parent));
    kids.sort(siblingOrder());
    for (String c : kids) {
      if (tree.isLeaf(c)) {
        if (canStart(c)) {
          out.add(c);
        }
      } else if (agg.get(c).pending > 0 && agg.get(c).running < tree.spec(c).limitSlots()) {
        collect(c, out);
      }
    }
  }

  /** The sibling order of the class comment. */
  private Comparator<String> siblingOrder() {
    return Comparator.<String>comparingInt(q -> standing(q).overdue() ? 0 : 1)
        .thenComparing(Comparator.<String>comparingDouble(q -> -agg.get(q).overdue))
        .thenComparingInt(q -> standing(q).belowGuarantee() ? 0 : 1)
        .thenComparingDouble(q -> standing(q).belowGuarantee()
            ? standing(q).running() / standing(q).guarantee() : 0.0)
        .thenComparingDouble(q -> standing(q).dominantShare() / standing(q).weight())
        .thenComparing(Ids.ORDER);
  }

  /**
   * Slots that {@code leaf} may not use because queues outside its lineage keep them (the part of
   * their guarantee above their lending limit that they do not use). Nested reserves count once: a
   * subtree keeps the larger of its own unused reserve and its children's together.
   */
  private double blocked(String leaf) {
    double sum = 0;
    for (String a : tree.lineage(leaf)) {
      for (String s : tree.children(tree.parent(a))) {
        if (!s.equals(a)) {
          sum += blockedIn(s);
        }
      }
    }
    return sum;
  }

  private double blockedIn(String q) {
    double own = Math.max(0, Math.min(tree.spec(q).reservedSlots(), entitled.guarantee(q))
        - agg.get(q).running);
    double kids = 0;
    for (String c : tree.children(q)) {
      kids += blockedIn(c);
    }
    return Math.max(own, kids);
  }

  /** The first task of {@code rankOrdered} (the pool's queue order) in leaf queue {@code leaf}. */
  public Task headOf(Iterable<Task> rankOrdered, String leaf) {
    for (Task t : rankOrdered) {
      if (tree.leafOf(t).equals(leaf)) {
        return t;
      }
    }
    return null;
  }
}
