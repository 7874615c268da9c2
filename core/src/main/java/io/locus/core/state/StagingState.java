package io.locus.core.state;

import io.locus.core.cache.EvictionPolicies;
import io.locus.core.cache.FileStats;
import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import io.locus.core.share.QueueTree;
import io.locus.core.staging.GanttChart;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * What the Khanna-family policies (MET, MCT, SA, JDPDLL; hypergraph spec §2.1) keep beyond
 * {@link PoolState}: the scheduler-managed cache of every node ({@link StagedCache}, PRESENT /
 * IN_FLIGHT), the pool-wide {@link FileStats}, a Gantt chart per storage node, the final mapping of
 * each pending task to a node (per-node queues), the planned completion of each node's running
 * job, JDPDLL's reference counters and SA's mode.
 *
 * <p>It extends a {@link PoolState} and does not duplicate it: pending tasks stay in the pool's
 * queue (here only their node), running tasks and slots stay in the pool (here only the planned
 * completion). The pool keeps it in step (arrivals, starts, ends, node changes) and it reports
 * every change of its own, one entry at a time, to the pool's {@link StateJournal}.
 */
public final class StagingState {
  public static final String VALUE = "VALUE";
  public static final String LRU = "LRU";

  /** The running job of a node and its planned completion (NaN when not planned, JDPDLL). */
  public record Stage(String taskId, double plannedCompletion) {}

  private final PoolState pool;
  private final StateJournal journal;
  private final FileStats stats = new FileStats();
  private final Map<String, StagedCache> caches = new HashMap<>();
  private final TreeMap<Integer, GanttChart> charts = new TreeMap<>();
  private final TreeMap<Long, Task> unmapped = new TreeMap<>();
  private final Map<String, TreeMap<Long, Task>> queues = new HashMap<>();
  private final Map<String, String> mapping = new HashMap<>();
  private final Map<String, Stage> stages = new HashMap<>();
  private final Map<String, Map<String, Integer>> refs = new HashMap<>();
  private String eviction = VALUE;
  private String mode;

  StagingState(PoolState pool, StateJournal journal) {
    this.pool = pool;
    this.journal = journal;
  }

  // ------------------------------------------------------------------ configuration

  /**
   * The pool's eviction policy for staged caches: VALUE (MET/MCT/SA) or LRU (JDPDLL). Policies set
   * it before deciding; a change re-orders every cache by (lastUse, id), so it is not persisted.
   */
  public void useEviction(String name) {
    if (name.equals(eviction)) {
      return;
    }
    eviction = name;
    for (StagedCache c : caches.values()) {
      c.usePolicy(EvictionPolicies.create(name, 0, stats));
    }
  }

  public String eviction() {
    return eviction;
  }

  // ------------------------------------------------------------------ queries

  public FileStats fileStats() {
    return stats;
  }

  /** Node k's staged cache (empty until the first commit there). */
  public StagedCache cache(String node) {
    StagedCache c = caches.get(node);
    if (c == null) {
      NodeView n = pool.node(node);
      c = new StagedCache(node, n == null ? 0 : n.cacheCapacity(),
          EvictionPolicies.create(eviction, 0, stats));
      caches.put(node, c);
    }
    return c;
  }

  /** Storage node s's Gantt chart (empty until a reservation). */
  public GanttChart chart(int storageNode) {
    return charts.computeIfAbsent(storageNode, s -> new GanttChart());
  }

  public NavigableMap<Integer, GanttChart> charts() {
    return Collections.unmodifiableNavigableMap(charts);
  }

  /**
   * Pending tasks not yet mapped to a node, in queue order (priority, then seq: {@link
   * Task#queueRank()}).
   */
  public Collection<Task> unmapped() {
    return Collections.unmodifiableCollection(unmapped.values());
  }

  /** queue[k]: pending tasks mapped to node k, in queue order (priority, then seq). */
  public Collection<Task> queue(String node) {
    TreeMap<Long, Task> q = queues.get(node);
    return q == null ? List.of() : Collections.unmodifiableCollection(q.values());
  }

  public String mappedNode(String taskId) {
    return mapping.get(taskId);
  }

