package io.locus.agent;

import io.locus.schemas.Decision;
import io.locus.schemas.EventRange;
import io.locus.schemas.FetchSource;
import io.locus.schemas.InputPlan;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.TaskEventType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the placed tasks of one agent through their phases ({@link AttemptRun}): stages each input
 * along the read path of spec §1.3 (own cache, then the hinted peer, then persistent storage),
 * computes, and ends each run with exactly one final event.
 *
 * <ul>
 *   <li>Every input of a run is pinned from STARTED to its end, so nothing it uses is evicted (not
 *       even a local hit read later in its sequence).
 *   <li>A fetched file is inserted in the cache (unless the plan says cache=false or it cannot fit:
 *       then it serves this run only). One CACHE_DELTA per run when its staging ends, holding its
 *       inserts and the evictions they caused; none when staging changed nothing. A run ended while
 *       staging sends what it changed so far.
 *   <li>A peer that no longer holds the file (the index is a hint, §3.4) sends the read to storage;
 *       a cached copy that vanished is forgotten and the input staged again.
 *   <li>Two runs needing the same missing file share one fetch ({@link SharedFetches}).
 *   <li>When a file task succeeds, its declared outputs enter the cache ({@link TaskOutputs}) and
 *       their CACHE_DELTA is sent before its COMPLETED (see {@code onComputed} for why).
 * </ul>
 *
 * <p>Guarded by the agent's monitor: the stager's and executor's callbacks take it (see
 * {@link AgentContext#locked}), and a callback whose step is no longer the run's current one is
 * stale and ignored.
 */
final class TaskRunner {
  private static final Logger LOG = LoggerFactory.getLogger(TaskRunner.class);

  private final AgentContext ctx;
  private final Stager stager;
  private final TaskExecutor executor;
  private final SharedFetches shared;
  private final RangeLedger ledger;
  private final Runnable onEnded;
  private final Map<String, AttemptRun> running = new LinkedHashMap<>();

  /** @param onEnded called after each run's final event (a drain may be done) */
  TaskRunner(AgentContext ctx, Stager stager, TaskExecutor executor, SharedFetches shared,
      RangeLedger ledger, Runnable onEnded) {
    this.ctx = ctx;
    this.stager = stager;
    this.executor = executor;
    this.shared = shared;
    this.ledger = ledger;
    this.onEnded = onEnded;
  }

  /** Whether this executor can run event-range tasks at all. */
  boolean runsEventRanges() {
    return executor.runsEventRanges();
  }

  /** Starts an admitted placement: STARTED, pins its inputs, stages the first one. */
  void start(Decision d, PlaceTask p) {
    AttemptRun t = new AttemptRun(d, p, ctx.clock.nowMs(), ctx.cache.openDelta());
    running.put(t.key, t);
    ctx.events.started(t);
    for (InputPlan in : t.inputs()) {
      ctx.cache.pin(in.getFileId());
    }
    stageNext(t);
  }

  AttemptRun get(String key) {
    return running.get(key);
  }

  boolean isRunning(String key) {
    return running.containsKey(key);
  }

  int count() {
    return running.size();
  }

  Set<String> keys() {
    return new LinkedHashSet<>(running.keySet());
  }

  // ---- STAGING ---------------------------------------------------------------------------------

  private void stageNext(AttemptRun t) {
    if (t.ended() || !ctx.live()) {
      return;
    }
    List<InputPlan> inputs = t.inputs();
    if (t.next >= inputs.size()) {
      compute(t);
      return;
    }
    InputPlan in = inputs.get(t.next);
    String f = in.getFileId();
    if (ctx.cache.contains(f)) {
      ctx.cache.touch(f);
      read(t, in, FetchSource.LOCAL, null);
      return;
    }
    if (shared.inProgress(f)) {
      // Wait for that read into the cache, then read the file locally.
      ctx.counters.sharedFetches++;
      t.step = null;
      shared.await(f, () -> stageNext(t));
      return;
    }
    if (in.getCache() && in.getBytes() <= ctx.cache.capacity()) {
      shared.begin(f);
      t.fetching = f;
    }
    String peer = in.getPeerNode();
    if (in.getSource() != FetchSource.STORAGE && peer != null && !peer.equals(ctx.nodeId())) {
      read(t, in, FetchSource.PEER, peer);
    } else {
      read(t, in, FetchSource.STORAGE, null);
    }
  }

  private void read(AttemptRun t, InputPlan in, FetchSource source, String peer) {
    RunStep step = new RunStep();
    t.step = step;
    StageRequest request = new StageRequest(ctx.nodeId(), in.getFileId(), in.getBytes(), source,
        peer, in.getLocation(), in.getChecksum());
    // The stager never calls back from inside fetch(), and the callback needs the monitor this
    // thread holds, so the handle is set before the callback can look at the step.
    step.handle = stager.fetch(request,
        outcome -> ctx.locked(() -> onRead(t, step, in, request, outcome)));
  }

  private void onRead(AttemptRun t, RunStep step, InputPlan in, StageRequest request,
      StageRequest.Outcome outcome) {
    if (t.ended() || t.step != step || !ctx.live()) {
      // Nobody will use what this read brought (the run ended meanwhile).
      ctx.cache.discard(request);
      return;
    }
    t.step = null;
    String f = in.getFileId();
    FetchSource source = request.source();
    switch (outcome) {
      case DONE -> {
        t.bytes.add(source, in.getBytes());
        ctx.counters.inputs.add(source, in.getBytes());
        if (source != FetchSource.LOCAL
            && !(in.getCache() && ctx.cache.insert(request, t.delta))) {
          ctx.cache.attach(t.key, request);
        }
        releaseFetch(t);
        t.next++;
        stageNext(t);
      }
      case NOT_FOUND -> {
        if (source == FetchSource.PEER) {
          // The index is a hint (§3.4): the peer lost the file since; read it from storage.
          ctx.counters.peerFallbacks++;
          LOG.debug("{}: peer {} no longer holds {}; reading storage", ctx.nodeId(),
              in.getPeerNode(), f);
          read(t, in, FetchSource.STORAGE, null);
        } else if (source == FetchSource.LOCAL) {
          // The cached copy vanished under us (a real disk): forget it and take the miss path.
          ctx.cache.remove(f, t.delta);
          stageNext(t);
        } else {
          abort(t, "storage has no " + f);
        }
      }
      case FAILED -> {
        String why = stager.failureReason(request);
        abort(t, "staging " + f + " from " + source + " failed"
            + (why == null ? "" : ": " + why));
      }
      default -> throw new IllegalStateException("unknown outcome " + outcome);
    }
  }

  /** Ends this run's role as the fetcher of a file and lets the runs waiting for it go on. */
  private void releaseFetch(AttemptRun t) {
    if (t.fetching != null) {
      String f = t.fetching;
      t.fetching = null;
      shared.end(f);
    }
  }

  // ---- COMPUTING -------------------------------------------------------------------------------

  private void compute(AttemptRun t) {
    ctx.reports.send(t.delta);
    t.computing();
    RunStep step = new RunStep();
    t.step = step;
    if (t.range != null) {
      RangeRun run = executor.executeRange(ctx.nodeId(), t.place, t.rangeEnd,
          r -> ctx.locked(() -> onComputed(t, step, r.exitCode(), r.message(), r.processedEnd(),
              List.of())));
      t.rangeRun = run;
      step.handle = run::suspend;
      return;
    }
    step.handle = executor.execute(ctx.nodeId(), t.place,
        r -> ctx.locked(() -> onComputed(t, step, r.exitCode(), r.message(), t.rangeStart(),
            r.outputs() != null ? r.outputs() : TaskOutputs.declared(ctx.nodeId(), t.place))));
  }

  /** @param outputs the task's outputs as written (a file task's; none for a range) */
  private void onComputed(AttemptRun t, RunStep step, int exitCode, String message,
      long processedEnd, List<StageRequest> outputs) {
    if (t.ended() || t.step != step || !ctx.live()) {
      TaskOutputs.discard(ctx, outputs);
      return;
    }
    t.step = null;
    t.rangeRun = null;
    if (exitCode == 0) {
      String note = outputs.isEmpty() ? null
          : TaskOutputs.cache(ctx, t.key, outputs, t.delta);
      // The outputs' CACHE_DELTA is sent first (node-reports), then COMPLETED (task-events), both
      // under this lock through the agent's one output, so one producer gets them in this order.
      // Why: a child may be submitted as soon as COMPLETED is read (the replayer acts on
      // task-events), and the scheduler should know the file is here by then to place the child
      // LOCAL or PEER; the reverse order would always leave a window. Kafka orders records within
      // a partition only, so across the two topics this is an order of sending, not of reading:
      // the delta is in the producer's buffer first and normally leaves in the same or an earlier
      // request, but a reader may still see COMPLETED first (the partitions' leaders differ, a
      // retry). Staged files are in the same position: their delta leaves when staging ends.
      // A child placed before the delta is read still runs: the agent reads its own cache first
      // whatever the plan says, a stale peer hint falls back to storage, and storage is the
      // authority (real agents stage outputs out to a writable file: storage).
      ctx.reports.send(t.delta);
      finish(t, TaskEventType.COMPLETED, 0, join(message, note), processedEnd, null);
    } else {
      TaskOutputs.discard(ctx, outputs);
      finish(t, TaskEventType.FAILED, exitCode,
          message != null ? message : "exit code " + exitCode, processedEnd, null);
    }
  }

  private static String join(String message, String note) {
    if (note == null) {
      return message;
    }
    return message == null ? note : message + "; " + note;
  }

  // ---- ENDED -----------------------------------------------------------------------------------

  /**
   * Stops a run's current step. For an event-range run computing, returns the first event not
   * processed (the run is suspended); otherwise the range start (nothing processed yet).
   */
  long stopStep(AttemptRun t) {
    long processedEnd = t.rangeStart();
    if (t.rangeRun != null) {
      processedEnd = t.rangeRun.suspend().stopAt();
      t.rangeRun = null;
    } else if (t.step != null) {
      t.step.handle.cancel();
    }
    t.step = null;
    return processedEnd;
  }

  /**
   * A preemption (CancelTask.preempt): a run still staging stops at once; a computing file task's
   * process gets SIGTERM, up to {@code grace} to exit, then SIGKILL ({@link Cancellable#stop}).
   * The run keeps its slot until its work is gone, then ends PREEMPTED: the scheduler re-queues
   * the task without counting a failure, and gives the slot to the queue that claimed it. An
   * event-range run is suspended (its processed range is reported, as a SUSPENDED would). A
   * second preemption of a run already stopping changes nothing (the first one's grace holds).
   */
  void preempt(AttemptRun t, Duration grace, String reason) {
    if (t.ended() || t.preempting) {
      return;
    }
    t.preempting = true;
    RunStep step = t.step;
    if (t.phase() != AttemptRun.Phase.COMPUTING || t.rangeRun != null || step == null) {
      long processedEnd = stopStep(t);
      endEarly(t, TaskEventType.PREEMPTED, NodeAgent.ABORTED_EXIT_CODE,
          preempted(reason, false), processedEnd, null);
      return;
    }
    step.handle.stop(grace, killed -> ctx.locked(() -> {
      if (t.ended() || t.step != step) {
        return; // ended otherwise meanwhile (a cancel, the agent's close): already reported
      }
      t.step = null;
      endEarly(t, TaskEventType.PREEMPTED, NodeAgent.ABORTED_EXIT_CODE,
          preempted(reason, killed), t.rangeStart(), null);
    }));
  }

  private static String preempted(String reason, boolean killed) {
    String how = killed ? "killed after its grace period" : "stopped";
    return reason == null || reason.isEmpty() ? how : how + ": " + reason;
  }

  /** Ends a run early (cancel, staging failure): stops its step, FAILED. */
  void abort(AttemptRun t, String message) {
    if (t.ended()) {
      return;
    }
    long processedEnd = stopStep(t);
    endEarly(t, TaskEventType.FAILED, NodeAgent.ABORTED_EXIT_CODE, message, processedEnd, null);
  }

  /**
   * Ends a run whose step is already stopped: the runs waiting for its fetch fetch the file
   * themselves, its partial cache changes are reported, then its final event.
   */
  void endEarly(AttemptRun t, TaskEventType type, int exitCode, String message, long processedEnd,
      Decision answered) {
    t.end();
    releaseFetch(t);
    ctx.reports.send(t.delta);
    finish(t, type, exitCode, message, processedEnd, answered);
  }

  /**
   * A ResyncNode: every run stops (its process too) and is forgotten without a task event; the
   * scheduler has re-queued them (it no longer believes they run here). Their cache changes stay
   * in the cache; the REGISTER snapshot that follows reports them.
   *
   * @return how many runs were dropped
   */
  int discardAll() {
    List<AttemptRun> all = new ArrayList<>(running.values());
    // Every run ends before any fetch is released: a released waiter that is one of these runs
    // then sees it ended and stages nothing (a replication waiting goes on).
    for (AttemptRun t : all) {
      stopStep(t);
      t.end();
      running.remove(t.key);
    }
    for (AttemptRun t : all) {
      releaseFetch(t);
      for (InputPlan in : t.inputs()) {
        ctx.cache.unpin(in.getFileId());
      }
      ctx.cache.closeDelta(t.delta);
      ctx.cache.released(t.key);
    }
    return all.size();
  }

  /** The agent stops: every run ends FAILED with {@code message}; nobody waits for fetches. */
  void stopAll(String message) {
    for (AttemptRun t : new ArrayList<>(running.values())) {
      long processedEnd = stopStep(t);
      t.end();
      t.fetching = null;
      ctx.reports.send(t.delta);
      finish(t, TaskEventType.FAILED, NodeAgent.ABORTED_EXIT_CODE, message, processedEnd, null);
    }
  }

  /**
   * Ends a run with its one final event.
   *
   * @param processedEnd event-range run: the first event not processed (ignored otherwise)
   * @param answered the SuspendTask that ended it; null when it ended otherwise
   */
  private void finish(AttemptRun t, TaskEventType type, int exitCode, String message,
      long processedEnd, Decision answered) {
    t.end();
    running.remove(t.key);
    for (InputPlan in : t.inputs()) {
      ctx.cache.unpin(in.getFileId());
    }
    ctx.cache.closeDelta(t.delta);
    ctx.cache.released(t.key);
    EventRange processed = t.range == null ? null : ledger.ended(t, processedEnd, type);
    ctx.events.ended(t, type, exitCode, message, processed, answered);
    onEnded.run();
  }
}
