package io.locus.core.split;

import io.locus.core.model.Ids;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.LongToDoubleFunction;

/**
 * The split-policy core of the CERN spec (job splitting over event segments): one instance per
 * pool, driven by the simulator and by the streaming job through the same calls (spec §9). This
 * class is the facade: it checks and sequences the inputs; the pool state is {@link SplitState},
 * the progress and cost model {@link ProgressModel}, the acknowledgement protocol {@link
 * StopProtocol}, and each policy ({@link Farm}, {@link JobSplitting}, {@link CacheJobSplitting},
 * {@link OutOfOrder}, {@link Delayed}, {@link AdaptiveDelay}) a small class on {@link
 * PolicyHooks} that decides through {@link Primitives}. Create one with {@link SplitPolicies}.
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
 *   <li>{@link #cancelJob}: the job's queued, derived and held subjobs leave the pool at once;
 *       each running one gets a {@link SplitCommand.Cancel} and keeps its node until its end is
 *       reported, which then only frees the node (the data it read stays in the cache model;
 *       nothing is re-queued); the job never completes (see {@link JobCancel}).</li>
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
 * <h2>Determinism and state in parts</h2>
 * No wall clock, no randomness; every iteration order is fixed (nodes by {@link Ids#ORDER}, jobs
 * by arrival, subjob ids {@code jobId/k}). The state is a set of entries: the pool scalars, each
 * node, each cached range, each job, each subjob, and the policy's own memory ({@link
 * SplitJournal}). A journal ({@link #journal}) hears, at the end of each input, the entries that
 * input changed; {@link SplitPolicies#restore(SplitParams, SplitEntries)} rebuilds a policy from
 * entries in any order, and decisions continue identically. {@link #entries()} gives them all.
 */
public final class SplitPolicy {
  /**
   * Set by tests: apply every running subjob's progress to the caches at every input instead of
   * when a cache is read. Both give the same decisions (the lazy way only skips work nobody reads).
   */
  static boolean eagerMaterialisation;

  private final SplitParams params;
  final SplitState state;
  final ProgressModel model;
  final Primitives ops;
  final StopProtocol stops;
  final PolicyHooks hooks;
  private final CommandBuffer out = new CommandBuffer();

  SplitPolicy(SplitParams params, Function<Primitives, PolicyHooks> policy) {
    this.params = Objects.requireNonNull(params, "params");
    this.state = new SplitState(params);
    this.model = new ProgressModel(state);
    this.ops = new Primitives(state, model, out);
    this.stops = new StopProtocol(state, model, out, ops);
    this.hooks = policy.apply(ops);
    ops.wire(stops, hooks);
    model.queueBacklog(hooks.queueBacklog());
  }

  /** The canonical policy name (FARM, JOB_SPLITTING, …). */
  public String name() {
    return params.policy();
  }

  public SplitParams params() {
    return params;
  }

  // ===================================================================== inputs

  /** A node joins the pool, idle with an empty cache; returns the work it gets. */
  public List<SplitCommand> addNode(String id, double t) {
    return input(t, () -> {
      if (id == null || id.isEmpty() || state.nodes.containsKey(id)) {
        throw new IllegalArgumentException("node id missing or already in the pool: " + id);
      }
      hooks.nodeAvailable(ops.newNode(id));
    });
  }

  /**
   * A node leaves (lost or released). Its cache is forgotten; its running subjob is re-queued
   * whole (what the agent did since dispatch is unknown, so nothing of it is counted); its private
   * queue goes back to the policy.
   */
  public List<SplitCommand> removeNode(String id, double t) {
    return input(t, () -> {
      SplitNode v = state.nodes.get(id);
      if (v != null) {
        lose(v);
      }
    });
  }