  public Stage stage(String node) {
    return stages.get(node);
  }

  /** plannedCompletion(running[k]); NaN when idle or not planned. */
  public double plannedCompletion(String node) {
    Stage s = stages.get(node);
    return s == null ? Double.NaN : s.plannedCompletion();
  }

  public String runningTask(String node) {
    Stage s = stages.get(node);
    return s == null ? null : s.taskId();
  }

  /** ref[k][f], JDPDLL's per-(node, file) reference counter. */
  public int ref(String node, String file) {
    Map<String, Integer> r = refs.get(node);
    return r == null ? 0 : r.getOrDefault(file, 0);
  }

  /** A policy's persistent mode (SA: "MCT" or "MET"); null until set. */
  public String mode() {
    return mode;
  }

  // ------------------------------------------------------------------ changes (policies)

  /** Maps a pending task to a node; the mapping is final (§2.3–2.7). */
  public void map(Task t, String node) {
    if (unmapped.remove(t.queueRank()) == null) {
      throw new IllegalStateException("task " + t.taskId() + " is not pending and unmapped");
    }
    queues.computeIfAbsent(node, n -> new TreeMap<>()).put(t.queueRank(), t);
    mapping.put(t.taskId(), node);
    journal.taskMapped(t.taskId(), node);
  }

  /**
   * Online-HPS (D32): moves a pending task, mapped or not, to node's queue. Pending jobs are freely
   * remapped at every event; a no-op when it is already there.
   */
  public void remap(Task t, String node) {
    String old = mapping.get(t.taskId());
    if (node.equals(old)) {
      return;
    }
    if (old != null) {
      TreeMap<Long, Task> q = queues.get(old);
      if (q == null || q.remove(t.queueRank()) == null) {
        throw new IllegalStateException("task " + t.taskId() + " is not in the queue of " + old);
      }
      if (q.isEmpty()) {
        queues.remove(old);
      }
    } else if (unmapped.remove(t.queueRank()) == null) {
      throw new IllegalStateException("task " + t.taskId() + " is not pending");
    }
    queues.computeIfAbsent(node, n -> new TreeMap<>()).put(t.queueRank(), t);
    mapping.put(t.taskId(), node);
    journal.taskMapped(t.taskId(), node);
  }

  /**
   * A policy change (SET_POLICY): every pending task goes back to the unmapped set, in arrival
   * order, so the new policy maps the whole queue afresh at its next dispatch. Running jobs, staged
   * caches and reservations stay. Returns how many mapped tasks were unmapped.
   */
  public int unmapAll() {
    int n = 0;
    for (TreeMap<Long, Task> q : queues.values()) {
      for (Task t : q.values()) {
        mapping.remove(t.taskId());
        unmapped.put(t.queueRank(), t);
        journal.taskMapped(t.taskId(), null);
        n++;
      }
    }
    queues.clear();
    return n;
  }

  /** MAKE_SPACE on node k for {@code bytes}, never evicting in-flight or protected files. */
  public List<String> makeSpace(String node, long bytes, Predicate<String> protect) {
    List<String> evicted = cache(node).makeSpace(bytes, protect);
    evictedFrom(node, evicted);
    return evicted;
  }

  private void evictedFrom(String node, List<String> evicted) {
    for (String f : evicted) {
      journal.stagedFileRemoved(node, f);
      stats.removeCopy(f);
      statsChanged(f);
    }
  }

  /**
   * What {@link #makeRoom} decided: the files evicted (to announce), those to stream rather than
   * cache, and the queue to charge the cached ones to ({@link #addInFlight(String, InputFile,
   * double, String)}); null without a queue tree.
   */
  public record Room(List<String> evicted, Set<String> streamed, String queue) {}

