package io.locus.sim.exec;

import io.locus.core.cache.EvictionPolicies;
import io.locus.core.cache.EvictionPolicy;
import io.locus.core.cache.FileDemand;
import io.locus.core.cache.FileStats;
import io.locus.core.cache.NodeCache;
import io.locus.core.model.InputFetch;
import io.locus.core.model.InputFile;
import io.locus.core.model.InputSource;
import io.locus.core.model.Task;
import io.locus.sim.engine.EventQueue;
import io.locus.sim.flow.Flow;
import io.locus.sim.flow.FlowNetwork;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The modelled executors and their read path (data-diffusion spec §1.3, D29, D30).
 *
 * <p>For each input, in order: a file in the executor's cache is read from its disk (and touched);
 * a file another task on the executor is already fetching is waited for, then read locally; else it
 * is fetched from the peer named in the Run command, falling back to the index's next least-busy
 * holder and finally the file system when a hint is stale, and cached at the reader on arrival
 * (evicting unpinned files). FA's plan says "do not cache": every FA access goes to storage and
 * nothing is kept or shared. After the reads the task computes, then delivers its result.
 *
 * <p>Workflow outputs ({@link Task#outputs()}, data-diffusion model): when a task completes, each
 * output is created in its node's cache with its declared size ({@link #storeOutputs}), evicting
 * unpinned files by the node's eviction policy like a fetched file, and the scheduler's index
 * learns it from the same cache delta. Creating it moves no bytes. An output is also taken to be in
 * the file system at once (the workflow system's stage-out, not modelled): a reader that finds no
 * cached copy anywhere (evicted everywhere, its node released, or too large to cache) reads it from
 * storage like any input.
 *
 * <p>Eviction needing pool knowledge: DEMAND reads the scheduler's queue ({@link FileDemand}, set
 * by the placer with {@link #setDemand}: its pool state) at each victim choice; VALUE reads
 * {@link FileStats} the cluster keeps itself (AccessFreq: one per task read of a file; NumCopies:
 * the caches holding it), as the staged pools' state keeps them.
 */
public final class Cluster {
  /** Flow and access categories, equal to {@link InputSource} ordinals. */
  public static final int LOCAL = InputSource.LOCAL.ordinal();
  public static final int PEER = InputSource.PEER.ordinal();
  public static final int STORAGE = InputSource.STORAGE.ordinal();

  private final ExecConfig cfg;
  private final FlowNetwork flows;
  private final EventQueue events;
  private final ClusterListener listener;
  private final long seed;
  private HolderDirectory directory = HolderDirectory.NONE;
  private FileDemand demand;
  /** Read live by every node's DEMAND policy, so the placer may set the demand after the nodes. */
  private final FileDemand demandView = new FileDemand() {
    @Override
    public int queuedReaders(String file) {
      return demand().queuedReaders(file);
    }

    @Override
    public int copies(String file) {
      return demand().copies(file);
    }
  };
  private final FileStats stats = new FileStats();
  private final int fs;
  private final Map<String, Executor> executors = new LinkedHashMap<>();
  private int nextIndex;

  private long staleHints;
  private long dedupWaits;
  private double maxCacheFill;
  private long outputsCached;
  private long evictions;

  /** @param seed seeds the randomised eviction policies (one stream per node) */
  public Cluster(ExecConfig cfg, FlowNetwork flows, EventQueue events, ClusterListener listener,
      long seed) {
    this.cfg = cfg;
    this.seed = seed;
    this.flows = flows;
    this.events = events;
    this.listener = listener;
    this.fs = flows.addResource(cfg.fsBytesPerSecond());
  }

  public void setDirectory(HolderDirectory directory) {
    this.directory = directory;
  }

  /** The queue demand DEMAND eviction reads: the placer's pool state. */
  public void setDemand(FileDemand demand) {
    this.demand = demand;
  }

  private FileDemand demand() {
    if (demand == null) {
      throw new IllegalStateException("eviction DEMAND: this placement mode has no queue to read");
    }
    return demand;
  }

  /** AccessFreq and NumCopies as VALUE eviction reads them. */
  public FileStats fileStats() {
    return stats;
  }

  public ExecConfig config() {
    return cfg;
  }

  public FlowNetwork flows() {
    return flows;
  }

  /** The shared file system's aggregate-bandwidth resource. */
  public int fsResource() {
    return fs;
  }

  public Executor executor(String id) {
    return executors.get(id);
  }

  /** Every executor ever added, alive or released, in registration order. */
  public Collection<Executor> executors() {
    return Collections.unmodifiableCollection(executors.values());
  }

  /** Peer hints that named a node no longer holding the file. */
  public long staleHints() {
    return staleHints;
  }

  /** Reads that waited for another task's fetch of the same file on the same node. */
  public long dedupWaits() {
    return dedupWaits;
  }

  /** Largest used / capacity any cache reached (≤ 1 by construction; checked by the tests). */
  public double maxCacheFill() {
    return maxCacheFill;
  }

  public Executor addExecutor(String id, int slots, long cacheBytes, double now) {
    if (executors.containsKey(id)) {
      throw new IllegalArgumentException("executor " + id + " already exists");
    }
    int index = nextIndex++;
    // Each node gets its own stream so a randomised eviction policy does not couple nodes.
    long nodeSeed = seed * 0x9E3779B97F4A7C15L + index;
    NodeCache cache = new NodeCache(cacheBytes, evictionPolicy(nodeSeed));
    Executor e = new Executor(id, index, slots, cache, flows.addResource(cfg.diskBytesPerSecond()),
        flows.addResource(cfg.nicInBytesPerSecond()), flows.addResource(cfg.nicOutBytesPerSecond()),
        now);
    executors.put(id, e);
    return e;
  }

  private EvictionPolicy evictionPolicy(long nodeSeed) {
    String name = cfg.eviction().toUpperCase(java.util.Locale.ROOT);
    return name.equals("DEMAND") ? EvictionPolicies.create(name, nodeSeed, demandView)
        : EvictionPolicies.create(name, nodeSeed, stats);
  }

  /**
   * Starts a placed task on its executor. The plan is the Run command's: per input, the source the
   * scheduler expected and whether to cache.
   */
  public TaskRun start(Task task, List<InputFetch> plan, String node, double now) {
    Executor e = executors.get(node);
    if (e == null || !e.alive) {
      throw new IllegalStateException("task " + task.taskId() + " placed on unknown node " + node);
    }
    TaskRun r = new TaskRun(this, task, plan, e, now);
    e.running.add(r);
    for (InputFetch in : plan) {
      stats.recordAccess(in.unit().id());
      if (in.cache() && e.cache.contains(in.unit().id())) {
        r.pinOnce(in.unit().id()); // inputs pinned while the task runs (§1.3)
      }
    }
    advance(r, now);
    return r;
  }

  /** Stops a running attempt (timeout, failure, node loss). Its caching fetches carry on. */
  public void cancel(TaskRun r, double now) {
    if (r.cancelled || r.finished) {
      return;
    }
    r.cancelled = true;
    if (r.localFlow != null && r.localFlow.active()) {
      listener.bytesAborted(LOCAL, flows.cancel(r.localFlow, now), now);
    }
    if (r.waitingFor != null && r.waitingFor.waiters != null) {
      r.waitingFor.waiters.remove(r);
    }
    RemoteRead f = r.fetch;
    if (f != null) {
      f.owner = null;
      if (!f.caching) {
        abortFlow(f, now); // nobody else wants an uncached read
      }
    }
    events.cancel(r.endEvent);
    r.unpinAll();
    r.executor.running.remove(r);
  }

  /**
   * The node leaves (DRP release, suspension): running attempts and incoming fetches stop, peers
   * reading from it fall back to another holder or the file system, and its cache is reset. Returns
   * the attempts that were cancelled.
   */
  public List<TaskRun> release(String id, double now) {
    Executor e = executors.get(id);
    if (e == null || !e.alive) {
      return List.of();
    }
    List<TaskRun> cancelled = new ArrayList<>(e.running);
    for (TaskRun r : cancelled) {
      cancel(r, now);
    }
    for (RemoteRead f : new ArrayList<>(e.inflight.values())) {
      abortFlow(f, now);
      for (TaskRun w : f.waiters == null ? List.<TaskRun>of() : f.waiters) {
        w.waitingFor = null;
      }
    }
    e.inflight.clear();
    e.alive = false;
    e.releasedAt = now;
    for (RemoteRead f : new ArrayList<>(e.serving)) {
      abortFlow(f, now);
      resolve(f, now); // §3.4: the next holder, then storage
    }
    e.cache.clear().forEach(stats::removeCopy);
    return cancelled;
  }

  /**
   * The completed attempt {@code r} created its task's outputs on its node: each enters the cache
   * with its declared size (an output larger than the cache, or than what is unpinned, is not
   * kept), and the change is reported like any cached file. No bytes are moved. A released node
   * keeps nothing.
   */
  public void storeOutputs(TaskRun r, double now) {
    Executor e = r.executor;
    if (!e.alive) {
      return;
    }
    for (InputFile out : r.task.outputs()) {
      if (e.cache.contains(out.id())) {
        e.cache.touch(out.id()); // written again: the newest copy
      } else if (insert(e, out, now)) {
        outputsCached++;
      }
    }
  }

  /** Files evicted by the nodes to make room (Evict commands not counted). */
  public long evictions() {
    return evictions;
  }

  /** Outputs that entered a cache when their task completed. */
  public long outputsCached() {
    return outputsCached;
  }

  /** Evict command: drops unpinned files and reports the change. */
  public void evict(String node, List<String> files, double now) {
    Executor e = executors.get(node);
    if (e == null || !e.alive) {
      return;
    }
    List<String> removed = new ArrayList<>();
    for (String f : files) {
      if (!e.cache.isPinned(f) && e.cache.remove(f)) {
        stats.removeCopy(f);
        removed.add(f);
      }
    }
    if (!removed.isEmpty()) {
      listener.cacheChanged(e, e.nextCacheSeq(), Map.of(), removed, now);
    }
  }

  /** Replicate command: a background fetch into the node's cache (no task waits for it). */
  public void replicate(String node, InputFile unit, String peer, double now) {
    Executor e = executors.get(node);
    if (e == null || !e.alive || e.cache.contains(unit.id()) || e.inflight.containsKey(unit.id())) {
      return;
    }
    RemoteRead f = new RemoteRead(this, e, unit, true, null, peer);
    e.inflight.put(unit.id(), f);
    resolve(f, now);
  }

  // ------------------------------------------------------------------ the read path

  private void advance(TaskRun r, double now) {
    if (r.cancelled) {
      return;
    }
    Executor e = r.executor;
    if (r.next == r.plan.size()) {
      r.readsDoneAt = now;
      double end = now + r.task.totalComputeSeconds() + cfg.deliverySeconds();
      r.endEvent = events.schedule(end, () -> finish(r, end));
      return;
    }
    InputFetch in = r.plan.get(r.next);
    InputFile u = in.unit();
    String file = u.id();
    if (!in.cache()) { // FA (D30): storage, never cached, never shared
      RemoteRead f = new RemoteRead(this, e, u, false, r, null);
      r.fetch = f;
      startFlow(f, null, now);
      return;
    }
    if (e.cache.contains(file)) {
      r.pinOnce(file);
      e.cache.touch(file);
      r.localFlow = flows.start(now, e.diskOnly, u.bytes(), LOCAL, r);
      return;
    }
    RemoteRead pending = e.inflight.get(file);
    if (pending != null) { // D29: one transfer per file and node
      pending.addWaiter(r);
      r.waitingFor = pending;
      dedupWaits++;
      return;
    }
    RemoteRead f = new RemoteRead(this, e, u, true, r, in.source() == InputSource.PEER ? in.peer() : null);
    e.inflight.put(file, f);
    r.fetch = f;
    resolve(f, now);
  }

  /** Picks the fetch's source: the hinted peer, else the least busy holder (D9), else storage. */
  private void resolve(RemoteRead f, double now) {
    Executor src = null;
    String file = f.unit.id();
    if (f.hint != null && !f.tried.contains(f.hint)) {
      f.tried.add(f.hint);
      Executor h = executors.get(f.hint);
      if (holds(h, f)) {
        src = h;
      } else {
        staleHints++;
      }
    }
    while (src == null) {
      Executor best = null;
      for (String id : directory.holders(file)) {
        if (id.equals(f.dest.id) || f.tried.contains(id)) {
          continue;
        }
        Executor h = executors.get(id);
        if (h == null) {
          continue;
        }
        if (best == null || h.outboundActive < best.outboundActive
            || (h.outboundActive == best.outboundActive && h.id.compareTo(best.id) < 0)) {
          best = h;
        }
      }
      if (best == null) {
        break;
      }
      f.tried.add(best.id);
      if (holds(best, f)) {
        src = best;
      } else {
        staleHints++;
      }
    }
    startFlow(f, src, now);
  }

  private static boolean holds(Executor h, RemoteRead f) {
    return h != null && h.alive && h != f.dest && h.cache.contains(f.unit.id());
  }

  private void startFlow(RemoteRead f, Executor src, double now) {
    f.source = src;
    if (src == null) {
      f.flow = flows.start(now, new int[] {fs, f.dest.nicIn}, f.unit.bytes(), STORAGE, f);
    } else {
      src.cache.pin(f.unit.id()); // not evicted from under a transfer
      src.outboundActive++;
      src.serving.add(f);
      f.flow = flows.start(now, new int[] {src.disk, src.nicOut, f.dest.nicIn}, f.unit.bytes(),
          PEER, f);
    }
  }

  private void abortFlow(RemoteRead f, double now) {
    if (f.flow != null && f.flow.active()) {
      listener.bytesAborted(f.source == null ? STORAGE : PEER, flows.cancel(f.flow, now), now);
    }
    releaseSource(f);
  }

  private void releaseSource(RemoteRead f) {
    Executor src = f.source;
    if (src != null) {
      src.cache.unpin(f.unit.id());
      src.outboundActive--;
      src.serving.remove(f);
      f.source = null;
    }
  }

  void remoteReadDone(RemoteRead f, double now) {
    int category = f.source == null ? STORAGE : PEER;
    releaseSource(f);
    Executor e = f.dest;
    String file = f.unit.id();
    boolean cached = false;
    if (f.caching) {
      e.inflight.remove(file);
      if (e.alive) {
        cached = e.cache.contains(file) || insert(e, f.unit, now);
      }
    }
    TaskRun owner = f.owner;
    if (owner != null && !owner.cancelled) {
      owner.fetch = null;
      if (cached) {
        owner.pinOnce(file);
      }
      readDone(owner, category, f.unit.bytes(), now);
    }
    if (f.waiters != null) {
      for (TaskRun w : f.waiters) {
        if (!w.cancelled) {
          w.waitingFor = null;
          advance(w, now); // the file is local now (or, if it could not be cached, fetched anew)
        }
      }
    }
  }

  /** On-demand replication at the reader (§3.2): evict unpinned files until it fits. */
  private boolean insert(Executor e, InputFile u, double now) {
    NodeCache.Insert ins = e.cache.insert(u.id(), u.bytes());
    if (!ins.cached()) {
      return false; // larger than the cache, or the rest is pinned: streamed, not kept
    }
    evictions += ins.evicted().size();
    stats.addCopy(u.id());
    ins.evicted().forEach(stats::removeCopy);
    if (e.cache.capacity() > 0) {
      maxCacheFill = Math.max(maxCacheFill, (double) e.cache.used() / e.cache.capacity());
    }
    listener.cacheChanged(e, e.nextCacheSeq(), Map.of(u.id(), u.bytes()), ins.evicted(), now);
    return true;
  }

  void localReadDone(TaskRun r, Flow flow, double now) {
    r.localFlow = null;
    readDone(r, LOCAL, r.plan.get(r.next).unit().bytes(), now);
  }

  private void readDone(TaskRun r, int category, long bytes, double now) {
    r.bytes[category] += bytes;
    r.accesses[category]++;
    listener.readDone(r, category, bytes, now);
    r.next++;
    advance(r, now);
  }

  private void finish(TaskRun r, double now) {
    if (r.cancelled) {
      return;
    }
    r.finished = true;
    r.unpinAll();
    r.executor.running.remove(r);
    listener.taskDone(r, now);
  }
}
