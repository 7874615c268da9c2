package io.locus.operators;

import io.locus.core.split.JobOutcome;
import io.locus.core.split.SplitCommand;
import io.locus.core.split.SplitEntries;
import io.locus.core.split.SplitJob;
import io.locus.core.split.SplitPolicies;
import io.locus.core.split.SplitPolicy;
import io.locus.schemas.CancelTask;
import io.locus.schemas.Decision;
import io.locus.schemas.EventRange;
import io.locus.schemas.JobCommand;
import io.locus.schemas.JobState;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.ShrinkTask;
import io.locus.schemas.SuspendTask;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.codec.DeadLetterCodes;
import io.locus.schemas.state.PoolMeta;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives one pool's split-policy core ({@link SplitPolicy}: FARM, JOB_SPLITTING,
 * CACHE_JOB_SPLITTING, OUT_OF_ORDER, DELAYED, ADAPTIVE_DELAY; spec cern-job-splitting) from the
 * pool's input records, and turns its commands into {@link Decision}s. Its state, and the core's
 * in parts, is kept in {@link SplitStore} entry by entry: an input writes only the entries it
 * changed (the core's through its journal), all at once when the input succeeded. The pool's
 * scalars (epoch, clock, decision sequence, counters) are in {@link PoolMeta}, which every input
 * gets.
 *
 * <h2>Mapping</h2>
 * <ul>
 *   <li>{@code JobSubmitted} with {@code events} → {@code onJobArrival}. One dataset per pool (the
 *       pool parameter {@code dataset}, else the first accepted job's). A job without events, of
 *       another dataset, or with the id of an unfinished job is rejected with a reason.</li>
 *   <li>{@code NodeReport} REGISTER → {@code addNode} (one slot; REGISTER of a node the pool has
 *       means nothing of the pool runs there any more, so it is {@code removeNode} then {@code
 *       addNode}: its subjob's unprocessed range is placed again as a new attempt), LEAVE and a
 *       lost node ({@link #onNodeLost}) → {@code removeNode},
 *       anything else only moves the clock.</li>
 *   <li>{@code TaskEvent} COMPLETED / FAILED → {@code onSubjobEnd} at {@code events.end} (FAILED
 *       without a range: nothing processed); REFUSED of the placement → {@code onSubjobEnd} at the
 *       subjob's start; SHRUNK / SUSPENDED (answering the last stop sent) → {@code
 *       acknowledgeStop} at {@code stopAt}. An event
 *       is applied only if it is about the attempt last placed, on its node, while the core still
 *       has that subjob on that node (or stopped there, awaiting the acknowledgement) and names
 *       the decision it answers (the placement; for SHRUNK / SUSPENDED the pending stop; for
 *       REFUSED either); anything else (a duplicate, an older attempt, an agent's answer to a
 *       decision of a dead attempt, a forged event) is rejected, dead letter {@code unknown-task}
 *       with the reason, unless it is one a replay explains (see "Reconciliation"). A STARTED
 *       that is stale is only counted.</li>
 *   <li>{@code JobCommand} CANCEL of an unfinished job → {@code cancelJob}; each CANCEL it
 *       returns → {@code CancelTask} of the attempt placed there (see {@link #onJobCommand}).</li>
 *   <li>RUN → {@code PlaceTask} (task id = subjob id, attempt = how often that subjob was placed
 *       before, decision id {@code pool/subjob/attempt}); a RUN the core holds ({@code awaitsAckOf})
 *       is not emitted: the acknowledgement returns its replacement. SHRINK → {@code ShrinkTask}
 *       ({@code pool/shrink/seq}), SUSPEND → {@code SuspendTask} ({@code pool/suspend/seq}), seq
 *       from {@link PoolMeta#getDecisionSeq()}.</li>
 * </ul>
 *
 * <h2>Reconciliation (PROTOCOL-12, "At-least-once safety")</h2>
 * After a restore in at-least-once mode the placements made since the checkpoint are made again
 * while their nodes' answers come back in another order. The events a replay explains are judged
 * by {@link SplitReplay} (its class comment has the rules); everything else is rejected as above.
 *
 * <h2>Time</h2>
 * The core's clock is the pool clock (largest event time seen), counted from the first event the
 * pool saw and divided by the {@code timeScale} parameter (wall seconds per model second, as the
 * agents' time scale), so the core's progress model matches agents that run each event at {@code
 * secondsPerEvent × timeScale}. After every input, {@code onTimer} fires while {@code nextTimerAt()}
 * has passed: timers are driven by input times only, never the wall clock.
 *
 * <p>A core call that throws (an acknowledgement outside the possible range, say) rejects the
 * input: its writes are dropped and the driver is rebuilt from the store.
 *
 * <p>The reconciliation rules live in {@link SplitReplay}, which reads and writes this driver's
 * store, core and output within the same input step (so it reaches them through the driver).
 * Why still ~800 lines: the routing of the four inputs and the cancel, the timers, the guarded
 * write-or-roll-back of each step, and the translation of the core's commands into decisions
 * (with the held-RUN protocol) all touch the same store and meta in one step. The next cut, if it
 * grows, is that translation ({@link #finish} and the decision builders) into its own class.
 */
public final class SplitPoolDriver implements PoolDriver {
  private static final Logger LOG = LoggerFactory.getLogger(SplitPoolDriver.class);
  /** Timer rounds after one input before the driver gives up (a core that never advances). */
  private static final int MAX_TIMER_ROUNDS = 10_000;

  final String pool;
  /** Replaced only by {@link #rollBack} (a core call that threw leaves the core unusable). */
  SplitPolicy core;
  /** Where the state and the finished job ids are kept; in memory unless {@link #attach}ed. */
  SplitStore store = SplitStore.inMemory();
  /** This input's writes to {@link #store}; the core's journal. */
  private SplitWrites writes;
  /** Replaced only by {@link #rollBack}, with the core. */
  SplitDriverState state;
  /** The pool's node registry (kept for a change of family), or null. */
  private io.locus.core.Scheduler roster;
  private final double timeScale;
  /** The pool's parameters as given (the core's, dataset and timeScale), for a rollback. */
  private Map<String, String> params = Map.of();
  /** Kept reports this input dropped ({@link #settle}), dead letters of the input's output. */
  final List<PoolOutput.Rejection> discarded = new ArrayList<>();
  /** Judges the task events a replay explains (class comment, "Reconciliation"). */
  private final SplitReplay replay = new SplitReplay(this);

  /**
   * What one core input produced.
   *
   * @param decisions to emit, in order
   * @param rejection why the input was not applied (a dead letter), or null
   * @param finished jobs whose last event was processed with this input
   */
  record Step(List<Decision> decisions, String rejection, List<JobOutcome> finished,
      String code) {
    Step(List<Decision> decisions, String rejection, List<JobOutcome> finished) {
      this(decisions, rejection, finished, DeadLetterCodes.REJECTED);
    }
  }

  private SplitPoolDriver(String pool, SplitPolicy core, double timeScale, String dataset) {
    this.pool = pool;
    this.core = core;
    this.timeScale = timeScale;
    this.state = new SplitDriverState(dataset);
    attach(store, null);
  }

  private static SplitPoolDriver build(String pool, String policy, Map<String, String> params) {
    SplitPoolParams.Parsed parsed = SplitPoolParams.parse(policy, params);
    SplitPoolDriver d = new SplitPoolDriver(pool, parsed.core(), parsed.timeScale(),
        parsed.dataset());
    d.params = params == null ? Map.of() : new TreeMap<>(params);
    return d;
  }

  /**
   * A fresh driver for the pool, with {@code nodes} already registered (idle, empty caches), its
   * state saved in an in-memory store until it is {@link #attach}ed to another.
   */
  public static SplitPoolDriver create(String pool, String policy, Map<String, String> params,
      Collection<String> nodes) throws Exception {
    SplitPoolDriver d = build(pool, policy, params);
    for (String n : nodes) {
      d.core.addNode(n, 0);
    }
    d.save();
    return d;
  }

  /**
   * A driver rebuilt from the state {@code store} holds for the pool, with the pool's policy and
   * parameters; it keeps its state there.
   */
  static SplitPoolDriver restore(String pool, String policy, Map<String, String> params,
      SplitStore store) throws Exception {
    SplitPoolDriver d = build(pool, policy, params);
    SplitDriverState own = SplitDriverState.load(store);
    SplitEntries core = SplitEntryCodec.load(store);
    if (own == null || core == null) {
      throw new IllegalStateException("no split-pool state is stored for pool " + pool);
    }
    d.core = SplitPolicies.restore(d.core.params(), core);
    d.state = own;
    return d.attach(store, null);
  }

  // ===================================================================== inputs

  /** A job arrival. */
  private Step applyJob(JobSubmitted job, PoolMeta meta) {
    String id = job.getJobId();
    EventRange ev = job.getEvents();
    if (ev == null) {
      return reject(meta, "job " + id + " has no event range: pool " + pool + " runs the split "
          + "policy " + core.name() + ", whose jobs are splittable=true with events={dataset, "
          + "start, end}");
    }
    String ds = ev.getDataset();
    if (state.dataset != null && !state.dataset.equals(ds)) {
      return reject(meta, "job " + id + " reads dataset '" + ds + "' but pool " + pool
          + " schedules dataset '" + state.dataset + "' (one dataset per split pool: its "
          + "parameter 'dataset', else the first job's)");
    }
    if (state.hasJob(id)) {
      return reject(meta, "duplicate job id " + id + ": a job with that id is still running in "
          + "pool " + pool);
    }
    SplitJob sj;
    try {
      sj = new SplitJob(id, new io.locus.core.split.EventSpan(ev.getStart(), ev.getEnd()));
    } catch (IllegalArgumentException e) {
      return reject(meta, e.getMessage());
    }
    double now = now(meta);
    List<SplitCommand> cmds = new ArrayList<>(core.onJobArrival(sj, now));
    state.dataset = ds;
    state.putJob(id, new SplitDriverState.JobInfo(job.getSubmitTimeMs(), job.getTemplate(),
        new ArrayList<>(job.getArgs())));
    return finish(cmds, meta, now);
  }

  /** A node report: registration, departure, or just a clock tick (heartbeat, cache report). */
  private Step applyNodeReport(NodeReport r, PoolMeta meta) {
    double now = now(meta);
    List<SplitCommand> cmds = new ArrayList<>();
    switch (r.getType()) {
      case REGISTER -> {
        if (core.nodeIds().contains(r.getNode())) {
          // REGISTER means nothing of this pool runs there (the agent started, or resynchronised
          // and cancelled its tasks): its subjob's unprocessed range goes back to the queue and
          // is placed again as a new attempt, as for a node that left.
          cmds.addAll(core.removeNode(r.getNode(), now));
        }
        cmds.addAll(core.addNode(r.getNode(), now));
      }
      case LEAVE -> {
        if (core.nodeIds().contains(r.getNode())) {
          cmds.addAll(core.removeNode(r.getNode(), now));
        }
      }
      default -> {
        // HEARTBEAT, CACHE_DELTA, CACHE_SNAPSHOT: the master's range caches are authoritative
        // (spec §9); agents stage no event data, so their file caches say nothing here.
      }
    }
    return finish(cmds, meta, now);
  }

  /** A task event of a placed subjob (or a stale one, ignored). */
  private Step applyTaskEvent(TaskEvent e, PoolMeta meta) {
    double now = now(meta);
    String id = e.getTaskId();
    SplitDriverState.RunInfo run = state.run(id);
    SplitPolicy.SubjobInfo info = core.subjob(id);
    String stale = SplitReplay.staleness(e, run, info);
    if (stale != null) {
      Step reconciled = replay.reconcile(e, run, info, meta, now);
      if (reconciled != null) {
        return reconciled;
      }
      state.staleEvents++;
      LOG.debug("pool {}: {} of {}#{} on {} ignored: {}", pool, e.getType(), id, e.getAttempt(),
          e.getNode(), stale);
      if (e.getType() == io.locus.schemas.TaskEventType.STARTED) {
        return finish(new ArrayList<>(), meta, now); // informational only
      }
      return unknownTask(meta, e, stale);
    }
    String place = Decisions.placementId(pool, id, run.attempt());
    if (e.getDecisionId() == null && e.getType() != io.locus.schemas.TaskEventType.STARTED) {
      state.staleEvents++;
      return unknownTask(meta, e, "no decision id (expected " + (e.getType()
          == io.locus.schemas.TaskEventType.SHRUNK || e.getType()
          == io.locus.schemas.TaskEventType.SUSPENDED ? run.stop() : place) + ")");
    }
    List<SplitCommand> cmds = new ArrayList<>();
    switch (e.getType()) {
      case STARTED -> {
        // nothing to do: the slot was taken at placement
      }
      case COMPLETED, FAILED -> {
        if (!e.getDecisionId().equals(place)) {
          state.staleEvents++;
          return unknownTask(meta, e, "decision id " + e.getDecisionId() + " is not the "
              + "placement of that attempt (" + place + ")");
        }
        long upTo;
        if (e.getEvents() != null) {
          boolean otherStart = e.getEvents().getStart() != info.range().start();
          if (e.getEpoch() < meta.getEpoch() && (otherStart
              || (e.getEvents().getEnd() > info.range().end() && !info.stopPending()))) {
            return replay.ranAnotherRange(e, info, meta, now);
          }
          if (otherStart) {
            return reject(meta, e.getType() + " of " + id + " reports events from "
                + e.getEvents().getStart() + " but the subjob starts at " + info.range().start());
          }
          upTo = e.getEvents().getEnd();
        } else {
          // A completion without its range: the whole (acknowledged) range; a failure: nothing.
          upTo = e.getType() == io.locus.schemas.TaskEventType.COMPLETED ? info.range().end()
              : info.range().start();
        }
        boolean cancelled = core.cancelling(jobOf(id)); // the answer to its CANCEL
        cmds.addAll(core.onSubjobEnd(e.getNode(), id, upTo, now));
        if (cancelled) {
          LOG.debug("pool {}: {} of {} of a cancelled job: its node is free", pool, e.getType(),
              id);
        } else if (e.getType() == io.locus.schemas.TaskEventType.COMPLETED) {
          meta.setCompletions(meta.getCompletions() + 1);
        } else {
          meta.setFailures(meta.getFailures() + 1);
        }
      }
      case REFUSED -> {
        if (!e.getDecisionId().equals(place)) {
          state.staleEvents++;
          if (!e.getDecisionId().equals(run.stop())) {
            return unknownTask(meta, e, "decision id " + e.getDecisionId() + " is neither the "
                + "placement of that attempt (" + place + ") nor its pending stop ("
                + run.stop() + ")");
          }
          // A refused shrink or suspend: the agent does not run that attempt. Its end (or the
          // placement's refusal) settles the stop, as the core takes an end as the acknowledgement.
          LOG.warn("pool {}: agent {} refused decision {} about {}: {}", pool, e.getNode(),
              e.getDecisionId(), id, e.getMessage());
          return finish(cmds, meta, now);
        }
        LOG.warn("pool {}: agent {} refused {}: {}", pool, e.getNode(), place, e.getMessage());
        boolean cancelled = core.cancelling(jobOf(id));
        cmds.addAll(core.onSubjobEnd(e.getNode(), id, info.range().start(), now));
        if (!cancelled) {
          meta.setFailures(meta.getFailures() + 1);
        }
      }
      case SHRUNK, SUSPENDED -> {
        if (e.getStopAt() == null) {
          return reject(meta, e.getType() + " of " + id + " has no stopAt");
        }
        boolean outside = !core.stopFits(id, e.getStopAt());
        boolean earlierStop = e.getType() == TaskEventType.SUSPENDED
            && e.getEpoch() < meta.getEpoch()
            && (e.getDecisionId().startsWith(pool + "/suspend/")
                || e.getDecisionId().startsWith(pool + "/shrink/"));
        if (outside && (e.getDecisionId().equals(run.stop()) || earlierStop)) {
          return replay.stoppedAnotherRange(e, info, run, meta, now);
        }
        if (!e.getDecisionId().equals(run.stop())) {
          if (earlierStop) {
            // The agent suspended this attempt for a stop sent before a restore: it runs no
            // more, and no answer to the stop of this epoch will come (stop decision ids are
            // sequence numbers, made again after a restore: the agent may have taken this
            // epoch's for a duplicate). So the attempt ends where it stopped, which also
            // acknowledges any stop pending for it.
            LOG.info("pool {}: {} attempt {} suspended at {} on {} for a stop of epoch {}; "
                + "ended there", pool, id, e.getAttempt(), e.getStopAt(), e.getNode(),
                e.getEpoch());
            state.acknowledgements++;
            cmds.addAll(core.onSubjobEnd(e.getNode(), id, e.getStopAt(), now));
            return finish(cmds, meta, now);
          }
          // Not the answer to the pending stop (a duplicate of an earlier one, or forged): the
          // current stop, if any, waits for its own.
          state.staleEvents++;
          return unknownTask(meta, e, "decision id " + e.getDecisionId() + " is not the pending "
              + "stop of that attempt (" + run.stop() + ")");
        }
        state.acknowledgements++;
        cmds.addAll(core.acknowledgeStop(id, e.getStopAt(), now));
      }
      default -> throw new IllegalArgumentException("unexpected task event type " + e.getType());
    }
    return finish(cmds, meta, now);
  }

  // ===================================================================== helpers of SplitReplay

  Decision cancel(PoolMeta meta, String node, String subjob, int attempt, String why) {
    LOG.info("pool {}: cancelling {} attempt {} on {}: {}", pool, subjob, attempt, node, why);
    return Decisions.sequenced(pool, meta, "cancel", node, CancelTask.newBuilder()
        .setTaskId(subjob).setAttempt(attempt).setReason(why).build());
  }

  static Step withFirst(List<Decision> first, Step o) {
    List<Decision> all = new ArrayList<>(first);
    all.addAll(o.decisions());
    return new Step(all, o.rejection(), o.finished(), o.code());
  }

  /** Only the clock moved (a control, or an input for the pool that touches nothing else). */
  private Step applyClock(PoolMeta meta) {
    return finish(new ArrayList<>(), meta, now(meta));
  }

  // ===================================================================== the pool driver

  /**
   * Keeps the state and finished ids in {@code store} from now on (the state the store holds is
   * this driver's: {@link #restore}d from it, or {@link #save}d to it next), and mirrors
   * registrations into {@code roster} (the pool's node registry, so a change of family keeps the
   * nodes).
   */
  SplitPoolDriver attach(SplitStore store, io.locus.core.Scheduler roster) {
    this.store = store;
    this.roster = roster;
    this.writes = new SplitWrites(store);
    core.journal(writes);
    state.writeTo(writes);
    return this;
  }

  @Override
  public PoolOutput onJob(JobSubmitted job, PoolMeta meta) throws Exception {
    boolean again = job.getEvents() != null && store.finished(job.getJobId());
    PoolOutput out = guarded(job, meta, () -> again ? reject(meta, "duplicate job id "
        + job.getJobId() + ": a job with that id already finished in pool " + pool)
        : applyJob(job, meta));
    if (out.rejections().isEmpty()) {
      // one status per split job; its subjobs are the pool's business (tasks counted at the end)
      out.statuses().add(0, JobStatuses.of(pool, meta, job.getJobId(), JobState.QUEUED)
          .setWorkflow(job.getWorkflow()).setPriority(job.getPriority())
          .setSubmitTimeMs(job.getSubmitTimeMs()).setReason("accepted")
          .setPendingCode(JobStatuses.pendingCode(false, roster == null ? List.of()
              : roster.state().nodes()))
          .build());
    }
    return out;
  }

  /**
   * CANCEL of a split job. An unfinished job leaves the core ({@link SplitPolicy#cancelJob}): its
   * queued, held and derived subjobs at once, each running subjob through a {@code CancelTask} to
   * its node (decision {@code pool/cancel/seq}, the attempt placed there), whose end then only
   * frees the node (counted neither as a completion nor as a failure); its status is CANCELLED
   * (tasks: its subjobs that ran plus those it had open, tasksDone: those that ran). Its id
   * counts as finished from then on (a second cancel: {@code job-finished}; a resubmission: a
   * duplicate). A finished or unknown job is refused as in file pools.
   */
  @Override
  public PoolOutput onJobCommand(JobCommand c, boolean arrived, PoolMeta meta) throws Exception {
    String id = c.getJobId();
    if (state.hasJob(id)) {
      return cancelJob(c, meta);
    }
    PoolOutput out = settle(applyClock(meta), meta);
    if (arrived || store.finished(id)) {
      return out.reject(DeadLetterCodes.JOB_FINISHED, "CANCEL of job '" + InputGate.shown(id)
          + "' refused: it already finished in pool " + pool);
    }
    return out.reject(DeadLetterCodes.UNKNOWN_JOB, "CANCEL of job '" + InputGate.shown(id)
        + "' refused: pool " + pool + " does not know it (never submitted, its id left the "
        + "retention window, or the cancel came before the job: send it again)");
  }

  private PoolOutput cancelJob(JobCommand c, PoolMeta meta) throws Exception {
    String id = c.getJobId();
    String why = c.getReason() == null || c.getReason().isEmpty() ? "cancelled by the user"
        : c.getReason();
    SplitPolicy.JobTasks tasks = core.jobTasks(id);
    long submitted = state.job(id).submitTimeMs();
    PoolOutput out = guarded(c, meta, () -> applyCancel(id, why, meta));
    if (!out.rejections().isEmpty()) {
      return out;
    }
    store.markFinished(id, meta.getClockMs());
    int run = tasks == null ? 0 : tasks.run();
    return out.status(JobStatuses.ended(JobStatuses.of(pool, meta, id, JobState.CANCELLED))
        .setReason(why).setRequestId(c.getRequestId()).setSubmitTimeMs(submitted)
        .setTasks(tasks == null ? 0 : run + tasks.open()).setTasksDone(run).build());
  }

  /** The core's cancel; its CANCELs become CancelTasks, ahead of what freed nodes take. */
  private Step applyCancel(String id, String why, PoolMeta meta) {
    double now = now(meta);
    List<Decision> cancels = new ArrayList<>();
    List<SplitCommand> cmds = new ArrayList<>();
    for (SplitCommand k : core.cancelJob(id, now)) {
      if (k instanceof SplitCommand.Cancel x) {
        SplitDriverState.RunInfo ri = placed(x.node(), x.subjobId());
        cancels.add(cancel(meta, x.node(), x.subjobId(), ri.attempt(), "job cancelled: " + why));
      } else {
        cmds.add(k);
      }
    }
    state.jobCancelled(id);
    return withFirst(cancels, finish(cmds, meta, now));
  }

  @Override
  public PoolOutput onTaskEvent(TaskEvent e, PoolMeta meta) throws Exception {
    return guarded(e, meta, () -> applyTaskEvent(e, meta));
  }

  /** A registration or departure is mirrored into the pool's node registry first. */
  @Override
  public PoolOutput onNodeReport(NodeReport r, PoolMeta meta) throws Exception {
    if (roster != null) {
      if (r.getType() == io.locus.schemas.NodeReportType.REGISTER) {
        roster.applyNodeRegistered(r.getNode(), Math.max(1, r.getSlots()),
            r.getCacheCapacityBytes(), r.getEndpoint(), Conversions.seconds(r.getTimeMs()));
      } else if (r.getType() == io.locus.schemas.NodeReportType.LEAVE) {
        roster.applyNodeReleased(r.getNode());
      }
    }
    return guarded(r, meta, () -> applyNodeReport(r, meta));
  }

  /** A lost node leaves like a LEAVE: its subjobs' unprocessed ranges go back to the queue. */
  @Override
  public PoolOutput onNodeLost(String node, PoolMeta meta) throws Exception {
    return onNodeReport(io.locus.schemas.NodeReport.newBuilder().setPool(pool).setNode(node)
        .setType(io.locus.schemas.NodeReportType.LEAVE).setTimeMs(meta.getClockMs()).build(),
        meta);
  }

  /** The control's time moved the clock: due timers fire. */
  @Override
  public PoolOutput afterControl(PoolMeta meta, boolean applied) throws Exception {
    return settle(applyClock(meta), meta);
  }

  @Override
  public String drain(String node, boolean draining) {
    return (draining ? "DRAIN_NODE" : "RESUME_NODE") + " is not supported by split pools (policy "
        + policy() + "): their nodes have one slot each and the policy decides alone what runs "
        + "there";
  }

  /**
   * A split policy is only replaced when the pool is idle (or by itself, a no-op): nothing is
   * queued to re-evaluate.
   */
  @Override
  public int reevaluate() {
    return 0;
  }

  @Override
  public String pauseProblem() {
    return "PAUSE_POOL is not supported by split pools (policy " + policy() + "): their core "
        + "places, shrinks and suspends subjobs as part of each event, so placements cannot be "
        + "held back without losing its schedule";
  }

  @Override
  public String busy() {
    int n = activeJobs();
    int k = core.cancellingJobs();
    return n + k == 0 ? null : "split pool " + pool + " has " + n + " unfinished job(s)"
        + (k == 0 ? "" : " and " + k + " cancelled job(s) whose subjobs have not stopped yet");
  }

  /**
   * One slot per node; a task is a subjob; bytes are events x eventBytes, counted when a job
   * finishes (the counters live in {@link PoolMeta}).
   */
  @Override
  public void metrics(io.locus.schemas.SchedulerMetrics.Builder b, PoolMeta m) {
    int running = running();
    b.setPolicy(policy())
        .setQueueLength(queued())
        .setRunningTasks(running)
        .setRegisteredNodes(nodeIds().size())
        .setTotalSlots(nodeIds().size())
        .setBusySlots(running)
        .setPlacements(m.getPlacements())
        .setCompletions(m.getCompletions())
        .setFailures(m.getFailures())
        .setBytesLocal(m.getBytesLocal())
        .setBytesPeer(m.getBytesPeer())
        .setBytesStorage(m.getBytesStorage())
        .setPendingByCode(PendingReason.counts(core.pending()));
  }

  /** The whole state to the store, in place of what it held for the pool. */
  void save() throws Exception {
    store.clear();
    writes.discard();
    state.writeAll();
    core.exportTo(writes);
    writes.flush();
  }

  private interface CoreCall {
    Step apply();
  }

  /**
   * Applies one input. A record the core cannot apply is rejected with the reason (a dead
   * letter): its writes are dropped and the driver is rebuilt from the store, so a bad record
   * never kills the job nor leaves half-applied state.
   */
  private PoolOutput guarded(Object input, PoolMeta meta, CoreCall call) throws Exception {
    Step o;
    try {
      o = call.apply();
    } catch (RuntimeException e) {
      LOG.warn("pool {}: split policy {} could not apply {}; state rolled back to the stored "
          + "one", pool, policy(), input, e);
      String policy = policy();
      discarded.clear();
      rollBack();
      return PoolOutput.rejected("split pool " + pool + " (" + policy
          + ") could not apply the record: " + e.getMessage());
    }
    return settle(o, meta);
  }

  private PoolOutput settle(Step o, PoolMeta meta) throws Exception {
    PoolOutput out = PoolOutput.of(o.decisions());
    if (o.rejection() != null) {
      out.reject(o.code(), o.rejection());
    }
    for (PoolOutput.Rejection d : discarded) {
      out.discard(d.code(), d.reason());
    }
    discarded.clear();
    for (JobOutcome f : o.finished()) {
      store.markFinished(f.jobId(), meta.getClockMs());
      out.status(JobStatuses.ended(JobStatuses.of(pool, meta, f.jobId(), JobState.COMPLETED))
          .setTasks(f.subjobs()).setTasksDone(f.subjobs()).build());
    }
    state.writeScalars();
    writes.flush();
    return out;
  }

  private void rollBack() throws Exception {
    writes.discard();
    SplitPoolDriver d = restore(pool, core.name(), params, store);
    core = d.core;
    state = d.state;
    writes = d.writes;
  }

  // ===================================================================== views

  public String policy() {
    return core.name();
  }

  public SplitPolicy core() {
    return core;
  }

  public String dataset() {
    return state.dataset;
  }

  public int activeJobs() {
    return core.activeJobs();
  }

  public List<String> nodeIds() {
    return core.nodeIds();
  }

  /** Subjobs running (placed and not held) now. */
  public int running() {
    int n = 0;
    for (String node : core.nodeIds()) {
      String x = core.runningOn(node);
      if (x != null && !core.subjob(x).held()) {
        n++;
      }
    }
    return n;
  }

  /** Queued subjobs plus jobs with no subjob yet (see {@link SplitPolicy#queuedWork}). */
  public int queued() {
    return core.queuedWork();
  }

  public long shrinks() {
    return state.shrinks;
  }

  public long suspends() {
    return state.suspends;
  }

  public long acknowledgements() {
    return state.acknowledgements;
  }

  public long staleEvents() {
    return state.staleEvents;
  }

  public long jobsFinished() {
    return state.jobsFinished;
  }

  // ===================================================================== internals

  /** The core's clock: model seconds since the pool's first event. */
  private double now(PoolMeta meta) {
    if (state.originMs < 0 && meta.getClockMs() > 0) {
      state.originMs = meta.getClockMs();
    }
    return state.originMs < 0 ? 0 : (meta.getClockMs() - state.originMs) / 1000.0 / timeScale;
  }

  Step reject(PoolMeta meta, String reason) {
    Step o = applyClock(meta);
    return new Step(o.decisions(), reason, o.finished());
  }

  /** A task event not about the attempt the pool has there: dead letter {@code unknown-task}. */
  Step unknownTask(PoolMeta meta, TaskEvent e, String why) {
    Step o = applyClock(meta);
    return new Step(o.decisions(), e.getType() + " of subjob " + e.getTaskId() + " attempt "
        + e.getAttempt() + " from node " + e.getNode() + " rejected: " + why, o.finished(),
        DeadLetterCodes.UNKNOWN_TASK);
  }

  /** Fires due timers, turns the commands into decisions and collects finished jobs. */
  Step finish(List<SplitCommand> cmds, PoolMeta meta, double now) {
    fireTimers(cmds, now);
    state.purgeReports(meta.getClockMs());
    List<Decision> out = new ArrayList<>(cmds.size());
    for (int i = 0; i < cmds.size(); i++) {
      SplitCommand c = cmds.get(i);
      if (c instanceof SplitCommand.Run r) {
        if (!r.held()) {
          SplitDriverState.Report rep = state.takeReport(r.subjobId(), meta.getClockMs());
          if (rep != null && replay.settle(r, rep, nextAttempt(r.subjobId()), meta, cmds, out, now)) {
            // the settled subjob's end may have made a timer due
            fireTimers(cmds, now);
            continue;
          }
          out.add(place(r, meta));
        }
      } else if (c instanceof SplitCommand.Shrink s) {
        state.shrinks++;
        SplitDriverState.RunInfo ri = placed(s.node(), s.subjobId());
        Decision d = other(meta, "shrink", s.node(), ShrinkTask.newBuilder()
            .setTaskId(s.subjobId()).setJobId(jobOf(s.subjobId())).setAttempt(ri.attempt())
            .setNewEnd(s.newEnd()).build());
        state.putRun(s.subjobId(), new SplitDriverState.RunInfo(ri.node(), ri.attempt(),
            d.getDecisionId()));
        out.add(d);
      } else if (c instanceof SplitCommand.Suspend s) {
        state.suspends++;
        SplitDriverState.RunInfo ri = placed(s.node(), s.subjobId());
        Decision d = other(meta, "suspend", s.node(), SuspendTask.newBuilder()
            .setTaskId(s.subjobId()).setJobId(jobOf(s.subjobId())).setAttempt(ri.attempt())
            .build());
        state.putRun(s.subjobId(), new SplitDriverState.RunInfo(ri.node(), ri.attempt(),
            d.getDecisionId()));
        out.add(d);
      } else {
        throw new IllegalStateException("policy " + core.name() + " sent " + c
            + " outside a job's cancel");
      }
    }
    state.forgetRuns(id -> core.subjob(id) == null);
    List<JobOutcome> finished = core.drainFinished();
    double eventBytes = core.params().eventBytes();
    for (JobOutcome f : finished) {
      state.jobFinished(f.jobId());
      meta.setBytesLocal(meta.getBytesLocal() + Math.round(f.localEvents() * eventBytes));
      meta.setBytesPeer(meta.getBytesPeer() + Math.round(f.remoteEvents() * eventBytes));
      meta.setBytesStorage(meta.getBytesStorage() + Math.round(f.tapeEvents() * eventBytes));
    }
    return new Step(out, null, finished);
  }

  /** Fires due timers, their commands appended to {@code cmds}. */
  private void fireTimers(List<SplitCommand> cmds, double now) {
    int rounds = 0;
    while (core.nextTimerAt() <= now) {
      if (++rounds > MAX_TIMER_ROUNDS) {
        throw new IllegalStateException("policy " + core.name() + " keeps its timer at "
            + core.nextTimerAt() + " <= " + now + " after " + MAX_TIMER_ROUNDS + " rounds");
      }
      cmds.addAll(core.onTimer(now));
    }
  }

  /** The attempt number the subjob's next placement gets. */
  private int nextAttempt(String subjob) {
    SplitDriverState.RunInfo prev = state.run(subjob);
    return prev == null ? 0 : prev.attempt() + 1;
  }

  private SplitDriverState.RunInfo placed(String node, String subjob) {
    SplitDriverState.RunInfo ri = state.run(subjob);
    if (ri == null || !ri.node().equals(node)) {
      throw new IllegalStateException("policy " + core.name() + " stops " + subjob + " on " + node
          + " which was not placed there (" + ri + ")");
    }
    return ri;
  }

  static String jobOf(String subjob) {
    int slash = subjob.lastIndexOf('/');
    return slash < 0 ? subjob : subjob.substring(0, slash);
  }

  private Decision place(SplitCommand.Run r, PoolMeta meta) {
    int attempt = nextAttempt(r.subjobId());
    state.putRun(r.subjobId(), new SplitDriverState.RunInfo(r.node(), attempt, null));
    meta.setPlacements(meta.getPlacements() + 1);
    PlaceTask p = SplitPlacement.of(r, attempt, state.job(r.jobId()), state.dataset, core.name(),
        core.params().eventBytes());
    return Decisions.placement(pool, meta, r.node(), p);
  }

  private Decision other(PoolMeta meta, String kind, String node, Object action) {
    return Decisions.sequenced(pool, meta, kind, node, action);
  }

  /** Split-pool counters for logs and tests. */
  public Map<String, Long> counters() {
    Map<String, Long> m = new HashMap<>();
    m.put("shrinks", state.shrinks);
    m.put("suspends", state.suspends);
    m.put("acknowledgements", state.acknowledgements);
    m.put("staleEvents", state.staleEvents);
    m.put("jobsFinished", state.jobsFinished);
    return m;
  }
}
