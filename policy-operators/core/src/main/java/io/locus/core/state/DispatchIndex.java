package io.locus.core.state;

import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * An index of the wait queue by cached data, for the data-aware policies (MCU, MCH, GCC), so that a
 * decision visits the few queued tasks that can matter instead of scanning the window (spec §2.2).
 *
 * <p>For every queued task it keeps the nodes that hold some of its bytes, split into those with
 * cached(t, e) = maxCached(t) > 0 ({@link #best}: the task's best holders) and the others
 * ({@link #partial}); per node, the tasks of each kind in queue order. Tasks with maxCached(t) = 0
 * are kept apart, and so are those with no bytes at all (hit 1.0 everywhere). It also tracks the
 * last queue position of the scheduling window.
 *
 * <p>It is only a cache of {@link PoolState}: built from the queue and the holder index on first
 * use ({@link PoolState#dispatchIndex()}), kept in step by PoolState's own changes (enqueue, assign,
 * cache add and evict, node removal), and dropped by the restore methods, so a state rebuilt from
 * durable storage rebuilds it on its next decision. A task's entry is recomputed whenever a holder
 * set of one of its files changes, the only thing maxCached and cached depend on.
 */
public final class DispatchIndex {
  private static final NodeView[] NONE = new NodeView[0];
  private static final Comparator<Entry> BY_SEQ = Comparator.comparingLong(e -> e.seq);

  /** One queued task and where its data is. */
  private static final class Entry {
    final Task task;
    final long seq;
    final long bytes;
    /** Distinct file ids of the task's inputs. */
    final String[] files;
    /** This entry's position in each file's list (same order as {@link #files}). */
    final int[] filePos;
    NodeView[] best = NONE;
    NodeView[] partial = NONE;

    Entry(Task task) {
      this.task = task;
      this.seq = task.seq();
      this.bytes = task.totalBytes();
      List<InputFile> in = task.inputs();
      if (in.size() == 1) {
        files = new String[] {in.get(0).id()};
      } else {
        files = in.stream().map(InputFile::id).distinct().toArray(String[]::new);
      }
      filePos = new int[files.length];
    }

    int indexOf(String file) {
      for (int i = 0; i < files.length; i++) {
        if (files[i].equals(file)) {
          return i;
        }
      }
      throw new IllegalStateException("task " + task.taskId() + " does not read " + file);
    }
  }

  /** Per node: the queued tasks it is a best holder of, and those it holds only part of. */
  private static final class NodeSets {
    final TreeSet<Entry> best = new TreeSet<>(BY_SEQ);
    final TreeSet<Entry> partial = new TreeSet<>(BY_SEQ);

    boolean isEmpty() {
      return best.isEmpty() && partial.isEmpty();
    }
  }

  private final PoolState state;
  private final TreeMap<Long, Task> queue;
  private final Map<Long, Entry> bySeq = new HashMap<>();
  private final Map<String, ArrayList<Entry>> byFile = new HashMap<>();
  private final Map<String, NodeSets> byNode = new HashMap<>();
  /** maxCached(t) = 0 and bytes(t) > 0: hit 0 on every node, every node qualifies under MCH. */
  private final TreeSet<Entry> uncached = new TreeSet<>(BY_SEQ);
  /** bytes(t) = 0 (no inputs, or empty files): hit 1.0 on every node, maxCached 0. */
  private final TreeSet<Entry> zeroBytes = new TreeSet<>(BY_SEQ);

  /** The window size the boundary below is kept for (0: none yet). */
  private int window;
  /** Whether the queue holds at least {@link #window} tasks; then {@link #windowLast} is valid. */
  private boolean full;
  private long windowLast;

  DispatchIndex(PoolState state, TreeMap<Long, Task> queue) {
    this.state = state;
    this.queue = queue;
    for (Task t : queue.values()) {
      added(t);
    }
  }

  // ---------------------------------------------------------------- queries

  /**
   * Queue position (seq) of the last task in a window of {@code w} tasks from the head of the
   * queue; {@link Long#MAX_VALUE} when fewer than w are queued. A task is in the window iff its seq
   * is at most this.
   */
  public long windowLast(int w) {
    if (w < 1) {
      throw new IllegalArgumentException("window must be ≥ 1, got " + w);
    }
    if (w != window) {
      window = w;
      full = queue.size() >= w;
      if (full) {
        Iterator<Long> it = queue.keySet().iterator();
        for (int i = 1; i < w; i++) {
          it.next();
        }
        windowLast = it.next();
      }
    }
    return full ? windowLast : Long.MAX_VALUE;
  }

  /** The first queued task whose best holders include {@code node}, or null. */
  public Task firstBest(NodeView node) {
    NodeSets ns = byNode.get(node.id());
    return ns == null || ns.best.isEmpty() ? null : ns.best.first().task;
  }

  /** The first queued task with maxCached 0 and some bytes, or null. */
  public Task firstUncached() {
    return uncached.isEmpty() ? null : uncached.first().task;
  }

  /** The first queued task without bytes, or null. */
  public Task firstZeroBytes() {
    return zeroBytes.isEmpty() ? null : zeroBytes.first().task;
  }

  /** Queued tasks, in queue order, with cached(t, node) = maxCached(t) > 0. */
  public Iterator<Task> best(NodeView node) {
    NodeSets ns = byNode.get(node.id());
    return ns == null ? emptyIterator() : tasks(ns.best);
  }

  /** Queued tasks, in queue order, with 0 < cached(t, node) < maxCached(t). */
  public Iterator<Task> partial(NodeView node) {
    NodeSets ns = byNode.get(node.id());
    return ns == null ? emptyIterator() : tasks(ns.partial);
  }

  /** Queued tasks, in queue order, with maxCached(t) = 0 and bytes(t) > 0. */
  public Iterator<Task> uncached() {
    return tasks(uncached);
  }

  /** Queued tasks, in queue order, with bytes(t) = 0. */
  public Iterator<Task> zeroBytes() {
    return tasks(zeroBytes);
  }

  private static Iterator<Task> tasks(TreeSet<Entry> set) {
    Iterator<Entry> it = set.iterator();
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public Task next() {
        return it.next().task;
      }
    };
  }

  private static Iterator<Task> emptyIterator() {
    return java.util.Collections.emptyIterator();
  }

  // ---------------------------------------------------------------- upkeep (PoolState calls)

  /** A task entered the queue (already in {@code queue}). */
  void added(Task t) {
    Entry e = new Entry(t);
    if (bySeq.put(e.seq, e) != null) {
      throw new IllegalStateException("queue position " + e.seq + " indexed twice");
    }
    for (int i = 0; i < e.files.length; i++) {
      ArrayList<Entry> list = byFile.computeIfAbsent(e.files[i], f -> new ArrayList<>(2));
      e.filePos[i] = list.size();
      list.add(e);
    }
    if (e.bytes == 0) {
      zeroBytes.add(e);
    }
    place(e);
    if (window > 0) {
      int after = queue.size();
      if (after - 1 < window) {
        full = after == window;
        if (full) {
          windowLast = queue.lastKey();
        }
      } else if (e.seq < windowLast) {
        windowLast = queue.lowerKey(windowLast);
      }
    }
  }

  /** A task left the queue (already removed from {@code queue}). */
  void removed(long seq) {
    Entry e = bySeq.remove(seq);
    if (e == null) {
      throw new NoSuchElementException("queue position " + seq + " is not indexed");
    }
    for (int i = 0; i < e.files.length; i++) {
      ArrayList<Entry> list = byFile.get(e.files[i]);
      int pos = e.filePos[i];
      Entry last = list.remove(list.size() - 1);
      if (last != e) {
        list.set(pos, last);
        last.filePos[last.indexOf(e.files[i])] = pos;
      }
      if (list.isEmpty()) {
        byFile.remove(e.files[i]);
      }
    }
    move(e, e.best, NONE, true);
    move(e, e.partial, NONE, false);
    e.best = NONE;
    e.partial = NONE;
    uncached.remove(e);
    zeroBytes.remove(e);
    if (window > 0) {
      int after = queue.size();
      if (after + 1 <= window) {
        full = false;
      } else if (seq <= windowLast) {
        windowLast = queue.higherKey(windowLast);
      }
    }
  }

  /** The holders of {@code file} changed: every queued task reading it is placed again. */
  void holdersChanged(String file) {
    ArrayList<Entry> list = byFile.get(file);
    if (list == null) {
      return;
    }
    for (Entry e : list) {
      place(e);
    }
  }

  /** A node left; its cache was reset before, so no task refers to it any more. */
  void nodeRemoved(String node) {
    NodeSets ns = byNode.remove(node);
    if (ns != null && !ns.isEmpty()) {
      throw new IllegalStateException("node " + node + " left while still indexed as a holder");
    }
  }

  /** Recomputes maxCached and the best and partial holders of a queued task. */
  private void place(Entry e) {
    Task t = e.task;
    if (t.inputs().size() == 1) {
      placeSingle(e, t.inputs().get(0));
      return;
    }
    long max = state.maxCached(t);
    NodeView[] best = NONE;
    NodeView[] partial = NONE;
    int nb = 0;
    int np = 0;
    for (String f : e.files) {
      Set<String> hs = state.holders(f);
      for (String id : hs) {
        NodeView n = state.node(id);
        if (n == null || contains(best, nb, n) || contains(partial, np, n)) {
          continue;
        }
        long c = state.cached(t, n);
        if (c <= 0) {
          continue; // holds only empty files of t
        }
        if (c == max) {
          if (nb == best.length) {
            best = Arrays.copyOf(best, Math.max(4, nb * 2));
          }
          best[nb++] = n;
        } else {
          if (np == partial.length) {
            partial = Arrays.copyOf(partial, Math.max(4, np * 2));
          }
          partial[np++] = n;
        }
      }
    }
    best = nb == best.length ? best : Arrays.copyOf(best, nb);
    partial = np == partial.length ? partial : Arrays.copyOf(partial, np);
    move(e, e.best, best, true);
    move(e, e.partial, partial, false);
    e.best = best;
    e.partial = partial;
    if (max == 0 && e.bytes > 0) {
      uncached.add(e);
    } else {
      uncached.remove(e);
    }
  }

  /**
   * The common case, one input: every holder has all of the task's bytes, so each is a best
   * holder (none when the file is empty), and maxCached is 0 exactly when nobody holds it.
   */
  private void placeSingle(Entry e, InputFile u) {
    Set<String> hs = state.holders(u.id());
    NodeView[] best = NONE;
    if (u.bytes() > 0 && !hs.isEmpty()) {
      best = new NodeView[hs.size()];
      int nb = 0;
      for (String id : hs) {
        NodeView n = state.node(id);
        if (n != null) {
          best[nb++] = n;
        }
      }
      best = nb == best.length ? best : Arrays.copyOf(best, nb);
    }
    move(e, e.best, best, true);
    e.best = best;
    if (hs.isEmpty() && u.bytes() > 0) {
      uncached.add(e);
    } else {
      uncached.remove(e);
    }
  }

  /** Moves the entry out of the sets of nodes only in {@code from}, into those only in {@code to}. */
  private void move(Entry e, NodeView[] from, NodeView[] to, boolean bestSets) {
    for (NodeView n : from) {
      if (!contains(to, to.length, n)) {
        NodeSets ns = byNode.get(n.id());
        (bestSets ? ns.best : ns.partial).remove(e);
      }
    }
    for (NodeView n : to) {
      if (!contains(from, from.length, n)) {
        NodeSets ns = byNode.computeIfAbsent(n.id(), k -> new NodeSets());
        (bestSets ? ns.best : ns.partial).add(e);
      }
    }
  }

  private static boolean contains(NodeView[] a, int n, NodeView x) {
    for (int i = 0; i < n; i++) {
      if (a[i] == x) {
        return true;
      }
    }
    return false;
  }
}
