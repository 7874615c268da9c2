package io.locus.core.split;

import io.locus.core.model.Ids;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The split-policy core of the CERN spec (job splitting over event segments): one instance per
 * pool, driven by the simulator and by the streaming job through the same calls (spec §9). The
 * concrete policies ({@link Farm}, {@link JobSplitting}, {@link CacheJobSplitting}, {@link
 * OutOfOrder}, {@link Delayed}, {@link AdaptiveDelay}) only decide; this class keeps the shared
 * state (nodes, range-LRU caches, the pool-wide {@link CoverageIndex}, jobs and subjobs), the
 * progress model of §1.3, the acknowledgement protocol and the snapshot.
 *
 * <h2>Inputs</h2>
 * Every input takes the current time in seconds (a double; the streaming driver converts its
 * milliseconds) and returns the commands to execute, in order. Time never goes back (an earlier
 * time is taken as the latest seen). Before deciding, every input applies the processed part of
 * every running subjob to the cache model (§1.3 "cache materialisation").
 * <ul>
 *   <li>{@link #addNode} / {@link #removeNode}: the pool's nodes (1 slot each).</li>
 *   <li>{@link #onJobArrival}.</li>
 *   <li>{@link #onSubjobEnd}(node, subjob, processedUpTo): the subjob stopped having processed
 *       [start, processedUpTo). Normally processedUpTo is its end; anything less re-queues the rest
 *       (a failed or interrupted run loses nothing).</li>
 *   <li>{@link #onNodeIdle}: the node has nothing to do (after registration, or on a report).</li>
 *   <li>{@link #onTimer}: due at {@link #nextTimerAt()} (period ends, starvation checks, adaptive
 *       re-evaluations).</li>
 *   <li>{@link #acknowledgeStop}: see below.</li>
 * </ul>
 *
 * <h2>Authority and acknowledgement (spec §9)</h2>
 * The master is authoritative for caches; the agent for how far a subjob got. The policy applies
 * SUSPEND and SHRINK at once with its model position (SUSPEND: the model's position; SHRINK: the
 * requested end) and creates the remainder subjob. Until the agent acknowledges the actual stop
 * position:
 * <ul>
 *   <li>every RUN whose range derives from that remainder carries {@code awaitsAckOf} = the stopped
 *       subjob, and the driver holds it;</li>
 *   <li>the stopped subjob and those derived pieces are frozen: the policy neither stops nor splits
 *       them again (queued derived pieces may be split; all their pieces stay derived).</li>
 * </ul>
 * {@link #acknowledgeStop}(subjob, actualPos) then sets the stopped subjob's range to end at
 * actualPos and the derived pieces to start at actualPos (pieces that become empty disappear; a
 * node one of them was held on becomes free and the policy's node-available logic runs). It
 * returns the commands to execute: the released RUNs (which replace the held ones; a held RUN for
 * which no RUN comes back is dropped) and any new decisions. SHRINK acks are ≥ the requested end
 * (the agent cannot go back) and ≤ the subjob's old end; SUSPEND acks are anywhere in [start, old
 * end]. A subjob end reported before the ack counts as the ack. Duplicate or unknown acks are
 * ignored. The simulator acknowledges at once with the model position, so it reproduces the pure
 * model.
 *
 * <h2>Determinism and state</h2>
 * No wall clock, no randomness; every iteration order is fixed (nodes by {@link Ids#ORDER}, jobs
 * by arrival, subjob ids {@code jobId/k}). {@link #snapshot()} writes the whole state as versioned
 * bytes (same state, same bytes); {@link #restore} reads it back, and decisions continue
 * identically.
 */
public abstract class SplitPolicy {
  /** Slack on progress arithmetic: event boundaries within a microsecond count as reached. */
  static final double EPS = 1e-6;
  private static final int MAGIC = 0x4C53504C; // "LSPL"
  private static final int VERSION = 1;

  protected final SplitParams params;
  protected final EventCosts costs;
  final long min;
  final TreeMap<String, SplitNode> nodes = new TreeMap<>(Ids.ORDER);
  final CoverageIndex index = new CoverageIndex();
  /** Unfinished jobs in arrival order. */
  final LinkedHashMap<String, JobState> jobs = new LinkedHashMap<>();
  /** Queued, running and held subjobs. */
  final LinkedHashMap<String, Subjob> live = new LinkedHashMap<>();
  /** Suspended subjobs whose acknowledgement has not come. */
  final LinkedHashMap<String, Subjob> stopped = new LinkedHashMap<>();
  long jobSeq;
  double now;
  private final ArrayDeque<JobOutcome> finished = new ArrayDeque<>();
  private List<SplitCommand> out;
  private final List<Subjob> inOut = new ArrayList<>();
  private final List<SplitNode> freed = new ArrayList<>();
  private long replications;

  protected SplitPolicy(SplitParams params) {
    this.params = Objects.requireNonNull(params, "params");
    this.costs = params.costs();
    this.min = params.min();
  }

  /** The canonical policy name (FARM, JOB_SPLITTING, …). */
  public final String name() {
    return params.policy();
  }

  public final SplitParams params() {
    return params;
  }

  // ===================================================================== public inputs

  /** A node joins the pool, idle with an empty cache; returns the work it gets. */
  public final List<SplitCommand> addNode(String id, double t) {
    try {
      return addNodeImpl(id, t);
    } catch (RuntimeException e) {
      if (out != null) {
        abort();
      }
      throw e;
    }
  }

  private List<SplitCommand> addNodeImpl(String id, double t) {
    begin(t);
    if (id == null || id.isEmpty() || nodes.containsKey(id)) {
      throw new IllegalArgumentException("node id missing or already in the pool: " + id);
    }
    SplitNode v = new SplitNode(id, params.caching() ? params.cacheEvents() : 0,
        tracksQueueCosts() ? this : null);
    v.cache.listener(index.listenerFor(id));
    nodes.put(id, v);
    nodeAvailable(v);
    return finish();
  }

  /**
   * A node leaves (lost or released). Its cache is forgotten; its running subjob is re-queued
   * whole (what the agent did since dispatch is unknown, so nothing of it is counted); its private
   * queue goes back to the policy.
   */
  public final List<SplitCommand> removeNode(String id, double t) {
    try {
      return removeNodeImpl(id, t);
    } catch (RuntimeException e) {
      if (out != null) {
        abort();
      }
      throw e;
    }
  }

  private List<SplitCommand> removeNodeImpl(String id, double t) {
    begin(t);
    SplitNode v = nodes.get(id);
    if (v == null) {
      return finish();
    }
    Subjob x = v.running;
    if (x != null) {
      if (x.stop != null) {
        ack(x.id, x.stop.modelPos());
      }
      unassign(x);
      x.materialised = x.start;
      x.dispatch = Double.NaN;
      requeue(x);
    }
    for (Subjob s : new ArrayList<>(stopped.values())) {
      if (s.stoppedOn == v) {
        s.stoppedOn = null; // its ack still corrects ranges; there is no cache to update
      }
    }
    List<Subjob> orphans = v.queue.toList();
    for (Subjob s : orphans) {
      v.queue.remove(s);
    }
    v.cache.unpin();
    v.cache.clear();
    nodes.remove(id);
    for (Subjob s : orphans) {
      requeue(s);
    }
    fillIdle();
    return finish();
  }

  public final List<SplitCommand> onJobArrival(SplitJob job, double t) {
    try {
      return onJobArrivalImpl(job, t);
    } catch (RuntimeException e) {
      if (out != null) {
        abort();
      }
      throw e;
    }
  }

  private List<SplitCommand> onJobArrivalImpl(SplitJob job, double t) {
    begin(t);
    if (jobs.containsKey(job.id())) {
      throw new IllegalArgumentException("job " + job.id() + " is already in the pool");
    }
    JobState j = new JobState(job.id(), jobSeq++, job.events(), now);
    jobs.put(j.id, j);
    arrival(j);
    return finish();
  }

  /**
   * The agent reports that {@code subjobId} on {@code node} stopped after processing [start,
   * processedUpTo). Unknown subjobs (duplicates) are ignored.
   */
  public final List<SplitCommand> onSubjobEnd(String node, String subjobId, long processedUpTo,
      double t) {
    try {
      return onSubjobEndImpl(node, subjobId, processedUpTo, t);
    } catch (RuntimeException e) {
      if (out != null) {
        abort();
      }
      throw e;
    }
  }

  private List<SplitCommand> onSubjobEndImpl(String node, String subjobId, long processedUpTo,
      double t) {
    begin(t);
    Subjob x = live.get(subjobId);
    if (x == null) {
      if (stopped.containsKey(subjobId)) {
        ack(subjobId, processedUpTo); // it ended before the SUSPEND reached it
      }
      releaseFreed();
      return finish();
    }
    SplitNode v = x.node;
    if (v == null || !v.id.equals(node)) {
      throw new IllegalArgumentException("subjob " + subjobId + " does not run on " + node
          + (v == null ? " (it is queued)" : " (it runs on " + v.id + ")"));
    }
    if (x.held()) {
      throw new IllegalStateException("subjob " + subjobId + " ended but its RUN was still held "
          + "awaiting the acknowledgement of " + x.awaitsAck);
    }
    if (x.stop != null) { // the end is the shrink's acknowledgement (an earlier end: a failure)
      ack(subjobId, Math.max(processedUpTo, x.stop.modelPos()));
    }
    if (processedUpTo < x.start || processedUpTo > x.end) {
      throw new IllegalArgumentException("subjob " + subjobId + " " + x.range()
          + " cannot have processed up to " + processedUpTo);
    }
    materialiseUpTo(x, processedUpTo);
    credit(x, processedUpTo);
    unassign(x);
    live.remove(x.id);
    JobState k = x.job;
    boolean partial = processedUpTo < x.end;
    if (partial) {
      Subjob r = newPiece(k, processedUpTo, x.end);
      r.copyFlags(x);
      requeue(r);
    }
    boolean done = k.finished();
    if (done) {
      complete(k);
    }
    subjobEnded(v, k, done);
    releaseFreed();
    if (partial) {
      fillIdle();
    }
    return finish();
  }

  /** The node has nothing to run. Ignored while the model has a subjob on it. */
  public final List<SplitCommand> onNodeIdle(String node, double t) {
    try {
      return onNodeIdleImpl(node, t);
    } catch (RuntimeException e) {
      if (out != null) {
        abort();
      }
      throw e;
    }
  }

  private List<SplitCommand> onNodeIdleImpl(String node, double t) {
    begin(t);
    SplitNode v = nodes.get(node);
    if (v != null && v.idle()) {
      nodeAvailable(v);
    }
    return finish();
  }

  public final List<SplitCommand> onTimer(double t) {
    try {
      return onTimerImpl(t);
    } catch (RuntimeException e) {
      if (out != null) {
        abort();
      }
      throw e;
    }
  }

  private List<SplitCommand> onTimerImpl(double t) {
    begin(t);
    timer();
    releaseFreed();
    return finish();
  }

  /** When {@link #onTimer} is next due; +∞ when no timer is pending. */
  public double nextTimerAt() {
    return timerAt();
  }

  /**
   * The agent's acknowledgement of a SUSPEND or SHRINK of {@code subjobId}: it stopped (or will
   * stop) at {@code actualPos}. Returns the released RUNs (replacing the held ones) and any new
   * decisions. See the class comment.
   */
  public final List<SplitCommand> acknowledgeStop(String subjobId, long actualPos, double t) {
    try {
      return acknowledgeStopImpl(subjobId, actualPos, t);
    } catch (RuntimeException e) {
      if (out != null) {
        abort();
      }
      throw e;
    }
  }

  private List<SplitCommand> acknowledgeStopImpl(String subjobId, long actualPos, double t) {
    begin(t);
    ack(subjobId, actualPos);
    releaseFreed();
    return finish();
  }

  /** Jobs finished since the last call, in finishing order. */
  public final List<JobOutcome> drainFinished() {
    List<JobOutcome> l = new ArrayList<>(finished);
    finished.clear();
    return l;
  }

  // ===================================================================== views

  public final List<String> nodeIds() {
    return List.copyOf(nodes.keySet());
  }

  /** The node's cache (read it, do not change it). */
  public final RangeLru cache(String node) {
    SplitNode v = nodes.get(node);
    if (v == null) {
      throw new IllegalArgumentException("no node " + node);
    }
    return v.cache;
  }

  public final CoverageIndex coverage() {
    return index;
  }

  /** The subjob the model has on the node (running or held), or null. */
  public final String runningOn(String node) {
    SplitNode v = nodes.get(node);
    return v == null || v.running == null ? null : v.running.id;
  }

  /** Unfinished jobs. */
  public final int activeJobs() {
    return jobs.size();
  }

  /** Subjobs waiting in any queue. */
  public final int queuedSubjobs() {
    int n = 0;
    for (Subjob x : live.values()) {
      if (x.node == null) {
        n++;
      }
    }
    return n;
  }

  /**
   * Waiting work, as a queue length: queued subjobs plus unfinished jobs that have no subjob at
   * all yet. FARM and JOB_SPLITTING (and delayed policies before their period ends) cut subjobs
   * only at dispatch, so their waiting jobs are not subjobs.
   */
  public final int queuedWork() {
    java.util.Set<String> withSubjob = new java.util.HashSet<>();
    int n = 0;
    for (Subjob x : live.values()) {
      withSubjob.add(x.job.id);
      if (x.node == null) {
        n++;
      }
    }
    for (JobState j : jobs.values()) {
      if (!j.finished() && j.active == 0 && !withSubjob.contains(j.id)) {
        n++;
      }
    }
    return n;
  }

  /**
   * When the policy releases an unfinished job for scheduling: the end of its period (delayed
   * policies) or its arrival; NaN for unknown or finished jobs.
   */
  public final double releasedAt(String jobId) {
    JobState j = jobs.get(jobId);
    return j == null ? Double.NaN : j.released;
  }

  /** Replications triggered so far (third remote access). */
  public final long replications() {
    return replications;
  }

  /** A read-only view of a subjob for tests and drivers. */
  public record SubjobInfo(String id, String jobId, EventSpan range, String node, boolean held,
      boolean stopPending, boolean preemptible, boolean priority, String awaitsAck) {}

  public final SubjobInfo subjob(String id) {
    Subjob x = live.get(id);
    if (x == null) {
      x = stopped.get(id);
    }
    if (x == null) {
      return null;
    }
    return new SubjobInfo(x.id, x.job.id, x.range(), x.node == null ? null : x.node.id, x.held(),
        x.stop != null, x.preemptible, x.priority, x.awaitsAck);
  }

  /** Model position of the subjob running on the node at the latest input's time. */
  public final long modelPosition(String node) {
    SplitNode v = nodes.get(node);
    return v == null || v.running == null ? -1 : pos(v.running);
  }

  // ===================================================================== policy hooks

  /** A job arrived ({@code now} is its arrival). */
  protected abstract void arrival(JobState j);

  /** {@code v} is free after a subjob of {@code k} ended; {@code jobFinished}: k is done. */
  protected abstract void subjobEnded(SplitNode v, JobState k, boolean jobFinished);

  /** {@code v} is idle and may take work. */
  protected abstract void nodeAvailable(SplitNode v);

  /** Places a remainder that no decision asked for (partial end, node loss). */
  protected abstract void requeue(Subjob x);

  /** backlog(u): seconds of work the node has (spec §2.0). */
  protected double backlog(SplitNode u) {
    return u.running == null ? 0 : remainingTime(u.running);
  }

  protected double timerAt() {
    return Double.POSITIVE_INFINITY;
  }

  protected void timer() {}

  /** A job finished; drop it from policy structures. */
  protected void jobFinished(JobState j) {}

  protected void writeState(DataOutput o) throws IOException {}

  protected void readState(DataInput in) throws IOException {}

  // ===================================================================== primitives

  final void begin(double t) {
    if (out != null) {
      throw new IllegalStateException("re-entrant call");
    }
    if (!(t >= 0) || !Double.isFinite(t)) {
      throw new IllegalArgumentException("time must be finite and >= 0: " + t);
    }
    now = Math.max(now, t);
    out = new ArrayList<>();
    materialise();
  }

  /**
   * Set by tests: apply every running subjob's progress to the caches at every input instead of
   * when a cache is read. Both give the same decisions (the lazy way only skips work nobody reads).
   */
  static boolean eagerMaterialisation;

  /** v's cache with v's running subjob's progress applied (the §1.3 materialisation, lazily). */
  final RangeLru cacheOf(SplitNode v) {
    if (v.dirty) {
      v.dirty = false;
      Subjob x = v.running;
      if (x != null && !x.held()) {
        materialiseUpTo(x, pos(x));
      }
    }
    return v.cache;
  }

  /** The pool-wide index with every node's progress applied. */
  final CoverageIndex coverageAll() {
    for (SplitNode v : nodes.values()) {
      if (v.dirty) {
        cacheOf(v);
      }
    }
    return index;
  }

  /** Abandons the output of a call that threw (its state changes are not undone). */
  private void abort() {
    for (Subjob x : inOut) {
      x.outIndex = -1;
    }
    inOut.clear();
    freed.clear();
    out = null;
  }

  final List<SplitCommand> finish() {
    List<SplitCommand> result = new ArrayList<>(out.size());
    for (SplitCommand c : out) {
      if (c != null) {
        result.add(c);
      }
    }
    for (Subjob x : inOut) {
      x.outIndex = -1;
    }
    inOut.clear();
    out = null;
    return result;
  }

  /** Nodes freed by acknowledgement corrections take work. */
  private void releaseFreed() {
    while (!freed.isEmpty()) {
      SplitNode v = freed.remove(0);
      if (nodes.get(v.id) == v && v.idle()) {
        nodeAvailable(v);
      }
    }
  }

  final Subjob newPiece(JobState j, long start, long end) {
    Subjob x = new Subjob(j.id + "/" + (++j.counter), j, start, end);
    live.put(x.id, x);
    return x;
  }

  final List<SplitNode> idleNodes() {
    List<SplitNode> l = new ArrayList<>();
    for (SplitNode v : nodes.values()) {
      if (v.idle()) {
        l.add(v);
      }
    }
    return l;
  }

  /** FILL_IDLE: idle nodes by ascending id take work, until nothing changes. */
  final void fillIdle() {
    boolean changed = true;
    while (changed) {
      changed = false;
      for (SplitNode v : nodes.values()) {
        if (v.idle()) {
          nodeAvailable(v);
          changed |= !v.idle();
        }
      }
    }
  }

  /** RUN x on v: fixes its per-event costs from the current caches and pins its range. */
  final void run(Subjob x, SplitNode v) {
    if (v.running != null) {
      throw new IllegalStateException(v.id + " is busy with " + v.running.id);
    }
    if (x.queue != null) {
      x.queue.remove(x);
    }
    if (x.node != null || x.dead) {
      throw new IllegalStateException(x.id + " cannot be run");
    }
    boolean held = x.awaitsAck != null && pending(x.awaitsAck);
    if (!held) {
      x.awaitsAck = null;
    }
    x.node = v;
    v.running = x;
    pin(x);
    x.segments = segmentsFor(v, x.start, x.end, true, x.job);
    x.materialised = x.start;
    x.dispatch = held ? Double.NaN : now;
    x.job.active++;
    if (!held && Double.isNaN(x.job.firstStart)) {
      x.job.firstStart = now;
    }
    if (x.priority) {
      x.job.priority = true;
    }
    emitRun(x, held ? x.awaitsAck : null);
  }

  private void emitRun(Subjob x, String awaits) {
    SplitCommand.Run r = new SplitCommand.Run(x.node.id, x.id, x.job.id, x.range(),
        clip(x.segments, x.start, x.end), awaits);
    if (x.outIndex >= 0) {
      out.set(x.outIndex, r);
    } else {
      out.add(r);
      x.outIndex = out.size() - 1;
      inOut.add(x);
    }
  }

  /**
   * SUSPEND the subjob running on v at its model position (D26: the event in progress is lost).
   * Returns the remainder piece (live, not placed; it keeps the flags), or null when nothing
   * remains. A subjob whose RUN is in the output being built is simply taken back.
   */
  final Subjob suspendRunning(SplitNode v) {
    Subjob y = v.running;
    if (y == null || y.frozen()) {
      throw new IllegalStateException("cannot suspend on " + v.id);
    }
    if (y.outIndex >= 0) { // never reached the agent: the whole range is the remainder
      out.set(y.outIndex, null);
      y.outIndex = -1;
      unassign(y);
      y.dispatch = Double.NaN;
      y.segments = List.of();
      return y;
    }
    long p = pos(y);
    materialiseUpTo(y, p);
    out.add(new SplitCommand.Suspend(v.id, y.id, p));
    unassign(y);
    y.stop = new Subjob.Stop(true, p, y.end);
    y.stoppedOn = v;
    live.remove(y.id);
    stopped.put(y.id, y);
    if (p >= y.end) {
      return null;
    }
    Subjob r = newPiece(y.job, p, y.end);
    r.copyFlags(y);
    r.awaitsAck = y.id;
    return r;
  }

  /**
   * SHRINK the subjob running on u to end at {@code newEnd} (lossless); returns the tail piece
   * [newEnd, old end) (live, not placed).
   */
  final Subjob shrinkRunning(SplitNode u, long newEnd) {
    Subjob y = u.running;
    if (y == null || y.stop != null || (y.awaitsAck != null && y.outIndex < 0)) {
      throw new IllegalStateException("cannot shrink on " + u.id);
    }
    if (newEnd < pos(y) || newEnd >= y.end) {
      throw new IllegalStateException("cannot shrink " + y + " at " + pos(y) + " to " + newEnd);
    }
    long oldEnd = y.end;
    Subjob tail = newPiece(y.job, newEnd, oldEnd);
    tail.copyFlags(y);
    if (y.outIndex >= 0) { // not seen by the agent yet: rewrite its RUN
      y.end = newEnd;
      pin(y);
      emitRun(y, y.held() ? y.awaitsAck : null);
      tail.awaitsAck = y.awaitsAck;
      return tail;
    }
    out.add(new SplitCommand.Shrink(u.id, y.id, newEnd));
    y.stop = new Subjob.Stop(false, newEnd, oldEnd);
    y.end = newEnd;
    pin(y);
    tail.awaitsAck = y.id;
    return tail;
  }

  private boolean pending(String stoppedId) {
    if (stopped.containsKey(stoppedId)) {
      return true;
    }
    Subjob s = live.get(stoppedId);
    return s != null && s.stop != null;
  }

  private void pin(Subjob x) {
    if (params.caching()) {
      x.node.cache.pin(x.start, x.end);
    }
  }

  /** Takes x off its node (the node becomes idle). */
  private void unassign(Subjob x) {
    SplitNode v = x.node;
    if (v != null) {
      v.running = null;
      v.cache.unpin();
      x.node = null;
      x.job.active--;
    }
  }

  private void ack(String id, long a) {
    Subjob y = stopped.get(id);
    if (y == null) {
      y = live.get(id);
      if (y == null || y.stop == null) {
        return; // duplicate or unknown
      }
    }
    Subjob.Stop s = y.stop;
    long lo = s.suspend() ? y.start : s.modelPos();
    if (a < lo || a > s.originalEnd()) {
      throw new IllegalArgumentException("acknowledgement of " + (s.suspend() ? "SUSPEND" : "SHRINK")
          + " of " + id + " at " + a + " is outside [" + lo + ", " + s.originalEnd() + "]"
          + (s.suspend() ? "" : " (a shrink cannot go back before the requested end)"));
    }
    long m = s.modelPos();
    boolean refill = false;
    List<Subjob> ds = new ArrayList<>();
    for (Subjob d : live.values()) {
      if (id.equals(d.awaitsAck)) {
        ds.add(d);
      }
    }
    ds.sort(Comparator.comparingLong(d -> d.start));
    if (s.suspend()) {
      if (a > m) {
        if (y.stoppedOn != null) {
          cacheOf(y.stoppedOn);
          materialiseOn(y, y.stoppedOn, y.materialised, a);
        }
        y.materialised = Math.max(y.materialised, a);
      } else if (a < m) {
        if (y.stoppedOn != null) {
          cacheOf(y.stoppedOn);
          uncache(y, y.stoppedOn, a, Math.min(m, y.materialised));
        }
        y.materialised = Math.min(y.materialised, a);
      }
    } else {
      y.end = a;
      if (y.node != null) {
        pin(y);
      }
    }
    if (a > m) {
      for (Subjob d : ds) {
        if (d.start < a) {
          if (Math.min(a, d.end) >= d.end) {
            drop(d);
          } else {
            setRange(d, a, d.end);
          }
        }
      }
    } else if (a < m) {
      Subjob head = null;
      for (Subjob d : ds) {
        if (d.start == m) {
          head = d;
        }
      }
      if (head != null) {
        setRange(head, a, head.end);
      } else {
        Subjob r = newPiece(y.job, a, m);
        r.copyFlags(y);
        requeue(r);
        refill = true;
      }
    }
    y.stop = null;
    if (s.suspend()) {
      y.stoppedOn = null;
      stopped.remove(id);
      credit(y, a);
    }
    for (Subjob d : ds) {
      if (d.dead) {
        continue;
      }
      d.awaitsAck = null;
      if (d.node != null) {
        pin(d);
        if (d.held()) {
          release(d);
        }
      }
    }
    if (s.suspend() && y.job.finished() && jobs.containsKey(y.job.id)) {
      complete(y.job);
    }
    if (refill) {
      fillIdle();
    }
  }

  private void release(Subjob d) {
    EventSpan was = d.segments.isEmpty() ? null
        : new EventSpan(d.segments.get(0).range().start(),
            d.segments.get(d.segments.size() - 1).range().end());
    if (was == null || was.start() != d.start || was.end() != d.end) {
      d.segments = segmentsFor(d.node, d.start, d.end, false, d.job);
    }
    d.dispatch = now;
    d.materialised = d.start;
    if (Double.isNaN(d.job.firstStart)) {
      d.job.firstStart = now;
    }
    emitRun(d, null);
  }

  private void drop(Subjob d) {
    d.dead = true;
    live.remove(d.id);
    if (d.queue != null) {
      d.queue.remove(d);
    }
    if (d.node != null) {
      SplitNode v = d.node;
      if (d.outIndex >= 0) {
        out.set(d.outIndex, null);
      }
      unassign(d);
      freed.add(v);
    }
  }

  private void complete(JobState k) {
    jobs.remove(k.id);
    finished.add(k.outcome());
    jobFinished(k);
  }

  /** Counts [x.start, upTo) as processed by x. */
  private void credit(Subjob x, long upTo) {
    if (upTo <= x.start) {
      return;
    }
    JobState j = x.job;
    for (CostSegment s : x.segments) {
      long a = Math.max(x.start, s.range().start());
      long b = Math.min(upTo, s.range().end());
      if (a < b) {
        switch (s.source()) {
          case LOCAL -> j.local += b - a;
          case REMOTE -> j.remote += b - a;
          case TAPE -> j.tape += b - a;
          default -> throw new IllegalStateException();
        }
      }
    }
    j.done += upTo - x.start;
    j.subjobsRun++;
    j.lastEnd = now;
    if (j.done > j.events.length()) {
      throw new IllegalStateException("job " + j.id + " processed more events than it has");
    }
  }

  // ===================================================================== splitting

  /** SPLIT_BY_CACHE of [s, e) with this pool's caches (holder: smallest backlog, lowest id). */
  final List<Pieces.Piece> splitByCache(EventSpan r) {
    if (!params.caching()) {
      return List.of(new Pieces.Piece(r, null));
    }
    CoverageIndex idx = coverageAll();
    Map<String, Double> backlogs = new java.util.HashMap<>(); // nothing changes during the cut
    return Pieces.splitByCache(r, idx, holders -> chooseHolder(holders, backlogs), min);
  }

  /**
   * SPLIT_TIME_BALANCED([m, e)): the smallest x in [m + MIN, e − MIN] with W_a + head(x) ≥ W_b +
   * tail(x), where head(x) is a's cost of [m, x) and tail(x) is b's cost of [x, e); −1 when
   * m + MIN > e − MIN or no such x exists (b could not finish before a even with MIN events, so
   * the split gains nothing).
   */
  public static long splitTimeBalanced(long m, long e, long min,
      java.util.function.LongToDoubleFunction head, java.util.function.LongToDoubleFunction tail,
      double wa, double wb) {
    long lo = m + min;
    long hi = e - min;
    if (lo > hi) {
      return -1;
    }
    if (wa + head.applyAsDouble(hi) < wb + tail.applyAsDouble(hi)) {
      return -1;
    }
    while (lo < hi) {
      long mid = lo + (hi - lo) / 2;
      if (wa + head.applyAsDouble(mid) >= wb + tail.applyAsDouble(mid)) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  /** SPLIT_TIME_BALANCED of the remaining part of y (running on its node, W_a = 0) toward b. */
  final long splitRunningBalanced(Subjob y, SplitNode b) {
    long m = pos(y);
    long e = y.end;
    return splitTimeBalanced(m, e, min, x -> runningCost(y, m, x), x -> costOn(b, x, e), 0, 0);
  }

  // ===================================================================== progress and costs

  /** pos(t): the first unprocessed event of a running subjob at {@code now} (§1.3). */
  final long pos(Subjob x) {
    if (x.held() || x.node == null) {
      return x.start;
    }
    double elapsed = now - x.dispatch + EPS;
    double acc = 0;
    for (CostSegment s : x.segments) {
      long a = Math.max(x.start, s.range().start());
      long b = Math.min(x.end, s.range().end());
      if (a >= b) {
        continue;
      }
      double c = (b - a) * s.secondsPerEvent();
      if (acc + c <= elapsed) {
        acc += c;
        continue;
      }
      long k = (long) Math.floor((elapsed - acc) / s.secondsPerEvent());
      return a + Math.max(0, Math.min(k, b - a));
    }
    return x.end;
  }

  /** Remaining events of a running subjob. */
  final long remainingEvents(Subjob x) {
    return x.end - pos(x);
  }

  /** Seconds until a running subjob ends (its full cost while held). */
  final double remainingTime(Subjob x) {
    double total = CostSegment.cost(x.segments, x.start, x.end);
    if (x.held()) {
      return total;
    }
    return Math.max(0, x.dispatch + total - now);
  }

  /** COST of [a, b) of a running subjob at its dispatch-time costs. */
  static double runningCost(Subjob x, long a, long b) {
    return CostSegment.cost(x.segments, a, b);
  }

  /** COST(v, [s, e)) under the current caches (queued pieces, candidates). */
  final double costOn(SplitNode v, long s, long e) {
    if (s >= e) {
      return 0;
    }
    if (!params.caching()) {
      return (e - s) * costs.cMiss();
    }
    double sum = 0;
    long pos = s;
    for (EventSpan c : cacheOf(v).cachedParts(s, e)) {
      if (c.start() > pos) {
        sum += gapCost(v, pos, c.start());
      }
      sum += c.length() * costs.cHit();
      pos = c.end();
    }
    if (pos < e) {
      sum += gapCost(v, pos, e);
    }
    return sum;
  }

  /** Σ COST(u, x) over u's private queue under the current caches. */
  final double queuedCost(SplitNode u) {
    if (u.queueCosts != null && !params.replication()) {
      return u.queueCosts.sum(costs);
    }
    double b = 0; // remote costs depend on every cache: recompute
    for (Subjob x : u.queue) {
      b += costOn(u, x.start, x.end);
    }
    return b;
  }

  /** Whether private queues track their total cost (policies that use backlog). */
  protected boolean tracksQueueCosts() {
    return false;
  }

  /** Changes a subjob's range, keeping the index of the queue it is in consistent. */
  final void setRange(Subjob x, long start, long end) {
    SubjobQueue q = x.queue;
    if (q != null) {
      q.unindex(x);
    }
    x.start = start;
    x.end = end;
    if (q != null) {
      q.reindex(x);
    }
  }

  private double gapCost(SplitNode v, long s, long e) {
    if (!params.replication()) {
      return (e - s) * costs.cMiss();
    }
    double sum = 0;
    for (CoverageIndex.Segment seg : coverageAll().segments(s, e)) {
      sum += seg.range().length() * (seg.holders().isEmpty() ? costs.cMiss() : costs.cRemote());
    }
    return sum;
  }

  /** Holder choice where several nodes cache a range: smallest backlog, tie lowest id. */
  final String chooseHolder(List<String> holders) {
    return chooseHolder(holders, new java.util.HashMap<>());
  }

  private String chooseHolder(List<String> holders, Map<String, Double> memo) {
    String best = null;
    double bestBacklog = Double.POSITIVE_INFINITY;
    for (String h : holders) {
      SplitNode u = nodes.get(h);
      double b = u == null ? Double.POSITIVE_INFINITY
          : memo.computeIfAbsent(h, k -> backlog(u));
      if (best == null || b < bestBacklog) {
        best = h;
        bestBacklog = b;
      }
    }
    return best;
  }

  /**
   * The per-event cost segments of [s, e) on v: LOCAL where v caches, REMOTE where another node
   * does (replication variant), TAPE elsewhere. With {@code countAccess}, remote reads count
   * toward third-remote-access replication (once per subjob) and replicated parts are marked to be
   * cached.
   */
  final List<CostSegment> segmentsFor(SplitNode v, long s, long e, boolean countAccess,
      JobState j) {
    List<CostSegment> raw = new ArrayList<>();
    if (!params.caching()) {
      raw.add(new CostSegment(new EventSpan(s, e), Source.TAPE, null, costs.cMiss(), false));
      return raw;
    }
    long pos = s;
    for (EventSpan c : cacheOf(v).cachedParts(s, e)) {
      if (c.start() > pos) {
        gapSegments(v, pos, c.start(), raw);
      }
      raw.add(new CostSegment(c, Source.LOCAL, null, costs.cHit(), false));
      pos = c.end();
    }
    if (pos < e) {
      gapSegments(v, pos, e, raw);
    }
    if (countAccess && params.replication()) {
      raw = replicate(raw, j);
    }
    return joined(raw);
  }

  private void gapSegments(SplitNode v, long s, long e, List<CostSegment> raw) {
    if (!params.replication()) {
      raw.add(new CostSegment(new EventSpan(s, e), Source.TAPE, null, costs.cMiss(), true));
      return;
    }
    for (CoverageIndex.Segment seg : coverageAll().segments(s, e)) {
      if (seg.holders().isEmpty()) {
        raw.add(new CostSegment(seg.range(), Source.TAPE, null, costs.cMiss(), true));
      } else {
        raw.add(new CostSegment(seg.range(), Source.REMOTE, chooseHolder(seg.holders()),
            costs.cRemote(), false));
      }
    }
  }

  /** §3.2: counts this subjob's remote reads per owner; marks the parts that replicate. */
  private List<CostSegment> replicate(List<CostSegment> raw, JobState j) {
    Map<String, List<EventSpan>> byPeer = new TreeMap<>(Ids.ORDER);
    for (CostSegment c : raw) {
      if (c.source() == Source.REMOTE) {
        byPeer.computeIfAbsent(c.peer(), k -> new ArrayList<>()).add(c.range());
      }
    }
    if (byPeer.isEmpty()) {
      return raw;
    }
    List<EventSpan> copy = new ArrayList<>();
    for (Map.Entry<String, List<EventSpan>> e : byPeer.entrySet()) {
      copy.addAll(cacheOf(nodes.get(e.getKey())).remoteAccess(joinRanges(e.getValue()),
          params.replicationThreshold()));
    }
    if (copy.isEmpty()) {
      return raw;
    }
    replications++;
    j.replicated = true;
    copy.sort(null);
    List<CostSegment> outSegs = new ArrayList<>();
    for (CostSegment c : raw) {
      if (c.source() != Source.REMOTE) {
        outSegs.add(c);
        continue;
      }
      long p = c.range().start();
      for (EventSpan r : copy) {
        EventSpan in = r.intersection(c.range());
        if (in == null) {
          continue;
        }
        if (in.start() > p) {
          outSegs.add(new CostSegment(new EventSpan(p, in.start()), Source.REMOTE, c.peer(),
              c.secondsPerEvent(), false));
        }
        outSegs.add(new CostSegment(in, Source.REMOTE, c.peer(), c.secondsPerEvent(), true));
        p = in.end();
      }
      if (p < c.range().end()) {
        outSegs.add(new CostSegment(new EventSpan(p, c.range().end()), Source.REMOTE, c.peer(),
            c.secondsPerEvent(), false));
      }
    }
    return outSegs;
  }

  private static List<EventSpan> joinRanges(List<EventSpan> rs) {
    List<EventSpan> outR = new ArrayList<>();
    for (EventSpan r : rs) {
      if (!outR.isEmpty() && outR.get(outR.size() - 1).end() == r.start()) {
        EventSpan l = outR.remove(outR.size() - 1);
        outR.add(new EventSpan(l.start(), r.end()));
      } else {
        outR.add(r);
      }
    }
    return outR;
  }

  /** Joins neighbouring segments with equal source, peer, cost and caching. */
  private static List<CostSegment> joined(List<CostSegment> raw) {
    List<CostSegment> o = new ArrayList<>(raw.size());
    for (CostSegment c : raw) {
      if (!o.isEmpty()) {
        CostSegment l = o.get(o.size() - 1);
        if (l.range().end() == c.range().start() && l.source() == c.source()
            && Objects.equals(l.peer(), c.peer()) && l.secondsPerEvent() == c.secondsPerEvent()
            && l.cacheAfterRead() == c.cacheAfterRead()) {
          o.set(o.size() - 1, new CostSegment(new EventSpan(l.range().start(), c.range().end()),
              c.source(), c.peer(), c.secondsPerEvent(), c.cacheAfterRead()));
          continue;
        }
      }
      o.add(c);
    }
    return o;
  }

  private static List<CostSegment> clip(List<CostSegment> segs, long s, long e) {
    List<CostSegment> o = new ArrayList<>(segs.size());
    for (CostSegment c : segs) {
      long a = Math.max(s, c.range().start());
      long b = Math.min(e, c.range().end());
      if (a < b) {
        o.add(a == c.range().start() && b == c.range().end() ? c
            : new CostSegment(new EventSpan(a, b), c.source(), c.peer(), c.secondsPerEvent(),
                c.cacheAfterRead()));
      }
    }
    return o;
  }

  // ===================================================================== cache model

  /**
   * §1.3: before deciding, every running subjob's processed prefix is due in the caches. It is
   * applied when a cache is first read (cacheOf, coverageAll): a node's cache and LRU order change
   * only through its own subjob's reads until someone looks, so applying them later gives the same
   * state. The replication variant applies everything at once (remote reads touch other caches).
   */
  private void materialise() {
    if (!params.caching()) {
      return;
    }
    boolean eager = eagerMaterialisation || params.replication();
    for (SplitNode v : nodes.values()) {
      Subjob x = v.running;
      if (x != null && !x.held()) {
        v.dirty = true;
        if (eager) {
          cacheOf(v);
        }
      }
    }
  }

  final void materialiseUpTo(Subjob x, long p) {
    if (p > x.materialised && x.node != null) {
      materialiseOn(x, x.node, x.materialised, p);
    }
    x.materialised = Math.max(x.materialised, p);
  }

  /**
   * Applies the reads of x in [from, to) to the caches at {@code now}: the cached-on-read events
   * are inserted into v's cache, then the whole processed prefix [x.start, to) is touched on v (and
   * on the owners of remote reads). Touching the whole prefix, not only the new part, is how we
   * read §1.3's "touches its processed cached parts": a running subjob's processed range is then
   * one entry stamped with the latest materialisation, so the cache after the subjob (and its
   * LRU order) does not depend on how often progress was materialised (D7), and entries do not
   * fragment into one per decision.
   */
  private void materialiseOn(Subjob x, SplitNode v, long from, long to) {
    if (!params.caching() || from >= to) {
      return;
    }
    for (CostSegment s : x.segments) {
      long a = Math.max(from, s.range().start());
      long b = Math.min(to, s.range().end());
      if (a < b && s.cacheAfterRead() && s.source() != Source.LOCAL) {
        v.cache.insert(a, b, now);
      }
    }
    v.cache.touch(x.start, to, now);
    for (CostSegment s : x.segments) {
      if (s.source() == Source.REMOTE) {
        long a = Math.max(x.start, s.range().start());
        long b = Math.min(to, s.range().end());
        SplitNode owner = nodes.get(s.peer());
        if (a < b && owner != null) {
          owner.cache.touch(a, b, now);
        }
      }
    }
  }

  /** Undoes the insertion of x's events in [from, to) on v (an ack behind the model). */
  private void uncache(Subjob x, SplitNode v, long from, long to) {
    for (CostSegment s : x.segments) {
      long a = Math.max(from, s.range().start());
      long b = Math.min(to, s.range().end());
      if (a < b && s.cacheAfterRead()) {
        v.cache.remove(a, b);
      }
    }
  }

  // ===================================================================== snapshot

  /** The whole state as versioned bytes; equal states give equal bytes. */
  public final byte[] snapshot() {
    if (out != null) {
      throw new IllegalStateException("snapshot during a call");
    }
    try {
      ByteArrayOutputStream bos = new ByteArrayOutputStream();
      DataOutputStream o = new DataOutputStream(bos);
      o.writeInt(MAGIC);
      o.writeInt(VERSION);
      o.writeUTF(name());
      Map<String, String> pm = params.toMap();
      o.writeInt(pm.size());
      for (Map.Entry<String, String> e : pm.entrySet()) {
        o.writeUTF(e.getKey());
        o.writeUTF(e.getValue());
      }
      o.writeDouble(now);
      o.writeLong(jobSeq);
      o.writeLong(replications);
      o.writeInt(nodes.size());
      for (SplitNode v : nodes.values()) {
        o.writeUTF(v.id);
        List<RangeLru.Entry> es = v.cache.entries();
        o.writeInt(es.size());
        for (RangeLru.Entry e : es) {
          o.writeLong(e.range().start());
          o.writeLong(e.range().end());
          o.writeDouble(e.lastUse());
          o.writeInt(e.remoteCount());
        }
        EventSpan pin = v.cache.pinned();
        o.writeLong(pin == null ? -1 : pin.start());
        o.writeLong(pin == null ? -1 : pin.end());
      }
      o.writeInt(jobs.size());
      for (JobState j : jobs.values()) {
        writeJob(o, j);
      }
      writeSubjobs(o, live);
      writeSubjobs(o, stopped);
      for (SplitNode v : nodes.values()) {
        o.writeUTF(v.running == null ? "" : v.running.id);
        writeIds(o, v.queue);
      }
      for (JobState j : jobs.values()) {
        writeIds(o, j.suspended);
      }
      o.writeInt(finished.size());
      for (JobOutcome f : finished) {
        writeOutcome(o, f);
      }
      writeState(o);
      o.flush();
      return bos.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Replaces this (fresh) policy's state by a snapshot of a policy with the same parameters. */
  public final void restore(byte[] bytes) {
    if (!nodes.isEmpty() || !jobs.isEmpty() || now != 0) {
      throw new IllegalStateException("restore into a fresh policy only");
    }
    try {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
      if (in.readInt() != MAGIC) {
        throw new IllegalArgumentException("not a split-policy snapshot");
      }
      int version = in.readInt();
      if (version != VERSION) {
        throw new IllegalArgumentException("unsupported split-policy snapshot version " + version
            + "; this build reads version " + VERSION);
      }
      String n = in.readUTF();
      Map<String, String> pm = readParams(in);
      if (!n.equals(name()) || !pm.equals(params.toMap())) {
        throw new IllegalArgumentException("snapshot is of " + n + " " + pm
            + ", not of this policy " + name() + " " + params.toMap());
      }
      now = in.readDouble();
      jobSeq = in.readLong();
      replications = in.readLong();
      int nn = in.readInt();
      long[][] pins = new long[nn][];
      for (int i = 0; i < nn; i++) {
        SplitNode v = new SplitNode(in.readUTF(), params.caching() ? params.cacheEvents() : 0,
            tracksQueueCosts() ? this : null);
        v.cache.listener(index.listenerFor(v.id));
        int ne = in.readInt();
        for (int k = 0; k < ne; k++) {
          v.cache.restoreEntry(in.readLong(), in.readLong(), in.readDouble(), in.readInt());
        }
        long ps = in.readLong();
        long pe = in.readLong();
        if (ps >= 0) {
          v.cache.pin(ps, pe);
        }
        nodes.put(v.id, v);
      }
      int nj = in.readInt();
      for (int i = 0; i < nj; i++) {
        JobState j = readJob(in);
        jobs.put(j.id, j);
      }
      readSubjobs(in, live);
      readSubjobs(in, stopped);
      for (SplitNode v : nodes.values()) {
        String r = in.readUTF();
        if (!r.isEmpty()) {
          v.running = find(r);
          v.running.node = v;
        }
        for (Subjob x : readIds(in)) {
          v.queue.pushBack(x);
        }
      }
      for (JobState j : jobs.values()) {
        for (Subjob x : readIds(in)) {
          j.suspended.pushBack(x);
        }
      }
      int nf = in.readInt();
      for (int i = 0; i < nf; i++) {
        finished.add(readOutcome(in));
      }
      readState(in);
      if (in.available() != 0) {
        throw new IllegalArgumentException("trailing bytes in snapshot");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Map<String, String> readParams(DataInput in) throws IOException {
    int np = in.readInt();
    Map<String, String> pm = new TreeMap<>();
    for (int i = 0; i < np; i++) {
      pm.put(in.readUTF(), in.readUTF());
    }
    return pm;
  }

  /** The subjob with that id among the live and stopped ones (for policy state). */
  final Subjob find(String id) {
    Subjob x = live.get(id);
    if (x == null) {
      x = stopped.get(id);
    }
    if (x == null) {
      throw new IllegalArgumentException("snapshot refers to unknown subjob " + id);
    }
    return x;
  }

  final JobState job(String id) {
    JobState j = jobs.get(id);
    if (j == null) {
      throw new IllegalArgumentException("snapshot refers to unknown job " + id);
    }
    return j;
  }

  static void writeIds(DataOutput o, Iterable<Subjob> xs) throws IOException {
    List<String> ids = new ArrayList<>();
    for (Subjob x : xs) {
      ids.add(x.id);
    }
    o.writeInt(ids.size());
    for (String s : ids) {
      o.writeUTF(s);
    }
  }

  final List<Subjob> readIds(DataInput in) throws IOException {
    int n = in.readInt();
    List<Subjob> l = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      l.add(find(in.readUTF()));
    }
    return l;
  }

  private static void writeJob(DataOutput o, JobState j) throws IOException {
    o.writeUTF(j.id);
    o.writeLong(j.seq);
    o.writeLong(j.events.start());
    o.writeLong(j.events.end());
    o.writeDouble(j.arrival);
    o.writeDouble(j.released);
    o.writeDouble(j.firstStart);
    o.writeDouble(j.lastEnd);
    o.writeLong(j.done);
    o.writeLong(j.local);
    o.writeLong(j.remote);
    o.writeLong(j.tape);
    o.writeBoolean(j.priority);
    o.writeBoolean(j.replicated);
    o.writeInt(j.counter);
    o.writeInt(j.subjobsRun);
    o.writeInt(j.active);
  }

  private static JobState readJob(DataInput in) throws IOException {
    JobState j = new JobState(in.readUTF(), in.readLong(),
        new EventSpan(in.readLong(), in.readLong()), in.readDouble());
    j.released = in.readDouble();
    j.firstStart = in.readDouble();
    j.lastEnd = in.readDouble();
    j.done = in.readLong();
    j.local = in.readLong();
    j.remote = in.readLong();
    j.tape = in.readLong();
    j.priority = in.readBoolean();
    j.replicated = in.readBoolean();
    j.counter = in.readInt();
    j.subjobsRun = in.readInt();
    j.active = in.readInt();
    return j;
  }

  private static void writeSubjobs(DataOutput o, Map<String, Subjob> m) throws IOException {
    o.writeInt(m.size());
    for (Subjob x : m.values()) {
      o.writeUTF(x.id);
      o.writeUTF(x.job.id);
      o.writeLong(x.start);
      o.writeLong(x.end);
      o.writeDouble(x.dispatch);
      o.writeLong(x.materialised);
      o.writeBoolean(x.preemptible);
      o.writeBoolean(x.priority);
      writeNullable(o, x.origin);
      writeNullable(o, x.cachedOn);
      writeNullable(o, x.awaitsAck);
      o.writeBoolean(x.stop != null);
      if (x.stop != null) {
        o.writeBoolean(x.stop.suspend());
        o.writeLong(x.stop.modelPos());
        o.writeLong(x.stop.originalEnd());
      }
      writeNullable(o, x.stoppedOn == null ? null : x.stoppedOn.id);
      o.writeInt(x.segments.size());
      for (CostSegment s : x.segments) {
        o.writeLong(s.range().start());
        o.writeLong(s.range().end());
        o.writeByte(s.source().ordinal());
        writeNullable(o, s.peer());
        o.writeDouble(s.secondsPerEvent());
        o.writeBoolean(s.cacheAfterRead());
      }
    }
  }

  private void readSubjobs(DataInput in, Map<String, Subjob> m) throws IOException {
    int n = in.readInt();
    for (int i = 0; i < n; i++) {
      String id = in.readUTF();
      JobState j = job(in.readUTF());
      Subjob x = new Subjob(id, j, in.readLong(), in.readLong());
      x.dispatch = in.readDouble();
      x.materialised = in.readLong();
      x.preemptible = in.readBoolean();
      x.priority = in.readBoolean();
      x.origin = readNullable(in);
      x.cachedOn = readNullable(in);
      x.awaitsAck = readNullable(in);
      if (in.readBoolean()) {
        x.stop = new Subjob.Stop(in.readBoolean(), in.readLong(), in.readLong());
      }
      String so = readNullable(in);
      x.stoppedOn = so == null ? null : nodes.get(so);
      int ns = in.readInt();
      List<CostSegment> segs = new ArrayList<>(ns);
      for (int k = 0; k < ns; k++) {
        segs.add(new CostSegment(new EventSpan(in.readLong(), in.readLong()),
            Source.values()[in.readByte()], readNullable(in), in.readDouble(), in.readBoolean()));
      }
      x.segments = segs;
      m.put(id, x);
    }
  }

  private static void writeOutcome(DataOutput o, JobOutcome f) throws IOException {
    o.writeUTF(f.jobId());
    o.writeLong(f.events().start());
    o.writeLong(f.events().end());
    o.writeDouble(f.arrival());
    o.writeDouble(f.released());
    o.writeDouble(f.firstStart());
    o.writeDouble(f.end());
    o.writeLong(f.localEvents());
    o.writeLong(f.remoteEvents());
    o.writeLong(f.tapeEvents());
    o.writeBoolean(f.priority());
    o.writeBoolean(f.replicated());
    o.writeInt(f.subjobs());
  }

  private static JobOutcome readOutcome(DataInput in) throws IOException {
    return new JobOutcome(in.readUTF(), new EventSpan(in.readLong(), in.readLong()),
        in.readDouble(), in.readDouble(), in.readDouble(), in.readDouble(), in.readLong(),
        in.readLong(), in.readLong(), in.readBoolean(), in.readBoolean(), in.readInt());
  }

  static void writeNullable(DataOutput o, String s) throws IOException {
    o.writeBoolean(s != null);
    if (s != null) {
      o.writeUTF(s);
    }
  }

  static String readNullable(DataInput in) throws IOException {
    return in.readBoolean() ? in.readUTF() : null;
  }
}