  private void lose(SplitNode v) {
    Subjob x = v.running;
    if (x != null) {
      if (x.stop != null) {
        stops.ack(x.id, x.stop.modelPos());
      }
      if (x.job.cancelled) {
        JobCancel.lost(x, state, ops);
      } else {
        ops.unassign(x);
        x.materialised = x.start;
        x.dispatch = Double.NaN;
        hooks.requeue(x);
      }
    }
    for (Subjob s : new ArrayList<>(state.stopped.values())) {
      if (s.stoppedOn == v && s.job.cancelled) {
        // no acknowledgement will come from a node that left, and there is no range to correct
        state.stopped.remove(s.id);
        s.dead = true;
        state.changes.subjob(s);
        state.forgetIfDrained(s.job);
      } else if (s.stoppedOn == v) {
        s.stoppedOn = null; // its ack still corrects ranges; there is no cache to update
        state.changes.subjob(s);
      }
    }
    List<Subjob> orphans = v.queue.toList();
    for (Subjob s : orphans) {
      v.queue.remove(s);
    }
    v.cache.unpin();
    v.cache.clear();
    state.nodes.remove(v.id);
    state.changes.node(v);
    for (Subjob s : orphans) {
      hooks.requeue(s);
    }
    ops.fillIdle();
  }

  public List<SplitCommand> onJobArrival(SplitJob job, double t) {
    return input(t, () -> hooks.arrival(state.newJob(job)));
  }

  /**
   * The agent reports that {@code subjobId} on {@code node} stopped after processing [start,
   * processedUpTo). Unknown subjobs (duplicates) are ignored.
   */
  public List<SplitCommand> onSubjobEnd(String node, String subjobId, long processedUpTo,
      double t) {
    return input(t, () -> {
      Subjob x = state.live.get(subjobId);
      if (x == null) {
        if (state.stopped.containsKey(subjobId)) {
          stops.ack(subjobId, processedUpTo); // it ended before the SUSPEND reached it
        }
        stops.releaseFreed();
      } else {
        ended(x, node, processedUpTo);
      }
    });
  }

  private void ended(Subjob x, String node, long processedUpTo) {
    SplitNode v = x.node;
    if (v == null || !v.id.equals(node)) {
      throw new IllegalArgumentException("subjob " + x.id + " does not run on " + node
          + (v == null ? " (it is queued)" : " (it runs on " + v.id + ")"));
    }
    if (x.held()) {
      throw new IllegalStateException("subjob " + x.id + " ended but its RUN was still held "
          + "awaiting the acknowledgement of " + x.awaitsAck);
    }
    if (x.stop != null) { // the end is the shrink's acknowledgement (an earlier end: a failure)
      stops.ack(x.id, Math.max(processedUpTo, x.stop.modelPos()));
    }
    if (processedUpTo < x.start || processedUpTo > x.end) {
      throw new IllegalArgumentException("subjob " + x.id + " " + x.range()
          + " cannot have processed up to " + processedUpTo);
    }
    if (x.job.cancelled) {
      JobCancel.ended(x, processedUpTo, state, model, ops);
      stops.releaseFreed();
      return;
    }
    model.materialiseUpTo(x, processedUpTo);
    ops.credit(x, processedUpTo);
    ops.unassign(x);
    state.live.remove(x.id);
    state.changes.subjob(x);
    JobState k = x.job;
    boolean partial = processedUpTo < x.end;
    if (partial) {
      Subjob r = state.newPiece(k, processedUpTo, x.end);
      r.copyFlags(x);
      hooks.requeue(r);
    }
    boolean done = k.finished();
    if (done) {
      ops.complete(k);
    }
    hooks.subjobEnded(v, k, done);
    stops.releaseFreed();
    if (partial) {
      ops.fillIdle();
    }
  }

  /** The node has nothing to run. Ignored while the model has a subjob on it. */
  public List<SplitCommand> onNodeIdle(String node, double t) {
    return input(t, () -> {
      SplitNode v = state.nodes.get(node);
      if (v != null && v.idle()) {
        hooks.nodeAvailable(v);
      }
    });
  }

  public List<SplitCommand> onTimer(double t) {
    return input(t, () -> {
      hooks.timer();
      stops.releaseFreed();
    });
  }

  /** When {@link #onTimer} is next due; +∞ when no timer is pending. */
  public double nextTimerAt() {
    return hooks.timerAt();
  }

  /**
   * The agent's acknowledgement of a SUSPEND or SHRINK of {@code subjobId}: it stopped (or will
   * stop) at {@code actualPos}. Returns the released RUNs (replacing the held ones) and any new
   * decisions. See the class comment.
   */
  public List<SplitCommand> acknowledgeStop(String subjobId, long actualPos, double t) {
    return input(t, () -> {
      stops.ack(subjobId, actualPos);
      stops.releaseFreed();
    });
  }

