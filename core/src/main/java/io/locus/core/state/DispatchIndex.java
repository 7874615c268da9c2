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
 *
 * <p>Hot files (issue 25: data-aware at data-blind speed). Filing a one-input task under every
 * holder of its file costs O(holders) per arrival and per placement, and O(holders) set entries
 * per queued task: with every node holding every file (1,000 holders) one decision cost ~200 µs
 * and 100,000 queued tasks would need 10⁸ set entries. So a file with many holders is "hot": its
 * one-input readers are kept once, in queue order, in {@link #hot} (one list for all hot files),
 * and in no node's best set; arrival and placement cost O(1) whatever the holder count. The node
 * side is found from what the node holds instead: a node's best tasks are its best set merged with
 * the readers of the hot files it holds, and the earliest hot task with a free best holder is the
 * first reader of the earliest hot file with a free holder ({@link HotReaders} keeps, per hot
 * file, its readers in queue order and how many of its holders are free; the query walks hot
 * files, never tasks). Neither query walks the
 * backlog: an earlier version walked the hot tasks up to the window's end probing each one's file
 * for a free holder, W × holders per input whenever the popular files' holders were busy, and
 * {@code locus bench} MCH collapsed from ~7,800 to ~100 placed/s (issue 25); {@code
 * DispatchIndexHotWorkTest} counts those probes. A file turns hot when its holders exceed {@code 2 × hotHolders} and cold again when
 * they fall below {@code hotHolders} (hysteresis: a move costs O(readers × holders), paid at most
 * once per {@code hotHolders} cache events of the file, each of which costs O(readers) anyway);
 * it stays hot while it has no queued reader, so its free holders are not recounted.
 * The queries answer exactly as before (the test of this index runs with hot files too), so
 * decisions are unchanged. Multi-input tasks are filed per holder as before.
 *
 * <p>Every key here ("queue position", {@code seq} of an entry) is the task's queue rank
 * ({@link Task#queueRank()}): priority first, then arrival, so "in queue order" and "the first
 * task" mean the highest-priority one, earliest among equals; at priority 0 the rank is the seq.
 *
 * <p>Why ~780 lines: the two filings (per holder, and hot) must answer every query together, and
 * each change of the queue or of a cache must keep both exact in the same step (the incremental
 * test checks it after every step). {@link HotReaders} already holds the hot files' per-file
 * side; the next cut is the rest of the hot filing ({@link #hot}, the moves between hot and cold)
 * into it, behind the same queries.
 */
public final class DispatchIndex {

  /**
   * Per node: the queued tasks it is a best holder of, and those it holds only part of; whether the
   * node is in the free pool, and then the queue position its first best task is counted under in
   * {@link #freeFirsts} ({@link #NONE}: not counted).
   */
  private static final class NodeSets {
    final SeqList best = new SeqList();
    final SeqList partial = new SeqList();
    boolean free;
    long counted = NONE;

    NodeSets(boolean free) {
      this.free = free;
    }

    boolean isEmpty() {
      return best.isEmpty() && partial.isEmpty();
    }
  }

  private static final long NONE = Long.MIN_VALUE;

  /**
   * A file with more than 2 × this many holders is hot (see the class comment); below this many
   * it is cold again. Package-private and mutable for the tests only, which run the incremental
   * index test with it at 1 so that hot files come and go; never changed in production.
   */
  static int hotHolders = 16;

  private final PoolState state;
  private final TreeMap<Long, Task> queue;
  private final Map<Long, IndexEntry> bySeq = new HashMap<>();
  private final Map<String, ArrayList<IndexEntry>> byFile = new HashMap<>();
  private final Map<String, NodeSets> byNode = new HashMap<>();
  /**
   * The notify step's candidates (MCH, GCC): for each queue position, how many free nodes have the
   * task there as their first best task. Its first key is the earliest task with a free best
   * holder, found in O(log n) instead of a walk over the free pool, which with local queues holds
   * nearly every node.
   */
  private final TreeMap<Long, int[]> freeFirsts = new TreeMap<>();
  /** maxCached(t) = 0 and bytes(t) > 0: hit 0 on every node, every node qualifies under MCH. */
  private final SeqList uncached = new SeqList();
  /** bytes(t) = 0 (no inputs, or empty files): hit 1.0 on every node, maxCached 0. */
  private final SeqList zeroBytes = new SeqList();
  /** One-input tasks (bytes > 0) of hot files, in queue order; in no node's best set. */
  private final SeqList hot = new SeqList();
  /** The hot files: per file its readers and free holders ({@link HotReaders}). */
  private final HotReaders hotReaders;

  /** The window size the boundary below is kept for (0: none yet). */
  private int window;
  /** Whether the queue holds at least {@link #window} tasks; then {@link #windowLast} is valid. */
  private boolean full;
  private long windowLast;
  /** Hot tasks and holders the hot queries visited (tests count work with it, not time). */
  private final long[] hotProbes = new long[1];

  DispatchIndex(PoolState state, TreeMap<Long, Task> queue) {
    this.state = state;
    this.queue = queue;
    this.hotReaders = new HotReaders(state);
    for (Task t : queue.values()) {
      added(t);
    }
  }

  // ---------------------------------------------------------------- queries

  /**
   * Queue rank ({@link Task#queueRank()}: priority, then seq) of the last task in a window of
   * {@code w} tasks from the head of the queue; {@link Long#MAX_VALUE} when fewer than w are
   * queued. A task is in the window iff its queue rank is at most this.
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

  /**
   * maxCached(t) of a queued task as the index keeps it: O(1), where {@link PoolState#maxCached}
   * sums every holder of every input (a multi-input task of popular files: thousands of map
   * updates, once per candidate a decision looks at; issue 25).
   */
  public long maxCached(Task t) {
    IndexEntry e = bySeq.get(t.queueRank());
    if (e == null || !e.task.taskId().equals(t.taskId())) {
      throw new NoSuchElementException("task " + t.taskId() + " is not indexed");
    }
    if (e instanceof SingleEntry s) {
      return s.bytes > 0 && !state.holders(s.file).isEmpty() ? s.bytes : 0;
    }
    return ((MultiEntry) e).max;
  }

  /**
   * Among the best holders of queued multi-input task {@code t} (cached(t, n) = maxCached(t)) that
   * can take a placement now, the first in free-pool order ({@link PoolState#freeBefore}); null
   * when none. Read from the index's per-task holder figures, without a cache look-up per holder
   * and input (issue 25: MCH's notify step re-derived cached(t, n) for every holder of every
   * input, once per decision).
   */
  public NodeView firstFreeBestHolder(Task t) {
    IndexEntry e = bySeq.get(t.queueRank());
    if (!(e instanceof MultiEntry m) || !e.task.taskId().equals(t.taskId())) {
      throw new NoSuchElementException("task " + t.taskId() + " is not an indexed multi-input "
          + "task");
    }
    NodeView best = null;
    for (int i = 0; i < m.size; i++) {
      NodeView n = m.nodes[i];
      if (m.cached[i] == m.max && PoolState.canTake(n)
          && (best == null || PoolState.freeBefore(n, best))) {
        best = n;
      }
    }
    return best;
  }

  /** How many queued tasks read {@code file} (demand-aware eviction). */
  public int queuedReaders(String file) {
    ArrayList<IndexEntry> list = byFile.get(file);
    return list == null ? 0 : list.size();
  }

  /** The first queued task whose best holders include {@code node}, or null. */
  public Task firstBest(NodeView node) {
    Iterator<Task> it = best(node);
    return it.hasNext() ? it.next() : null;
  }

  /**
   * The first queued task among the free nodes' first best tasks (the free pool's nodes, both
   * tiers): the earliest task with a free best holder, or null.
   */
  public Task firstBestOfFree() {
    return firstBestOfFree(Long.MAX_VALUE);
  }

  /**
   * As {@link #firstBestOfFree()} when that task's queue rank is at most {@code upTo}; otherwise
   * some task ranked after {@code upTo}, or null. The walk over hot tasks stops at {@code upTo}
   * (the window's last task), which bounds a decision's work.
   */
  public Task firstBestOfFree(long upTo) {
    Task cold = freeFirsts.isEmpty() ? null : bySeq.get(freeFirsts.firstKey()).task;
    if (hot.isEmpty()) {
      return cold;
    }
    Task h = hotReaders.firstWithFreeHolder(hotProbes);
    return h != null && (cold == null || h.queueRank() < cold.queueRank()) ? h : cold;
  }

  /** Counter updates the hot files' free-holder counts took for free-pool moves (tests). */
  long hotMoveUpdates() {
    return hotReaders.moveUpdates;
  }

  /** Hot tasks and holders visited by the hot queries so far (tests). */
  long hotProbes() {
    return hotProbes[0];
  }

  /** How many queued tasks are kept as readers of hot files (tests). */
  int hotTasks() {
    int n = 0;
    for (Iterator<Task> it = hot.iterator(); it.hasNext(); it.next()) {
      n++;
    }
    return n;
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
    return best(node, Long.MAX_VALUE);
  }

  /**
   * As {@link #best(NodeView)}, up to queue rank {@code upTo}: the walk over hot tasks the node
   * does not hold stops there (the window's last task), so it costs at most W.
   */
  public Iterator<Task> best(NodeView node, long upTo) {
    NodeSets ns = byNode.get(node.id());
    Iterator<Task> own = ns == null ? Collections.emptyIterator() : tasks(ns.best);
    if (hot.isEmpty()) {
      return own;
    }
    Iterator<Task> merged = hotReaders.merged(node, own);
    return merged != null ? merged : new HotMerge(own, hot.iterator(), node, upTo, hotProbes);
  }

  /**
   * A node's own best set merged, in queue order, with the hot tasks whose file the node holds
   * (every holder of a one-input task's file is a best holder); the two never share a task.
   */
  private static final class HotMerge implements Iterator<Task> {
    private final Iterator<Task> own;
    private final Iterator<Task> hot;
    private final NodeView node;
    private final long upTo;
    private final long[] probes;
    private Task a;
    private Task b;

    HotMerge(Iterator<Task> own, Iterator<Task> hot, NodeView node, long upTo, long[] probes) {
      this.probes = probes;
      this.own = own;
      this.hot = hot;
      this.node = node;
      this.upTo = upTo;
      a = own.hasNext() ? own.next() : null;
      b = nextHot();
    }

    private Task nextHot() {
      while (hot.hasNext()) {
        Task t = hot.next();
        probes[0]++;
        if (t.queueRank() > upTo) {
          return null;
        }
        if (node.cached.containsKey(t.inputs().get(0).id())) {
          return t;
        }
      }
      return null;
    }

    @Override
    public boolean hasNext() {
      return a != null || b != null;
    }

    @Override
    public Task next() {
      Task t;
      if (b == null || (a != null && a.queueRank() < b.queueRank())) {
        if (a == null) {
          throw new NoSuchElementException();
        }
        t = a;
        a = own.hasNext() ? own.next() : null;
      } else {
        t = b;
        b = nextHot();
      }
      return t;
    }
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
      if (s.bytes > 0 && (hotReaders.isHot(s.file)
          || state.holders(s.file).size() > 2 * hotHolders)) {
        hotReaders.track(s.file);
        s.hot = true;
        hot.add(s);
        hotReaders.addReader(s);
      } else {
        placeSingle(s);
      }
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
        byFile.remove(f); // a hot file stays hot (counted) until its holders fall below the mark
      }
    }
    if (e instanceof SingleEntry s) {
      if (s.hot) {
        hot.remove(s);
        hotReaders.removeReader(s);
      } else if (s.bytes > 0) {
        // the index is in step with the holder set: the task is in exactly its holders' best sets
        for (String id : state.holders(s.file)) {
          removeBest(sets(id), s);
        }
      }
    } else {
      MultiEntry m = (MultiEntry) e;
      for (int i = 0; i < m.size; i++) {
        NodeSets ns = sets(m.nodes[i].id());
        if (m.cached[i] == m.max) {
          removeBest(ns, m);
        } else {
          ns.partial.remove(m);
        }
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
    hotReaders.holderAdded(file, node);
    ArrayList<IndexEntry> list = byFile.get(file);
    if (list == null) {
      return;
    }
    NodeSets ns = sets(node);
    int holders = state.holders(file).size();
    boolean firstHolder = holders == 1;
    boolean isHot = hotReaders.isHot(file);
    for (IndexEntry e : list) {
      if (e instanceof SingleEntry s) {
        if (s.bytes > 0 && !isHot) {
          addBest(ns, s);
          if (firstHolder) {
            uncached.remove(s);
          }
        }
      } else {
        multiAdded((MultiEntry) e, node, ns, file);
      }
    }
    if (!isHot && holders > 2 * hotHolders) {
      heat(file, list);
    }
  }

  /** The file turns hot: its one-input readers leave their holders' best sets for {@link #hot}. */
  private void heat(String file, ArrayList<IndexEntry> readers) {
    hotReaders.track(file);
    for (IndexEntry e : readers) {
      if (e instanceof SingleEntry s && s.bytes > 0) {
        for (String id : state.holders(file)) {
          removeBest(sets(id), s);
        }
        s.hot = true;
        hot.add(s);
        hotReaders.addReader(s);
      }
    }
  }

  /** The file turns cold: its one-input readers go back to their holders' best sets. */
  private void cool(String file, ArrayList<IndexEntry> readers) {
    if (readers != null) {
      for (IndexEntry e : readers) {
        if (e instanceof SingleEntry s && s.hot) {
          hot.remove(s);
          hotReaders.removeReader(s);
          s.hot = false;
          placeSingle(s);
        }
      }
    }
    hotReaders.untrack(file);
  }

  /** {@code node} stopped holding {@code file} (already out of PoolState's holder set). */
  void holderRemoved(String file, NodeView node) {
    hotReaders.holderRemoved(file, node);
    ArrayList<IndexEntry> list = byFile.get(file);
    int holders = state.holders(file).size();
    boolean isHot = hotReaders.isHot(file);
    if (isHot && holders < hotHolders) {
      cool(file, list); // placed on the holders left, the node already out
    }
    if (list == null) {
      return;
    }
    NodeSets ns = byNode.get(node.id());
    if (ns == null) {
      return; // indexed for no task yet, so for none of this file's
    }
    boolean lastHolder = holders == 0;
    for (IndexEntry e : list) {
      if (e instanceof SingleEntry s) {
        if (s.bytes > 0 && !isHot) {
          removeBest(ns, s);
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

  /** {@code node} entered ({@code free}) or left the free pool. */
  void freeChanged(NodeView node, boolean free) {
    hotReaders.freeChanged(node, free);
    NodeSets ns = byNode.get(node.id());
    if (ns == null || ns.free == free) {
      return; // a node without sets has no best task to count
    }
    ns.free = free;
    recount(ns);
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
      addBest(sets(state.node(id)), s);
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
      NodeSets ns = sets(m.nodes[i]);
      if (m.cached[i] == max) {
        addBest(ns, m);
      } else {
        ns.partial.add(m);
      }
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
            removeBest(o, m);
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
      addBest(ns, m); // no-op when it was a best holder already
    } else if (now == max) {
      if (before > 0) {
        ns.partial.remove(m);
      }
      addBest(ns, m);
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
    removeBest(ns, m);
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
        addBest(o, m);
      }
    }
    if (now > 0) {
      if (now == newMax) {
        addBest(ns, m);
      } else {
        ns.partial.add(m);
      }
    }
    if (newMax == 0) {
      uncached.add(m);
    }
  }

  // ---------------------------------------------------------------- best sets and free nodes

  private void addBest(NodeSets ns, IndexEntry e) {
    ns.best.add(e);
    if (ns.free && (ns.counted == NONE || e.seq < ns.counted)) {
      recount(ns); // a new first best task
    }
  }

  private void removeBest(NodeSets ns, IndexEntry e) {
    ns.best.remove(e);
    if (ns.free && e.seq == ns.counted) {
      recount(ns); // the first best task left
    }
  }

  /** Counts the node under its first best task while it is free, and under nothing otherwise. */
  private void recount(NodeSets ns) {
    long first = ns.free && !ns.best.isEmpty() ? ns.best.first().seq : NONE;
    if (first == ns.counted) {
      return;
    }
    if (ns.counted != NONE) {
      int[] c = freeFirsts.get(ns.counted);
      if (--c[0] == 0) {
        freeFirsts.remove(ns.counted);
      }
    }
    if (first != NONE) {
      freeFirsts.computeIfAbsent(first, k -> new int[1])[0]++;
    }
    ns.counted = first;
  }

  /** The node's sets, created on first use (free as the pool says). */
  private NodeSets sets(NodeView node) {
    NodeSets ns = byNode.get(node.id());
    if (ns == null) {
      ns = new NodeSets(state.isFree(node));
      byNode.put(node.id(), ns);
    }
    return ns;
  }

  private NodeSets sets(String node) {
    NodeSets ns = byNode.get(node);
    if (ns == null) {
      throw new IllegalStateException("dispatch index out of step: " + node + " not indexed");
    }
    return ns;
  }
}
