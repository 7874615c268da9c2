package io.locus.core.policy;

import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import io.locus.core.state.DispatchIndex;
import io.locus.core.state.NodeView;
import io.locus.core.state.PoolState;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;

/**
 * The window-based dispatch shared by MCU, MCH and GCC (data-diffusion spec §2.2): part 1 picks the
 * executor to notify from the task side, part 2 picks that executor's tasks from the window.
 *
 * <p>Priority (docs/policies.md, "Priority"): the queue, hence the window, is in priority order
 * (higher first, arrival within a level). Part 1's "first task that can go" is the highest-priority
 * one; part 2 ranks by priority before the hit fraction. So under MCH a lower-priority task may
 * start while a higher one waits only on a node that is not a best holder of the higher one (one it
 * would not take anyway): it never delays the higher one's start beyond its data wait. Under MCU
 * the head (highest priority) is served first, as the head was before.
 *
 * <p>Both parts decide exactly as the spec's scan of the first W queued tasks, but find their
 * candidates in the pool's {@link DispatchIndex} (queued tasks by the nodes holding their data), so
 * a decision costs about the candidates visited (plus a logarithm of the free nodes), not W. The
 * scan itself is kept in test code, and a randomized test checks that both decide alike.
 */
final class DataAwareDispatch {
  enum Mode {
    MCU,
    MCH
  }

  /** Chooses the mode before every decision (GCC switches on utilisation). */
  interface ModeChooser {
    Mode mode(PoolState s);
  }

  private DataAwareDispatch() {}

  static void run(Dispatch d, int window, String name, ModeChooser chooser) {
    PoolState s = d.state();
    while (s.queueLength() > 0 && s.firstFree() != null) {
      Mode mode = chooser.mode(s);
      NodeView e = notifyTarget(s, mode, window);
      if (e == null) {
        return; // MCH: every dispatchable task's best holder is busy
      }
      List<Task> batch = selectTasks(s, e, mode, e.placeable(), window);
      if (batch.isEmpty()) {
        throw new IllegalStateException("no task selected for notified node " + e.id());
      }
      String label = name.equals(mode.name()) ? name : name + "/" + mode.name();
      for (Task t : batch) {
        d.place(t, e, label, true);
      }
    }
  }

  /**
   * Part 1: which free executor to notify. MCU looks at the head task only. MCH wants the first
   * window task that can go now: one nobody caches (every executor qualifies) or one with a free
   * best holder. Instead of scanning the window task by task, it takes the first such task from
   * the index: the first uncached task, and the earliest of the free nodes' first best tasks.
   */
  static NodeView notifyTarget(PoolState s, Mode mode, int window) {
    if (mode == Mode.MCU) {
      // MCU keeps every slot busy: a free slot anywhere beats a holder's local-queue position
      Task head = s.queue().iterator().next();
      NodeView first = s.firstFree();
      NodeView best = bestFreeHolder(s, head, -1, first.freeSlots() > 0);
      return best != null ? best : first;
    }
    DispatchIndex ix = s.dispatchIndex();
    // the earliest of: the first uncached task, the first without bytes, and the first best task
    // of any free node (kept ordered by the index, so the free pool is not walked)
    long last = ix.windowLast(window);
    // bounded by the window: the index's walk over hot files' tasks stops at its last task
    Task first = earlier(earlier(ix.firstUncached(), ix.firstZeroBytes()),
        ix.firstBestOfFree(last));
    if (first == null || first.queueRank() > last) {
      return null; // every window task's best holders are busy: all deferred (spec D6)
    }
    long max = ix.maxCached(first);
    if (max == 0) {
      return s.firstFree(); // nobody caches any of its data: every executor qualifies
    }
    // a multi-input task's best holders are in the index, with their figures (issue 25)
    NodeView best = first.inputs().size() > 1 ? ix.firstFreeBestHolder(first)
        : bestFreeHolder(s, first, max, false);
    if (best == null) {
      throw new IllegalStateException("dispatch index out of step: no free best holder for "
          + first.taskId());
    }
    return best;
  }

  private static Task earlier(Task a, Task b) {
    return a == null || (b != null && b.queueRank() < a.queueRank()) ? b : a;
  }

  /**
   * Among free nodes caching some of t's data: the one with the most cached bytes (or, when
   * {@code required} ≥ 0, the first with exactly that many), ties to the free-pool order (a free
   * slot before a free local-queue position, then FIFO). Visits only t's holders, not the whole
   * pool. {@code slotOnly}: only nodes with a free slot.
   */
  static NodeView bestFreeHolder(PoolState s, Task t, long required, boolean slotOnly) {
    if (t.inputs().size() == 1 && t.totalBytes() > 0) {
      String file = t.inputs().get(0).id();
      Collection<NodeView> free = s.freePool();
      if (free.size() < s.holders(file).size()) {
        return firstFreeHolding(free, file, slotOnly);
      }
    }
    NodeView best = null;
    long bestBytes = 0;
    for (InputFile u : t.inputs()) {
      for (String id : s.holders(u.id())) {
        NodeView n = s.node(id);
        if (n == null || !PoolState.canTake(n) || (slotOnly && n.freeSlots() == 0)) {
          continue;
        }
        long c = s.cached(t, n);
        boolean eligible = required < 0 ? c > 0 : c == required;
        if (!eligible) {
          continue;
        }
        if (best == null || (required < 0 && c > bestBytes)
            || (c == bestBytes && PoolState.freeBefore(n, best))) {
          best = n;
          bestBytes = c;
        }
      }
    }
    return best;
  }