  /**
   * CANCEL of the unfinished job {@code jobId}: returns a {@link SplitCommand.Cancel} for each of
   * its running subjobs (in subjob order) and the work that nodes freed by its held RUNs take.
   * See {@link JobCancel}. An unknown or finished job is refused (IllegalArgumentException).
   */
  public List<SplitCommand> cancelJob(String jobId, double t) {
    return input(t, () -> {
      JobState j = state.jobs.get(jobId);
      if (j == null) {
        throw new IllegalArgumentException("no unfinished job " + jobId + " in the pool"
            + (state.cancelled.containsKey(jobId) ? " (it was cancelled)" : ""));
      }
      JobCancel.cancel(j, state, ops, out);
      stops.releaseFreed();
    });
  }

  /** Jobs finished since the last call, in finishing order. */
  public List<JobOutcome> drainFinished() {
    List<JobOutcome> l = state.drainFinished();
    if (!l.isEmpty()) {
      state.changes.flush();
    }
    return l;
  }

  /** One input: opens the output at time t, runs the body, returns the commands in order. */
  private List<SplitCommand> input(double t, Runnable body) {
    begin(t);
    try {
      body.run();
    } catch (RuntimeException e) {
      out.abort();
      stops.abort();
      state.changes.flush(); // what changed stays changed: the journal follows the state
      throw e;
    }
    return finish();
  }

  void begin(double t) {
    if (out.isOpen()) {
      throw new IllegalStateException("re-entrant call");
    }
    if (!(t >= 0) || !Double.isFinite(t)) {
      throw new IllegalArgumentException("time must be finite and >= 0: " + t);
    }
    state.now = Math.max(state.now, t);
    out.open();
    model.materialise();
  }

  List<SplitCommand> finish() {
    List<SplitCommand> cmds = out.close();
    state.changes.flush();
    return cmds;
  }

  // ===================================================================== state in parts

  /**
   * From now on, {@code journal} hears every change of the state at the end of each input (and of
   * a {@link #drainFinished} that drained something), one entry per changed thing; null stops it.
   * It hears nothing of the state before: a driver starts from {@link #exportTo} or from the
   * entries it restored the policy from.
   */
  public void journal(SplitJournal journal) {
    if (out.isOpen()) {
      throw new IllegalStateException("journal attached during a call");
    }
    state.changes.attach(journal);
  }

  /** Writes the whole state to {@code journal}, as puts. */
  public void exportTo(SplitJournal journal) {
    Entries.export(this, journal);
  }

  /** The whole state as entries, sorted by key: equal states give equal entries. */
  public SplitEntries entries() {
    JournalReplica r = new JournalReplica();
    exportTo(r);
    return r.entries();
  }

  // ===================================================================== views

  public List<String> nodeIds() {
    return List.copyOf(state.nodes.keySet());
  }

  /** The node's cache (read it, do not change it). */
  public RangeLru cache(String node) {
    SplitNode v = state.nodes.get(node);
    if (v == null) {
      throw new IllegalArgumentException("no node " + node);
    }
    return v.cache;
  }

  public CoverageIndex coverage() {
    return state.index;
  }

  /** The subjob the model has on the node (running or held), or null. */
  public String runningOn(String node) {
    SplitNode v = state.nodes.get(node);
    return v == null || v.running == null ? null : v.running.id;
  }

  /**
   * Whether {@code jobId} was cancelled and some subjob of it still runs (its CANCEL not answered
   * yet) or awaits a stop acknowledgement: answers about it only free nodes.
   */
  public boolean cancelling(String jobId) {
    return state.cancelled.containsKey(jobId);
  }

  /** Cancelled jobs some subjob of which has not stopped yet ({@link #cancelling}). */
  public int cancellingJobs() {
    return state.cancelled.size();
  }

  /**
   * An unfinished job's subjobs: {@code run}, those that processed at least one of its events
   * (ended or stopped); {@code open}, those queued, running, held or stopped now. Null for an
   * unknown, finished or cancelled job.
   */
  public record JobTasks(int run, int open) {}

