package io.locus.core.state;

import io.locus.core.model.Task;
import io.locus.core.share.QueueLedger;
import io.locus.core.share.QueueTree;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * A pool's queues as its state sees them (issue 24), kept by {@link PoolState}'s transitions when the
 * pool has a queue tree: the {@link QueueLedger} (per leaf: running, pending, oldest pending, the
 * preempted count), each leaf's queued tasks in the pool's queue order (priority, then arrival), so a
 * queue's head is one {@code firstEntry} (O(log n)) whatever the backlog of the others, and each
 * leaf's placement times of its placed attempts, from which the locality-wait clock is derived.
 *
 * <p>Parked tasks (waiting out a retry backoff) are not pending here: they are not placeable, as they
 * are not in {@link PoolState#queueLength}; they join their leaf when released.
 *
 * <p>Everything here is derived from what the pool persists (its queued and running tasks, with
 * their placement times), so a restored pool rebuilds it ({@link #build}) and decides identically;
 * only the cumulative preempted counts are history, kept across a rebuild by the caller.
 */
public final class QueueBook {
  private final QueueTree tree;
  private final QueueLedger ledger;
  private final Map<String, TreeMap<Long, Task>> queued = new HashMap<>();
  /** Leaf → placement time of each of its placed attempts → how many. */
  private final Map<String, TreeMap<Double, Integer>> launches = new HashMap<>();

  private QueueBook(QueueTree tree) {
    this.tree = tree;
    this.ledger = new QueueLedger(tree);
  }

  /**
   * The book of {@code tree} over a pool's queued (in queue order) and placed attempts, keeping the
   * preempted counts of {@code previous} (null: none) for the leaves {@code tree} still has.
   */
  static QueueBook build(QueueTree tree, Collection<Task> queue, Collection<RunningTask> placed,
      QueueLedger previous) {
    QueueBook b = new QueueBook(tree);
    for (Task t : queue) {
      b.queued(t);
    }
    for (RunningTask r : placed) {
      b.running(r);
    }
    if (previous != null) {
      for (Map.Entry<String, Long> e : previous.preemptedCounts().entrySet()) {
        b.ledger.restorePreempted(e.getKey(), e.getValue());
      }
    }
    return b;
  }

  public QueueTree tree() {
    return tree;
  }

  public QueueLedger ledger() {
    return ledger;
  }

  /**
   * The leaf {@code t} runs in. A task whose queue the tree does not have as a leaf (it was
   * accepted under an earlier tree; the operator refuses such jobs at entry and a tree that would
   * orphan work) counts in the default queue rather than being lost to the ledger.
   */
  public String leafOf(Task t) {
    QueueTree.Resolution r = tree.resolve(t.queue());
    return r.ok() ? r.queue() : QueueTree.DEFAULT;
  }

  /** The first queued task of {@code leaf} in queue order, or null. O(log n). */
  public Task head(String leaf) {
    TreeMap<Long, Task> q = queued.get(leaf);
    if (q == null || q.isEmpty()) {
      return null;
    }
    return q.firstEntry().getValue();
  }

  /** The queued tasks of {@code leaf} in queue order (read-only view). */
  public Collection<Task> queuedIn(String leaf) {
    TreeMap<Long, Task> q = queued.get(leaf);
    return q == null ? Collections.emptyList() : Collections.unmodifiableCollection(q.values());
  }

  /** The queued tasks of {@code leaf} after the one at {@code rank}, in queue order. */
  public Collection<Task> queuedAfter(String leaf, long rank) {
    TreeMap<Long, Task> q = queued.get(leaf);
    if (q == null) {
      return Collections.emptyList();
    }
    NavigableMap<Long, Task> tail = q.tailMap(rank, false);
    return Collections.unmodifiableCollection(tail.values());
  }

  /**
   * When {@code leaf} last launched a task that is still placed (NaN when none is): the start of
   * its locality-wait clock (see {@code QueueDispatch}).
   */
  public double lastLaunch(String leaf) {
    TreeMap<Double, Integer> l = launches.get(leaf);
    return l == null || l.isEmpty() ? Double.NaN : l.lastKey();
  }

  // ---------------------------------------------------------------- transitions (PoolState's)

  void queued(Task t) {
    String leaf = leafOf(t);
    queued.computeIfAbsent(leaf, k -> new TreeMap<>()).put(t.queueRank(), t);
    ledger.queued(leaf, t.submitTime());
  }

  /** A queued task left the queue without being placed (cancelled, completed while queued, adopted). */
  void unqueued(Task t) {
    String leaf = leafOf(t);
    if (removeQueued(leaf, t)) {
      ledger.unqueued(leaf, t.submitTime());
    }
  }

  /** A queued task was placed at {@code r.startTime()}. */
  void started(RunningTask r) {
    Task t = r.task();
    String leaf = leafOf(t);
    removeQueued(leaf, t);
    ledger.started(leaf, t.submitTime(), null);
    launched(leaf, r.startTime(), +1);
  }

  /** An attempt is placed that was not queued (adopted from the backoff, or rebuilt). */
  void running(RunningTask r) {
    String leaf = leafOf(r.task());
    ledger.running(leaf, null);
    launched(leaf, r.startTime(), +1);
  }

  /** A placed attempt ended (any way), freeing its slot. */
  void ended(RunningTask r) {
    String leaf = leafOf(r.task());
    ledger.ended(leaf, null);
    launched(leaf, r.startTime(), -1);
  }

  private boolean removeQueued(String leaf, Task t) {
    TreeMap<Long, Task> q = queued.get(leaf);
    return q != null && q.remove(t.queueRank()) != null;
  }

  private void launched(String leaf, double at, int delta) {
    TreeMap<Double, Integer> l = launches.computeIfAbsent(leaf, k -> new TreeMap<>());
    int n = l.getOrDefault(at, 0) + delta;
    if (n <= 0) {
      l.remove(at);
    } else {
      l.put(at, n);
    }
  }
}