  /**
   * {@link #bestFreeHolder} for a one-input task with bytes when the free pool is smaller than the
   * file's holders (a file on many nodes: issue 25): every holder holds all of the task's bytes,
   * so the answer is the holder first in free-pool order, and the pool is walked in that order
   * instead of all the holders. The free pool holds exactly the nodes that can take a placement,
   * in {@link PoolState#freeBefore} order, so the first match is the one the holder walk picks.
   */
  private static NodeView firstFreeHolding(Collection<NodeView> free, String file,
      boolean slotOnly) {
    for (NodeView n : free) {
      if (slotOnly && n.freeSlots() == 0) {
        return null; // tier 2 follows: no free slot there
      }
      if (n.caches(file) && PoolState.canTake(n)) {
        return n;
      }
    }
    return null;
  }

  /**
   * Part 2: the m window tasks with the highest local hit fraction on e, ties in queue order (a
   * stable sort by hit, descending). MCH considers only tasks for which e is a best holder.
   * Priority comes before the hit: the sort is by (priority descending, hit descending, queue
   * order), so a task of higher priority is never passed over on e for a lower one with more of
   * its data there; at one priority it is the spec's rule unchanged.
   *
   * <p>The candidates come from the index, in queue order, instead of the whole window. A window
   * task left out has hit 0 on e and comes after m candidates with hit ≥ 0, so it could not be
   * among the m chosen: under MCU, the tasks e holds nothing of beyond the first m of the window;
   * under MCH, the uncached tasks beyond the first m uncached ones. The rest are all visited: the
   * tasks e holds data of (MCH: those e is a best holder of), and the tasks without bytes (hit 1).
   * The argument holds with priorities: the candidates come in queue order, which is priority
   * first, so a task left out comes after m candidates of at least its priority.
   */
  static List<Task> selectTasks(PoolState s, NodeView e, Mode mode, int m, int window) {
    DispatchIndex ix = s.dispatchIndex();
    long last = ix.windowLast(window);
    Merge cands = mode == Mode.MCU
        ? new Merge(last, limit(s.queue().iterator(), m), ix.best(e, last), ix.partial(e),
            ix.zeroBytes())
        : new Merge(last, ix.best(e, last), limit(ix.uncached(), m), ix.zeroBytes());
    List<Task> top = new ArrayList<>(m + 1);
    List<Double> topHit = new ArrayList<>(m + 1);
    int fullHits = 0;
    // m tasks with 100 % hits in FIFO order cannot be beaten
    while (fullHits < m && cands.hasNext()) {
      Task t = cands.next();
      long cached = s.cached(t, e);
      // the index's own figure: PoolState's sums every holder of every input (issue 25)
      if (mode == Mode.MCH && cached != ix.maxCached(t)) {
        throw new IllegalStateException("dispatch index out of step: " + e.id()
            + " is no best holder of " + t.taskId());
      }
      long bytes = t.totalBytes();
      double hit = bytes == 0 ? 1.0 : (double) cached / bytes;
      // insert after every task of higher priority, and of equal priority with a hit ≥ this
      // one's (keeps queue order among equals)
      int pos = top.size();
      while (pos > 0 && (top.get(pos - 1).priority() < t.priority()
          || (top.get(pos - 1).priority() == t.priority() && topHit.get(pos - 1) < hit))) {
        pos--;
      }
      if (pos < m) {
        top.add(pos, t);
        topHit.add(pos, hit);
        if (top.size() > m) {
          top.remove(m);
          topHit.remove(m);
        }
        if (hit >= 1.0) {
          fullHits++;
        }
      }
    }
    return top;
  }

  private static Iterator<Task> limit(Iterator<Task> it, int n) {
    return new Iterator<>() {
      private int left = n;

      @Override
      public boolean hasNext() {
        return left > 0 && it.hasNext();
      }

      @Override
      public Task next() {
        left--;
        return it.next();
      }
    };
  }

  /** Merges iterators of tasks in queue order into one, without repeats, up to a queue position. */
  private static final class Merge implements Iterator<Task> {
    private final long last;
    private final List<Iterator<Task>> its;
    private final Task[] heads;
    private long prev = Long.MIN_VALUE;
    private boolean started;

    @SafeVarargs
    Merge(long last, Iterator<Task>... its) {
      this.last = last;
      this.its = List.of(its);
      this.heads = new Task[its.length];
      for (int i = 0; i < its.length; i++) {
        advance(i);
      }
    }

    private void advance(int i) {
      Iterator<Task> it = its.get(i);
      Task h = it.hasNext() ? it.next() : null;
      heads[i] = h != null && h.queueRank() <= last ? h : null;
    }

    private int min() {
      int best = -1;
      for (int i = 0; i < heads.length; i++) {
        if (heads[i] != null && (best < 0 || heads[i].queueRank() < heads[best].queueRank())) {
          best = i;
        }
      }
      return best;
    }

    @Override
    public boolean hasNext() {
      while (true) {
        int i = min();
        if (i < 0) {
          return false;
        }
        if (!started || heads[i].queueRank() != prev) {
          return true;
        }
        advance(i); // the same task from another source
      }
    }

    @Override
    public Task next() {
      if (!hasNext()) {
        throw new java.util.NoSuchElementException();
      }
      int i = min();
      Task t = heads[i];
      prev = t.queueRank();
      started = true;
      advance(i);
      return t;
    }
  }
}