  public JobTasks jobTasks(String jobId) {
    JobState j = state.jobs.get(jobId);
    if (j == null) {
      return null;
    }
    int open = 0;
    for (Subjob x : state.live.values()) {
      open += x.job == j ? 1 : 0;
    }
    for (Subjob x : state.stopped.values()) {
      open += x.job == j ? 1 : 0;
    }
    return new JobTasks(j.subjobsRun, open);
  }

  /** Unfinished jobs. */
  public int activeJobs() {
    return state.jobs.size();
  }

  /** Subjobs waiting in any queue. */
  public int queuedSubjobs() {
    return state.queuedSubjobs();
  }

  /**
   * Waiting work, as a queue length: queued subjobs plus unfinished jobs that have no subjob at
   * all yet. FARM and JOB_SPLITTING (and delayed policies before their period ends) cut subjobs
   * only at dispatch, so their waiting jobs are not subjobs.
   */
  public int queuedWork() {
    return state.queuedWork();
  }

  /**
   * Pending reasons of the {@link #queuedWork()} units at the latest input's time (counts per
   * code, summing to queuedWork; see {@link SplitPending}). For the metrics timer: one pass over
   * the pool's subjobs and jobs.
   */
  public io.locus.core.policy.PendingExplainer.Summary pending() {
    return new SplitPending(this).summary();
  }

  /**
   * The pending reason of one queued unit: a queued subjob (by its id) or a job with no subjob
   * yet (by the job id); null when it is not queued (running, finished, unknown, or queued as
   * subjobs).
   */
  public io.locus.core.policy.Pending pending(String id) {
    return new SplitPending(this).of(id);
  }

  /**
   * When the policy releases an unfinished job for scheduling: the end of its period (delayed
   * policies) or its arrival; NaN for unknown or finished jobs.
   */
  public double releasedAt(String jobId) {
    JobState j = state.jobs.get(jobId);
    return j == null ? Double.NaN : j.released;
  }

  /** Replications triggered so far (third remote access). */
  public long replications() {
    return state.replications;
  }

  /** A read-only view of a subjob for tests and drivers. */
  public record SubjobInfo(String id, String jobId, EventSpan range, String node, boolean held,
      boolean stopPending, boolean preemptible, boolean priority, String awaitsAck) {}

  public SubjobInfo subjob(String id) {
    Subjob x = state.subjob(id);
    if (x == null) {
      return null;
    }
    return new SubjobInfo(x.id, x.job.id, x.range(), x.node == null ? null : x.node.id, x.held(),
        x.stop != null, x.preemptible, x.priority, x.awaitsAck);
  }

  /**
   * Whether an agent's stop of subjob {@code subjobId} at {@code at} is one this subjob, as the
   * core has it, can make: within the bounds {@link #acknowledgeStop} accepts while a stop is
   * pending (from the start for a suspend, from the requested end for a shrink, up to the range's
   * end before the stop), else within its range. False for a subjob the core does not know. The
   * driver asks before applying an acknowledgement: one that does not fit comes from a run of
   * another range under the same id (see the operator's SplitPoolDriver).
   */
  public boolean stopFits(String subjobId, long at) {
    Subjob x = state.live.get(subjobId);
    if (x == null) {
      x = state.stopped.get(subjobId);
    }
    if (x == null) {
      return false;
    }
    if (x.stop != null) {
      long lo = x.stop.suspend() ? x.start : x.stop.modelPos();
      return at >= lo && at <= x.stop.originalEnd();
    }
    return at >= x.start && at <= x.end;
  }

  /** Model position of the subjob running on the node at the latest input's time. */
  public long modelPosition(String node) {
    SplitNode v = state.nodes.get(node);
    return v == null || v.running == null ? -1 : model.pos(v.running);
  }

  /** SPLIT_TIME_BALANCED; see {@link Pieces#splitTimeBalanced}. */
  public static long splitTimeBalanced(long m, long e, long min, LongToDoubleFunction head,
      LongToDoubleFunction tail, double wa, double wb) {
    return Pieces.splitTimeBalanced(m, e, min, head, tail, wa, wb);
  }

  /** Replaces this (fresh) policy's state by entries of a policy with the same parameters. */
  void restore(SplitEntries entries) {
    Entries.restore(this, entries);
  }
}
