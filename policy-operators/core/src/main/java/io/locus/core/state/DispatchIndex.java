package io.locus.core.state;

import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.TreeMap;

/**
 * An index of the wait queue by cached data, for the data-aware policies (MCU, MCH, GCC), so that a
 * decision visits the few queued tasks that can matter instead of scanning the window (spec §2.2).
 *
 * <p>For every queued task it keeps the nodes that hold some of its bytes, split into those with
 * cached(t, e) = maxCached(t) > 0 (the task's best holders) and the others (partial holders); per
 * node, the tasks of each kind in queue order. Tasks with maxCached(t) = 0 are kept apart, and so
 * are those with no bytes at all (hit 1.0 everywhere). It also tracks the last queue position of
 * the scheduling window.
 *
 * <p>It is only a cache of {@link PoolState}: built from the queue and the holder index on first
 * use ({@link PoolState#dispatchIndex()}), kept in step by PoolState's own changes (enqueue, assign,
 * cache add and evict, node removal), and dropped by the restore methods, so a state rebuilt from
 * durable storage rebuilds it on its next decision.
 *
 * <p>Cache events are incremental (issue 13: re-placing every task of the file on every event cost
 * queued-tasks-of-the-file × holders² and took 87 % of a 1,000-node run): a holder added to or
 * removed from file f changes only that node's relation to the queued tasks reading f. A one-input
 * task's best holders are exactly the file's holders, so the event adds or removes that one node.
 * A multi-input task keeps cached(t, e) for each node holding some of its bytes and maxCached(t);
 * the event updates that node's figure, and nodes move between best and partial only when
 * maxCached changes. The sets are {@link SeqList}s, sorted arrays with lazy deletion, not trees.
 * The entries are {@link SingleEntry} and {@link MultiEntry}; the invariant that an entry is in
 * exactly the sets its holder figures say is kept here, and {@code DispatchIndexIncrementalTest}
 * checks it after every step.
 */
public final class DispatchIndex {

  /** Per node: the queued tasks it is a best holder of, and those it holds only part of. */
  private static final class NodeSets {
    final SeqList best = new SeqList();
    final SeqList partial = new SeqList();

    boolean isEmpty() {
      return best.isEmpty() && partial.isEmpty();
    }
  }

