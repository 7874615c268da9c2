package io.locus.core.share;

import io.locus.core.model.ResourceVector;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A pool's per-queue loads, kept up to date event by event (what the scheduler operator and the
 * simulator hold beside the pool's queue), from which each decision's {@link FairShare} is made. A
 * task is counted pending from its arrival until it starts, running until it ends; a preempted or
 * retried attempt goes back to pending. Each queue keeps the submission times of its pending tasks,
 * so its oldest (for the maximum wait) is known without scanning the pool's queue.
 *
 * <p>Declared resources are sums of doubles in event order: a ledger rebuilt after a restore
 * from the running attempts must add them in the order they started (or the pool must keep the
 * ledger in its state) for its shares to match the original's bit for bit.
 *
 * <p>Leaves are named already resolved ({@link QueueTree#resolve}). A state change that would take a
 * count below zero is a caller's bug and throws, so a missed event shows at once rather than as a
 * slowly wrong share.
 */
public final class QueueLedger {
  private QueueTree tree;
  private final Map<String, Leaf> leaves = new LinkedHashMap<>();

  private static final class Leaf {
    int running;
    ResourceVector resources = ResourceVector.ZERO;
    /** Submission time → how many pending tasks were submitted then. */
    final TreeMap<Double, Integer> pendingSubmits = new TreeMap<>();
    int pending;
    /** Attempts of this queue preempted so far (cumulative, never decreases). */
    long preempted;

    Leaf copy() {
      Leaf l = new Leaf();
      l.running = running;
      l.preempted = preempted;
      l.resources = resources;
      l.pendingSubmits.putAll(pendingSubmits);
      l.pending = pending;
      return l;
    }
  }

  public QueueLedger(QueueTree tree) {
    this.tree = tree;
  }

  public QueueTree tree() {
    return tree;
  }

  /** A task submitted at {@code submitTime} joined {@code leaf}'s pending work. */
  public void queued(String leaf, double submitTime) {
    Leaf l = leaf(leaf);
    l.pendingSubmits.merge(submitTime, 1, Integer::sum);
    l.pending++;
  }

  /** A pending task left without starting (cancelled while queued). */
  public void unqueued(String leaf, double submitTime) {
    removePending(leaf(leaf), leaf, submitTime);
  }

  /** A pending task started, holding one slot and {@code profile} (null: no declared resource). */
  public void started(String leaf, double submitTime, ResourceVector profile) {
    Leaf l = leaf(leaf);
    removePending(l, leaf, submitTime);
    l.running++;
    if (profile != null) {
      l.resources = l.resources.plus(profile);
    }
  }

  /**
   * An attempt of {@code leaf} runs that was not pending here: adopted from its STARTED report while
   * it waited out a retry backoff, or rebuilt from a restored pool's running attempts.
   */
  public void running(String leaf, ResourceVector profile) {
    Leaf l = leaf(leaf);
    l.running++;
    if (profile != null) {
      l.resources = l.resources.plus(profile);
    }
  }

  /**
   * One more attempt of {@code leaf} was preempted. Only the count: the attempt's end and its
   * return to pending are the ordinary {@link #ended} and {@link #queued} (or {@link #requeued}).
   */
  public void countPreempted(String leaf) {
    leaf(leaf).preempted++;
  }

  /** Attempts of {@code leaf} preempted so far (0 for a queue this ledger has not seen). */
  public long preempted(String leaf) {
    Leaf l = leaves.get(leaf);
    return l == null ? 0 : l.preempted;
  }

  /** Every leaf's preempted count that is above 0, by leaf, for status and persistence. */
  public Map<String, Long> preemptedCounts() {
    Map<String, Long> out = new LinkedHashMap<>();
    for (Map.Entry<String, Leaf> e : leaves.entrySet()) {
      if (e.getValue().preempted > 0) {
        out.put(e.getKey(), e.getValue().preempted);
      }
    }
    return out;
  }

  /**
   * Re-adds a persisted preempted count (a restore); a leaf the tree no longer has is skipped, its
   * history gone with it.
   */
  public void restorePreempted(String leaf, long count) {
    if (count > 0 && tree.contains(leaf) && tree.isLeaf(leaf)) {
      leaf(leaf).preempted = count;
    }
  }

  /** A running attempt ended for good (completed, failed, cancelled), freeing its slot. */
  public void ended(String leaf, ResourceVector profile) {
    Leaf l = leaf(leaf);
    if (l.running == 0) {
      throw new IllegalStateException("queue '" + leaf + "' has no running attempt to end");
    }
    l.running--;
    if (profile != null) {
      l.resources = l.resources.minus(profile);
    }
    if (l.running == 0) {
      l.resources = ResourceVector.ZERO; // no rounding residue once nothing runs
    }
  }

  /** A running attempt was preempted (or failed with a retry left): it is pending again. */
  public void requeued(String leaf, double submitTime, ResourceVector profile) {
    ended(leaf, profile);
    queued(leaf, submitTime);
  }

  /** Every leaf's load, for {@link FairShare#of}. */
  public Map<String, QueueLoad> loads() {
    Map<String, QueueLoad> out = new LinkedHashMap<>();
    for (Map.Entry<String, Leaf> e : leaves.entrySet()) {
      Leaf l = e.getValue();
      double oldest = l.pendingSubmits.isEmpty() ? Double.NaN : l.pendingSubmits.firstKey();
      out.put(e.getKey(), new QueueLoad(l.running, l.pending, l.resources, oldest));
    }
    return out;
  }

  /** The share of the pool's queues now. */
  public FairShare share(PoolCapacity capacity, double now) {
    return FairShare.of(tree, capacity, loads(), now);
  }

  /**
   * Why {@code next} cannot replace this ledger's tree: each queue holding work that the new tree
   * removes or turns into a parent (jobs run in leaves). Empty when it can: a configuration is
   * applied whole or not at all, and work is never orphaned (Kueue, too, keeps a ClusterQueue
   * being deleted until its workloads finish).
   */
  public List<String> blockers(QueueTree next) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, Leaf> e : leaves.entrySet()) {
      Leaf l = e.getValue();
      if (l.running + l.pending == 0) {
        continue;
      }
      String q = e.getKey();
      String held = l.running + " running and " + l.pending + " pending tasks";
      if (!next.contains(q)) {
        out.add("queue '" + q + "' holds " + held + " and the new configuration removes it");
      } else if (!next.isLeaf(q)) {
        out.add("queue '" + q + "' holds " + held
            + " and the new configuration gives it child queues");
      }
    }
    return out;
  }

  /**
   * Replaces the tree by {@code next}, keeping every load.
   *
   * @throws IllegalStateException with {@link #blockers} when work would be orphaned; nothing changes
   */
  public void apply(QueueTree next) {
    List<String> b = blockers(next);
    if (!b.isEmpty()) {
      throw new IllegalStateException(String.join("; ", b));
    }
    // An idle leaf is dropped unless the new tree keeps it and it has a preempted history to show.
    leaves.entrySet().removeIf(e -> e.getValue().running + e.getValue().pending == 0
        && (e.getValue().preempted == 0 || !next.contains(e.getKey())
            || !next.isLeaf(e.getKey())));
    tree = next;
  }

  /** An independent copy (a shadow run, a what-if). */
  public QueueLedger copy() {
    QueueLedger c = new QueueLedger(tree);
    for (Map.Entry<String, Leaf> e : leaves.entrySet()) {
      c.leaves.put(e.getKey(), e.getValue().copy());
    }
    return c;
  }

  private Leaf leaf(String name) {
    Leaf l = leaves.get(name);
    if (l == null) {
      if (!tree.contains(name) || !tree.isLeaf(name)) {
        throw new IllegalArgumentException("'" + name + "' is not a leaf queue of this pool");
      }
      l = new Leaf();
      leaves.put(name, l);
    }
    return l;
  }

  private static void removePending(Leaf l, String leaf, double submitTime) {
    Integer n = l.pendingSubmits.get(submitTime);
    if (n == null) {
      throw new IllegalStateException("queue '" + leaf + "' has no pending task submitted at "
          + submitTime);
    }
    if (n == 1) {
      l.pendingSubmits.remove(submitTime);
    } else {
      l.pendingSubmits.put(submitTime, n - 1);
    }
    l.pending--;
  }
}