  /**
   * MAKE_SPACE on node k for the files {@code task} is about to stage there, under the pool's
   * per-queue cache bytes (docs/policies.md, "Cache bytes per queue"; {@link CacheQuota}). Without
   * a queue tree, or with one that sets no cache bytes, exactly {@link #makeSpace}: nothing
   * streamed.
   */
  public Room makeRoom(String node, Task task, Collection<InputFile> fetch,
      Predicate<String> protect) {
    QueueBook book = pool.queueBook();
    QueueTree tree = book == null ? null : book.tree();
    String leaf = tree == null ? null : leafOf(tree, task);
    CacheQuota quota = leaf == null ? null : CacheQuota.of(tree);
    List<String> evicted;
    Set<String> streamed;
    if (quota == null) {
      long bytes = 0;
      for (InputFile u : fetch) {
        bytes += u.bytes();
      }
      evicted = cache(node).makeSpace(bytes, protect);
      streamed = Set.of();
    } else {
      CacheQuota.Room r = quota.makeRoom(cache(node), leaf, fetch, protect);
      evicted = r.evicted();
      streamed = r.streamed();
    }
    evictedFrom(node, evicted);
    return new Room(evicted, streamed, leaf);
  }

  private static String leafOf(QueueTree tree, Task task) {
    QueueTree.Resolution r = tree.resolve(task.queue());
    return r.ok() ? r.queue() : null;
  }

  /** A transfer of {@code u} to node k was committed or issued: IN_FLIGHT, one more copy. */
  public void addInFlight(String node, InputFile u, double now) {
    addInFlight(node, u, now, null);
  }

  /**
   * As {@link #addInFlight(String, InputFile, double)}, charging the file to {@code queue} (a
   * {@link Room#queue()}; null: none). The file stays charged to that queue while it is cached,
   * whoever reads it later.
   */
  public void addInFlight(String node, InputFile u, double now, String queue) {
    StagedCache c = cache(node);
    c.add(u.id(), u.bytes(), true, now);
    journal.stagedFileUpdated(node, u.id(), u.bytes(), true, now);
    if (queue != null) {
      c.charge(u.id(), queue);
      journal.stagedFileCharged(node, u.id(), queue);
    }
    stats.addCopy(u.id());
    statsChanged(u.id());
  }

  /** lastUse[k][f] = now for the given files that k holds. */
  public void touch(String node, Collection<String> files, double now) {
    StagedCache c = cache(node);
    for (String f : c.touch(files, now)) {
      journal.stagedFileUpdated(node, f, c.bytes(f), c.isInFlight(f), now);
    }
  }

  /** AccessFreq(f) += 1 (at commit, D14). */
  public void recordAccess(String file) {
    stats.recordAccess(file);
    statsChanged(file);
  }

  /** TransferEnd(f, k): IN_FLIGHT → PRESENT. False if k was not receiving f. */
  public boolean transferEnded(String file, String node) {
    StagedCache c = caches.get(node);
    if (c == null || !c.markPresent(file)) {
      return false;
    }
    journal.stagedFileUpdated(node, file, c.bytes(file), false, c.lastUse(file));
    return true;
  }

  public void reserve(int storageNode, double start, double end) {
    chart(storageNode).reserve(start, end);
    if (end > start) {
      journal.ganttReserved(storageNode, start, end);
    }
  }

  /** Drops reservations that ended before now (§9). */
  public void pruneCharts(double now) {
    for (Map.Entry<Integer, GanttChart> e : charts.entrySet()) {
      for (double[] iv : e.getValue().prune(now)) {
        journal.ganttDropped(e.getKey(), iv[0]);
      }
    }
  }

  /** Records the job just placed on k and its planned completion (NaN when not planned). */
  public void recordStart(String node, String taskId, double plannedCompletion) {
    Stage s = new Stage(taskId, plannedCompletion);
    stages.put(node, s);
    journal.nodeStageUpdated(node, taskId, plannedCompletion);
  }

  /** ref[k][f] += 1; returns the new count. */
  public int addRef(String node, String file) {
    int n = refs.computeIfAbsent(node, k -> new HashMap<>()).merge(file, 1, Integer::sum);
    journal.refCountUpdated(node, file, n);
    return n;
  }

  public void resetRef(String node, String file) {
    Map<String, Integer> r = refs.get(node);
    if (r != null && r.remove(file) != null) {
      journal.refCountUpdated(node, file, 0);
    }
  }