  private final PoolState state;
  private final TreeMap<Long, Task> queue;
  private final Map<Long, IndexEntry> bySeq = new HashMap<>();
  private final Map<String, ArrayList<IndexEntry>> byFile = new HashMap<>();
  private final Map<String, NodeSets> byNode = new HashMap<>();
  /** maxCached(t) = 0 and bytes(t) > 0: hit 0 on every node, every node qualifies under MCH. */
  private final SeqList uncached = new SeqList();
  /** bytes(t) = 0 (no inputs, or empty files): hit 1.0 on every node, maxCached 0. */
  private final SeqList zeroBytes = new SeqList();

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
    return ns == null ? Collections.emptyIterator() : tasks(ns.best);
  }

  /** Queued tasks, in queue order, with 0 < cached(t, node) < maxCached(t). */
  public Iterator<Task> partial(NodeView node) {
    NodeSets ns = byNode.get(node.id());
    return ns == null ? Collections.emptyIterator() : tasks(ns.partial);
  }

  /** Queued tasks, in queue order, with maxCached(t) = 0 and bytes(t) > 0. */
  public Iterator<Task> uncached() {
    return tasks(uncached);
  }

  /** Queued tasks, in queue order, with bytes(t) = 0. */
  public Iterator<Task> zeroBytes() {
    return tasks(zeroBytes);
  }

  private static Iterator<Task> tasks(SeqList set) {
    return set.iterator();
  }

  // ---------------------------------------------------------------- upkeep (PoolState calls)

  /** A task entered the queue (already in {@code queue}). */
  void added(Task t) {
    IndexEntry e = t.inputs().size() == 1
        ? new SingleEntry(t, t.inputs().get(0))
        : new MultiEntry(t);
    if (bySeq.put(e.seq, e) != null) {
      throw new IllegalStateException("queue position " + e.seq + " indexed twice");
    }
    for (int i = 0; i < e.fileCount(); i++) {
      ArrayList<IndexEntry> list = byFile.computeIfAbsent(e.file(i), f -> new ArrayList<>(2));
      e.setPos(i, list.size());
      list.add(e);
    }
    if (e instanceof SingleEntry s) {
      placeSingle(s);
    } else {
      placeMulti((MultiEntry) e);
    }
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
    IndexEntry e = bySeq.remove(seq);
    if (e == null) {
      throw new NoSuchElementException("queue position " + seq + " is not indexed");
    }
    for (int i = 0; i < e.fileCount(); i++) {
      String f = e.file(i);
      ArrayList<IndexEntry> list = byFile.get(f);
      int pos = e.pos(i);
      IndexEntry last = list.remove(list.size() - 1);
      if (last != e) {
        list.set(pos, last);
        last.setPos(f, pos);
      }
      if (list.isEmpty()) {
        byFile.remove(f);
      }
    }
    if (e instanceof SingleEntry s) {
      if (s.bytes > 0) {
        // the index is in step with the holder set: the task is in exactly its holders' best sets
        for (String id : state.holders(s.file)) {
          sets(id).best.remove(s);
        }
      }
    } else {
      MultiEntry m = (MultiEntry) e;
      for (int i = 0; i < m.size; i++) {
        NodeSets ns = sets(m.nodes[i].id());
        (m.cached[i] == m.max ? ns.best : ns.partial).remove(m);
      }
    }
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

  /** {@code node} became a holder of {@code file} (already in PoolState's holder set). */
  void holderAdded(String file, NodeView node) {
    ArrayList<IndexEntry> list = byFile.get(file);
    if (list == null) {
      return;
    }
    NodeSets ns = byNode.computeIfAbsent(node.id(), k -> new NodeSets());
    boolean firstHolder = state.holders(file).size() == 1;
    for (IndexEntry e : list) {
      if (e instanceof SingleEntry s) {
        if (s.bytes > 0) {
          ns.best.add(s);
          if (firstHolder) {
            uncached.remove(s);
          }
        }
      } else {
        multiAdded((MultiEntry) e, node, ns, file);
      }
    }
  }

  /** {@code node} stopped holding {@code file} (already out of PoolState's holder set). */
  void holderRemoved(String file, NodeView node) {
    ArrayList<IndexEntry> list = byFile.get(file);
    if (list == null) {
      return;
    }
    NodeSets ns = byNode.get(node.id());
    if (ns == null) {
      return; // indexed for no task yet, so for none of this file's
    }
    boolean lastHolder = state.holders(file).isEmpty();
    for (IndexEntry e : list) {
      if (e instanceof SingleEntry s) {
        if (s.bytes > 0) {
          ns.best.remove(s);
          if (lastHolder) {
            uncached.add(s);
          }
        }
      } else {
        multiRemoved((MultiEntry) e, node, ns, file);
      }
    }
  }

  /** A node left; its cache was reset before, so no task refers to it any more. */
  void nodeRemoved(String node) {
    NodeSets ns = byNode.remove(node);
    if (ns != null && !ns.isEmpty()) {
      throw new IllegalStateException("node " + node + " left while still indexed as a holder");
    }
  }

  // ---------------------------------------------------------------- placement from scratch

  private void placeSingle(SingleEntry s) {
    if (s.bytes == 0) {
      zeroBytes.add(s);
      return;
    }
    Set<String> hs = state.holders(s.file);
    if (hs.isEmpty()) {
      uncached.add(s);
      return;
    }
    for (String id : hs) {
      byNode.computeIfAbsent(id, k -> new NodeSets()).best.add(s);
    }
  }

  /** cached(t, e) of every holder from the holder index, then the best and partial sets. */
  private void placeMulti(MultiEntry m) {
    if (m.bytes == 0) {
      zeroBytes.add(m);
      return; // no holder holds any of its bytes: nothing else to index
    }
    Map<String, Integer> at = m.files.length > 1 ? new HashMap<>() : null;
    for (int i = 0; i < m.files.length; i++) {
      long w = m.weight[i];
      if (w == 0) {
        continue; // holding an empty file counts for nothing
      }
      for (String id : state.holders(m.files[i])) {
        Integer j = at == null ? null : at.get(id);
        if (j == null) {
          if (at != null) {
            at.put(id, m.size);
          }
          m.append(state.node(id), w);
        } else {
          m.cached[j] += w;
        }
      }
    }
    long max = 0;
    for (int i = 0; i < m.size; i++) {
      max = Math.max(max, m.cached[i]);
    }
    m.max = max;
    for (int i = 0; i < m.size; i++) {
      NodeSets ns = byNode.computeIfAbsent(m.nodes[i].id(), k -> new NodeSets());
      (m.cached[i] == max ? ns.best : ns.partial).add(m);
    }
    if (max == 0) {
      uncached.add(m);
    }
  }

  // ---------------------------------------------------------------- multi-input increments

  private void multiAdded(MultiEntry m, NodeView node, NodeSets ns, String file) {
    long w = m.weightOf(file);
    if (w == 0) {
      return;
    }
    int i = m.find(node);
    long before = i < 0 ? 0 : m.cached[i];
    long now = before + w;
    if (i < 0) {
      m.append(node, now);
    } else {
      m.cached[i] = now;
    }
    long max = m.max;
    if (now > max) {
      // a new maximum: the old best holders (other than this node) become partial
      if (max > 0) {
        for (int j = 0; j < m.size; j++) {
          if (m.nodes[j] != node && m.cached[j] == max) {
            NodeSets o = sets(m.nodes[j].id());
            o.best.remove(m);
            o.partial.add(m);
          }
        }
      } else {
        uncached.remove(m);
      }
      m.max = now;
      if (before > 0 && before < max) {
        ns.partial.remove(m);
      }
      ns.best.add(m); // no-op when it was a best holder already
    } else if (now == max) {
      if (before > 0) {
        ns.partial.remove(m);
      }
      ns.best.add(m);
    } else if (before == 0) {
      ns.partial.add(m);
    }
  }

  private void multiRemoved(MultiEntry m, NodeView node, NodeSets ns, String file) {
    long w = m.weightOf(file);
    if (w == 0) {
      return;
    }
    int i = m.find(node);
    if (i < 0) {
      throw new IllegalStateException("dispatch index out of step: " + node.id()
          + " held nothing of " + m.task.taskId());
    }
    long before = m.cached[i];
    long now = before - w;
    if (now == 0) {
      m.removeAt(i);
    } else {
      m.cached[i] = now;
    }
    long max = m.max;
    if (before < max) {
      if (now == 0) {
        ns.partial.remove(m);
      }
      return; // a partial holder stays partial (or holds nothing now): maxCached is unchanged
    }
    ns.best.remove(m);
    long newMax = 0;
    boolean otherBest = false;
    for (int j = 0; j < m.size; j++) {
      if (m.nodes[j] != node && m.cached[j] == max) {
        otherBest = true;
        break;
      }
      newMax = Math.max(newMax, m.cached[j]);
    }
    if (otherBest) {
      if (now > 0) {
        ns.partial.add(m);
      }
      return;
    }
    // it was the only best holder: maxCached drops to the next highest figure
    m.max = newMax;
    for (int j = 0; j < m.size; j++) {
      if (m.cached[j] == newMax && m.nodes[j] != node) {
        NodeSets o = sets(m.nodes[j].id());
        o.partial.remove(m);
        o.best.add(m);
      }
    }
    if (now > 0) {
      (now == newMax ? ns.best : ns.partial).add(m);
    }
    if (newMax == 0) {
      uncached.add(m);
    }
  }

  private NodeSets sets(String node) {
    NodeSets ns = byNode.get(node);
    if (ns == null) {
      throw new IllegalStateException("dispatch index out of step: " + node + " not indexed");
    }
    return ns;
  }
}