  public void setMode(String newMode) {
    if (!newMode.equals(mode)) {
      mode = newMode;
      journal.policyModeUpdated(newMode);
    }
  }

  // ------------------------------------------------------------------ pool hooks

  void taskQueued(Task t) {
    String node = mapping.get(t.taskId());
    if (node == null) {
      unmapped.put(t.queueRank(), t);
    } else {
      queues.computeIfAbsent(node, n -> new TreeMap<>()).put(t.queueRank(), t);
    }
  }

  /** Started (or dropped): no longer pending, so no longer mapped. */
  void taskStarted(Task t) {
    unmapped.remove(t.queueRank());
    String node = mapping.remove(t.taskId());
    if (node != null) {
      TreeMap<Long, Task> q = queues.get(node);
      if (q != null) {
        q.remove(t.queueRank());
      }
      journal.taskMapped(t.taskId(), null);
    }
  }

  void taskEnded(String node, String taskId) {
    Stage s = stages.get(node);
    if (s != null && s.taskId().equals(taskId)) {
      stages.remove(node);
      journal.nodeStageUpdated(node, null, Double.NaN);
    }
  }

  void nodeRegistered(String node, long cacheCapacity) {
    StagedCache c = caches.get(node);
    if (c != null) {
      c.setCapacity(cacheCapacity);
    }
  }

  /** A node left: its cache is gone and its queue goes back to be mapped again. */
  void nodeRemoved(String node) {
    StagedCache c = caches.remove(node);
    if (c != null) {
      for (String f : new ArrayList<>(c.files())) {
        journal.stagedFileRemoved(node, f);
        stats.removeCopy(f);
        statsChanged(f);
      }
    }
    TreeMap<Long, Task> q = queues.remove(node);
    if (q != null) {
      for (Task t : q.values()) {
        mapping.remove(t.taskId());
        unmapped.put(t.queueRank(), t);
        journal.taskMapped(t.taskId(), null);
      }
    }
    if (stages.remove(node) != null) {
      journal.nodeStageUpdated(node, null, Double.NaN);
    }
    Map<String, Integer> r = refs.remove(node);
    if (r != null) {
      for (String f : r.keySet()) {
        journal.refCountUpdated(node, f, 0);
      }
    }
  }

  private void statsChanged(String file) {
    journal.fileStatsUpdated(file, stats.accessFreq(file), stats.numCopies(file));
  }

  // ------------------------------------------------------------------ restore (driver use)

  /** Restore nodes into the pool first (capacities come from them); then {@link #finishRestore}. */
  public void restoreStagedFile(String node, String file, long bytes, boolean inFlight,
      double lastUse) {
    cache(node).restore(file, bytes, inFlight, lastUse);
  }

  /** The queue charged with a restored staged file; after its {@link #restoreStagedFile}. */
  public void restoreStagedCharge(String node, String file, String queue) {
    cache(node).charge(file, queue);
  }

  public void restoreFileStats(String file, long accessFreq, int numCopies) {
    stats.restore(file, accessFreq, numCopies);
  }

  public void restoreReservation(int storageNode, double start, double end) {
    chart(storageNode).reserve(start, end);
  }

  public void restoreMapping(String taskId, String node) {
    mapping.put(taskId, node);
  }

  public void restoreStage(String node, String taskId, double plannedCompletion) {
    stages.put(node, new Stage(taskId, plannedCompletion));
  }

  public void restoreRef(String node, String file, int count) {
    refs.computeIfAbsent(node, k -> new HashMap<>()).put(file, count);
  }

  public void restoreMode(String mode) {
    this.mode = mode;
  }

  /** Call once after the restore* calls (in any order): rebuilds eviction orders and queues. */
  public void finishRestore() {
    for (StagedCache c : caches.values()) {
      c.finishRestore();
    }
    for (Iterator<Task> it = unmapped.values().iterator(); it.hasNext(); ) {
      Task t = it.next();
      String node = mapping.get(t.taskId());
      if (node != null) {
        queues.computeIfAbsent(node, n -> new TreeMap<>()).put(t.queueRank(), t);
        it.remove();
      }
    }
  }
}
