package io.locus.agent;

import io.locus.core.cache.EvictionPolicies;
import io.locus.core.cache.NodeCache;
import io.locus.schemas.CachedFile;
import io.locus.schemas.CancelTask;
import io.locus.schemas.Decision;
import io.locus.schemas.EventRange;
import io.locus.schemas.EvictFiles;
import io.locus.schemas.FetchSource;
import io.locus.schemas.InputPlan;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.ReplicateFile;
import io.locus.schemas.ShrinkTask;
import io.locus.schemas.SuspendTask;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node's agent, independent of Kafka: it takes the decisions addressed to it, stages inputs along
 * the read path of spec §1.3 (own cache, then the hinted peer, then persistent storage), keeps its
 * cache within quota with pinned inputs (§3.1), runs the task, and reports task events and cache
 * changes (§3.4). How bytes move and how a task runs are behind {@link Stager} and
 * {@link TaskExecutor}, so the simulated mode and a real mode share this logic.
 *
 * <p><b>Threading.</b> Every entry point (decisions, stager and executor callbacks, heartbeats,
 * close) takes this agent's monitor, so the state is race-free whatever thread calls; outputs are
 * emitted under the lock, hence in order. {@link #holds} is lock-free (a concurrent mirror of the
 * cache's file set) so that a peer's stager can ask without taking this lock: two agents reading from
 * each other can never deadlock.
 *
 * <p><b>Protocol choices.</b>
 * <ul>
 *   <li>Decisions for another node or another pool are ignored (several pools may name nodes alike and
 *       share a decisions partition). Duplicates (same decision id within the last
 *       {@link AgentConfig#dedupeWindow()} ids) are dropped silently, before the epoch check, so a
 *       replayed stale decision is not refused twice.
 *   <li>A decision with an epoch older than the highest seen is refused. Only a PlaceTask gets a
 *       REFUSED task event: for EvictFiles, ReplicateFile and CancelTask a task event would read as
 *       "the placement failed", so those are logged and counted ({@link AgentStats#staleDecisions}).
 *   <li>A PlaceTask when every slot is busy is REFUSED with {@value #NO_FREE_SLOT}, not queued, so a
 *       scheduler that overbooks a node shows up. A second PlaceTask for an attempt already running
 *       is REFUSED with {@value #ALREADY_RUNNING}.
 *   <li>Every input of a task is pinned from STARTED to its end, so nothing the task uses is evicted
 *       (not even a local hit read later in the task's sequence).
 *   <li>One CACHE_DELTA per task after its staging, holding its inserts and the evictions they caused;
 *       a task whose staging changed nothing (all local hits, or cache=false) sends none, so deltas
 *       stay exactly the cache changes and their seq stays contiguous (1, 2, ... after REGISTER's 0).
 *       A task cancelled mid-staging sends what it changed so far. EvictFiles and ReplicateFile send
 *       their own delta at once.
 *   <li>EvictFiles removes unpinned files; a pinned one is refused: it stays, is logged and counted
 *       ({@link AgentStats#evictionsRefused}); no task event (there is no task to name).
 *   <li>Two tasks needing the same missing file share one fetch (spec D29): the second waits for the
 *       first and then reads it locally.
 *   <li>Times in task events are this agent's wall clock (scaled durations), not modelled seconds.
 *   <li>A {@link DecisionGuard} checks authenticity before deduplication and the epoch check (a forged
 *       decision leaves no trace), and content after them; see there. Every refusal is counted by
 *       kind ({@link #refusals()}).
 *   <li>{@link #drain()}: no new placements (REFUSED {@value #DRAINING}), heartbeats say
 *       draining=true, running tasks finish, then LEAVE. Cancel and evict decisions still apply.
 *   <li>The on-disk side of the cache follows the accounting through a {@link CacheStore}.
 * </ul>
 *
 * <p><b>Event-range tasks (issue 5, spec cern-job-splitting §1.3, §9).</b> A PlaceTask with
 * {@code events} is a subjob [start, end) of a dataset: after its inputs (usually none) are staged,
 * the executor processes its events in order ({@link TaskExecutor#executeRange}). Then:
 * <ul>
 *   <li>{@link ShrinkTask}: the task keeps going to {@code max(newEnd, end of the event or batch in
 *       progress)}, capped at its current end, and loses nothing. The agent acknowledges at once
 *       with SHRUNK, {@code stopAt} = that end, carrying the shrink's decision id and epoch; the
 *       task's COMPLETED then reports {@code events} = [start, stopAt). A shrink while the inputs
 *       are still staging cuts the range before it starts: {@code max(newEnd, start)}.
 *   <li>{@link SuspendTask}: the task stops now; the event (batch) in progress is lost. One
 *       SUSPENDED event ends the attempt, with {@code stopAt} = the first unprocessed event and
 *       {@code events} = [start, stopAt), carrying the suspend's decision id and epoch. Suspended
 *       while staging: stopAt = start.
 *   <li>A shrink or suspend of an attempt that already ended here (remembered for the last
 *       {@link AgentConfig#dedupeWindow()} attempts) is answered SHRUNK with {@code stopAt} = the
 *       end it reported, so the scheduler always gets an acknowledgement; also a suspend that
 *       arrives when every event is done and the completion is on its way. A shrink or suspend of
 *       an attempt unknown here, or of a task without a range, is REFUSED with the reason; so is
 *       one refused for its epoch or by the guard (unlike other non-placement actions, these name
 *       a task, and the scheduler waits for their answer).
 *   <li>COMPLETED, SUSPENDED and FAILED of an event-range task carry {@code events}, the range
 *       processed; {@link #processedRanges()} keeps them so tests can check every event was
 *       processed exactly once.
 * </ul>
 */
public final class NodeAgent implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(NodeAgent.class);

  public static final String NO_FREE_SLOT = "no free slot";
  public static final String ALREADY_RUNNING = "attempt already running";
  public static final String CANCELLED = "cancelled";
  public static final String AGENT_STOPPED = "agent stopped";
  public static final String DRAINING = Refusal.DRAINING;
  /** Exit code reported when the agent, not the task, ended the task (cancel, staging failure). */
  public static final int ABORTED_EXIT_CODE = -1;

  private enum State { NEW, STARTED, CLOSED }

  private final AgentConfig config;
  private final AgentScheduler scheduler;
  private final Stager stager;
  private final TaskExecutor executor;
  private final AgentOutput output;
  private final String endpoint;
  private final CacheStore store;
  private final DecisionGuard guard;
  private final NodeCache cache;
  private final Set<String> cachedView = ConcurrentHashMap.newKeySet();
  private final DecisionWindow seen;
  private final Map<String, RunningTask> running = new LinkedHashMap<>();
  /** File → continuations of tasks waiting for the one fetch of it in progress. */
  private final Map<String, List<Runnable>> inFlight = new HashMap<>();
  private final Set<Replication> replications = new LinkedHashSet<>();
  /** Event-range attempts that ended here, by key, oldest first: to answer a late shrink. */
  private final Map<String, Long> endedRanges;
  private final Deque<ProcessedRange> processed = new ArrayDeque<>();

  private State state = State.NEW;
  private long maxEpoch = Long.MIN_VALUE;
  private long seq;
  private Cancellable heartbeat = Cancellable.NONE;
  private boolean draining;
  private boolean closing;
  private final CompletableFuture<Void> left = new CompletableFuture<>();
  private final Map<String, Long> refusals = new TreeMap<>();

  private long tasksStarted;
  private long tasksCompleted;
  private long tasksFailed;
  private long tasksRefused;
  private long bytesLocal;
  private long bytesPeer;
  private long bytesStorage;
  private long peerFallbacks;
  private long sharedFetches;
  private long duplicateDecisions;
  private long staleDecisions;
  private long ignoredDecisions;
  private long filesEvictedOnRequest;
  private long evictionsRefused;
  private long replicatedBytes;
  private long tasksSuspended;
  private long shrinksAcknowledged;
  private long eventsProcessed;

  /** How many processed ranges {@link #processedRanges()} keeps (oldest dropped first). */
  public static final int PROCESSED_LOG = 100_000;

  /**
   * Events [start, end) of a dataset processed by one attempt of an event-range task.
   *
   * @param how COMPLETED, SUSPENDED or FAILED: the event that reported the range
   */
  public record ProcessedRange(String jobId, String taskId, int attempt, String dataset,
      long start, long end, TaskEventType how) {}

  /**
   * @param endpoint where peers fetch this node's cache (reported in REGISTER), or null
   */
  public NodeAgent(AgentConfig config, AgentScheduler scheduler, Stager stager,
      TaskExecutor executor, AgentOutput output, String endpoint) {
    this(config, scheduler, stager, executor, output, endpoint, CacheStore.NONE,
        DecisionGuard.ACCEPT_ALL);
  }

  /**
   * @param endpoint where peers fetch this node's cache (reported in every node report), or null
   * @param store the on-disk side of the cache ({@link CacheStore#NONE} when there are no bytes)
   * @param guard checks on each decision ({@link DecisionGuard#ACCEPT_ALL}: none)
   */
  public NodeAgent(AgentConfig config, AgentScheduler scheduler, Stager stager,
      TaskExecutor executor, AgentOutput output, String endpoint, CacheStore store,
      DecisionGuard guard) {
    this.store = Objects.requireNonNull(store, "store");
    this.guard = Objects.requireNonNull(guard, "guard");
    this.config = Objects.requireNonNull(config, "config");
    if (AgentConfig.TEMPLATE_NODE.equals(config.nodeId())) {
      throw new IllegalArgumentException("an agent needs a real node id, not the template's");
    }
    this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    this.stager = Objects.requireNonNull(stager, "stager");
    this.executor = Objects.requireNonNull(executor, "executor");
    this.output = Objects.requireNonNull(output, "output");
    this.endpoint = endpoint;
    this.cache = new NodeCache(config.cacheCapacityBytes(),
        EvictionPolicies.create(config.evictionPolicy(), config.evictionSeed()));
    this.seen = new DecisionWindow(config.dedupeWindow());
    int remembered = config.dedupeWindow();
    this.endedRanges = new LinkedHashMap<>() {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
        return size() > remembered;
      }
    };
  }

  public String nodeId() {
    return config.nodeId();
  }

  public AgentConfig config() {
    return config;
  }

  /** Whether this node's cache holds the file now. Lock-free: peers call it while staging. */
  public boolean holds(String fileId) {
    return cachedView.contains(fileId);
  }

  /**
   * Puts a file in the cache before {@link #start()} (a warm cache, e.g. after a restart with files on
   * disk). Announced by the CACHE_SNAPSHOT that follows REGISTER.
   */
  public synchronized void preload(String fileId, long bytes) {
    if (state != State.NEW) {
      throw new IllegalStateException("preload only before start()");
    }
    NodeCache.Insert r = cache.insert(fileId, bytes);
    for (String v : r.evicted()) {
      cachedView.remove(v);
      store.evicted(v);
    }
    if (r.cached()) {
      cachedView.add(fileId);
    } else {
      // Larger than the whole cache (e.g. the quota was lowered): it cannot stay.
      store.evicted(fileId);
    }
  }

  /** Registers (REGISTER, then CACHE_SNAPSHOT if the cache is not empty) and starts heartbeats. */
  public synchronized void start() {
    if (state != State.NEW) {
      throw new IllegalStateException("agent " + nodeId() + " already " + state);
    }
    state = State.STARTED;
    output.nodeReport(report(NodeReportType.REGISTER).build());
    if (cache.size() > 0) {
      // A snapshot resets the scheduler's view and its seq; deltas continue from it.
      List<CachedFile> all = new ArrayList<>();
      cache.contents().forEach((f, b) -> all.add(new CachedFile(f, b)));
      output.nodeReport(report(NodeReportType.CACHE_SNAPSHOT).setAdded(all).build());
    }
    heartbeat = scheduler.scheduleAtFixedRate(config.heartbeatMs() * 1_000_000L, this::heartbeat);
  }

  private synchronized void heartbeat() {
    if (state == State.STARTED) {
      // seq tells the scheduler which cache report was last sent, so it can spot a lost delta.
      output.nodeReport(report(NodeReportType.HEARTBEAT).build());
    }
  }

  /** Handles one decision read from the decisions topic. */
  public synchronized void onDecision(Decision d) {
    if (!nodeId().equals(d.getNode()) || !config.pool().equals(d.getPool())
        || state != State.STARTED) {
      ignoredDecisions++;
      LOG.debug("{}: ignoring decision {} for {}/{} (state {})", nodeId(), d.getDecisionId(),
          d.getPool(), d.getNode(), state);
      return;
    }
    Object action = d.getAction();
    Refusal forged = guard.verify(d);
    if (forged != null) {
      refuseDecision(d, forged.kind(), forged.message());
      return;
    }
    if (!seen.add(d.getDecisionId())) {
      duplicateDecisions++;
      LOG.debug("{}: duplicate decision {}", nodeId(), d.getDecisionId());
      return;
    }
    if (d.getEpoch() < maxEpoch) {
      staleDecisions++;
      refuseDecision(d, Refusal.STALE_EPOCH, "stale epoch " + d.getEpoch() + " < " + maxEpoch);
      return;
    }
    maxEpoch = d.getEpoch();
    Refusal unsafe = guard.admit(d);
    if (unsafe != null) {
      refuseDecision(d, unsafe.kind(), unsafe.message());
      return;
    }
    if (action instanceof PlaceTask p) {
      place(d, p);
    } else if (action instanceof EvictFiles e) {
      evict(d, e);
    } else if (action instanceof ReplicateFile r) {
      replicate(r);
    } else if (action instanceof CancelTask c) {
      cancel(c);
    } else if (action instanceof ShrinkTask sh) {
      shrink(d, sh);
    } else if (action instanceof SuspendTask su) {
      suspend(d, su);
    } else {
      ignoredDecisions++;
      LOG.warn("{}: unknown action {} in decision {}", nodeId(), action, d.getDecisionId());
    }
  }

  // ---- PlaceTask -------------------------------------------------------------------------------

  private void place(Decision d, PlaceTask p) {
    String key = taskKey(p.getTaskId(), p.getAttempt());
    if (draining) {
      LOG.info("{}: refusing {}: {}", nodeId(), key, DRAINING);
      refuse(d, p, Refusal.DRAINING, DRAINING);
      return;
    }
    if (running.containsKey(key)) {
      LOG.warn("{}: refusing {}: {}", nodeId(), key, ALREADY_RUNNING);
      refuse(d, p, Refusal.ALREADY_RUNNING, ALREADY_RUNNING);
      return;
    }
    if (running.size() >= config.slots()) {
      LOG.warn("{}: refusing {} (decision {}): {}", nodeId(), key, d.getDecisionId(),
          NO_FREE_SLOT);
      refuse(d, p, Refusal.NO_FREE_SLOT, NO_FREE_SLOT);
      return;
    }
    if (p.getEvents() != null) {
      String bad = EventRanges.problem(p);
      if (bad == null && !executor.runsEventRanges()) {
        bad = "this agent's executor does not run event ranges";
      }
      if (bad != null) {
        LOG.warn("{}: refusing {}: {}", nodeId(), key, bad);
        refuse(d, p, Refusal.BAD_INPUT, Refusal.of(Refusal.BAD_INPUT, bad).message());
        return;
      }
    }
    RunningTask t = new RunningTask(d, p, key, scheduler.nowMs());
    running.put(key, t);
    tasksStarted++;
    output.taskEvent(event(t, TaskEventType.STARTED).build());
    for (InputPlan in : p.getInputs()) {
      cache.pin(in.getFileId());
    }
    stageNext(t);
  }

  private void stageNext(RunningTask t) {
    if (t.finished || state != State.STARTED) {
      return;
    }
    List<InputPlan> inputs = t.place.getInputs();
    if (t.index >= inputs.size()) {
      startCompute(t);
      return;
    }
    InputPlan in = inputs.get(t.index);
    String f = in.getFileId();
    if (cache.contains(f)) {
      cache.touch(f);
      fetch(t, in, FetchSource.LOCAL, null);
      return;
    }
    List<Runnable> waiters = inFlight.get(f);
    if (waiters != null) {
      // Another task (or a replication) is fetching this file into the cache: wait for it and
      // then read it locally, rather than move the same bytes twice (spec §1.3, D29).
      sharedFetches++;
      t.step = null;
      waiters.add(() -> stageNext(t));
      return;
    }
    if (in.getCache() && in.getBytes() <= cache.capacity()) {
      inFlight.put(f, new ArrayList<>());
      t.fetching = f;
    }
    String peer = in.getPeerNode();
    if (in.getSource() != FetchSource.STORAGE && peer != null && !peer.equals(nodeId())) {
      fetch(t, in, FetchSource.PEER, peer);
    } else {
      fetch(t, in, FetchSource.STORAGE, null);
    }
  }

  private void fetch(RunningTask t, InputPlan in, FetchSource source, String peer) {
    Step step = new Step();
    t.step = step;
    StageRequest fx = new StageRequest(nodeId(), in.getFileId(), in.getBytes(), source, peer,
        in.getLocation(), in.getChecksum());
    // The stager never calls back from inside fetch(), and the callback needs this lock, so the
    // handle is set before the callback can look at the step.
    step.handle = stager.fetch(fx, outcome -> onFetched(t, step, in, fx, outcome));
  }

  private synchronized void onFetched(RunningTask t, Step step, InputPlan in, StageRequest fx,
      StageRequest.Outcome outcome) {
    if (t.finished || t.step != step || state != State.STARTED) {
      // Nobody will use what this fetch brought (the task ended meanwhile).
      store.discard(fx);
      return;
    }
    t.step = null;
    String f = in.getFileId();
    FetchSource source = fx.source();
    switch (outcome) {
      case DONE -> {
        account(t, source, in.getBytes());
        if (source != FetchSource.LOCAL) {
          if (!(in.getCache() && insertFetched(t.delta, fx))) {
            store.attach(t.key, fx);
          }
        }
        releaseFetch(t);
        t.index++;
        stageNext(t);
      }
      case NOT_FOUND -> {
        if (source == FetchSource.PEER) {
          // The index is a hint (§3.4): the peer lost the file since; read it from storage.
          peerFallbacks++;
          LOG.debug("{}: peer {} no longer holds {}; reading storage", nodeId(), in.getPeerNode(),
              f);
          fetch(t, in, FetchSource.STORAGE, null);
        } else if (source == FetchSource.LOCAL) {
          // The cached copy vanished under us (a real disk): forget it and take the miss path.
          if (cache.remove(f)) {
            cachedView.remove(f);
            t.delta.remove(f);
            store.evicted(f);
          }
          stageNext(t);
        } else {
          abort(t, "storage has no " + f);
        }
      }
      case FAILED -> {
        String why = stager.failureReason(fx);
        abort(t, "staging " + f + " from " + source + " failed" + (why == null ? "" : ": " + why));
      }
      default -> throw new IllegalStateException("unknown outcome " + outcome);
    }
  }

  private void account(RunningTask t, FetchSource source, long bytes) {
    switch (source) {
      case LOCAL -> {
        t.bytesLocal += bytes;
        bytesLocal += bytes;
      }
      case PEER -> {
        t.bytesPeer += bytes;
        bytesPeer += bytes;
      }
      case STORAGE -> {
        t.bytesStorage += bytes;
        bytesStorage += bytes;
      }
      default -> throw new IllegalStateException("unknown source " + source);
    }
  }

  /** Ends this task's role as the fetcher of a file and lets the tasks waiting for it go on. */
  private void releaseFetch(RunningTask t) {
    if (t.fetching != null) {
      String f = t.fetching;
      t.fetching = null;
      runWaiters(f);
    }
  }

  private void runWaiters(String file) {
    List<Runnable> waiters = inFlight.remove(file);
    if (waiters != null) {
      waiters.forEach(Runnable::run);
    }
  }

  private void startCompute(RunningTask t) {
    sendDelta(t.delta);
    Step step = new Step();
    t.step = step;
    if (t.range != null) {
      RangeRun run = executor.executeRange(nodeId(), t.place, t.rangeEnd,
          result -> onRangeComputed(t, step, result));
      t.rangeRun = run;
      step.handle = run::suspend;
      return;
    }
    step.handle = executor.execute(nodeId(), t.place, result -> onComputed(t, step, result));
  }

  private synchronized void onRangeComputed(RunningTask t, Step step,
      TaskExecutor.RangeResult result) {
    if (t.finished || t.step != step || state != State.STARTED) {
      return;
    }
    t.step = null;
    t.rangeRun = null;
    int exitCode = result.exitCode();
    if (exitCode == 0) {
      finish(t, TaskEventType.COMPLETED, 0, result.message(), result.processedEnd(), null);
    } else {
      finish(t, TaskEventType.FAILED, exitCode,
          result.message() != null ? result.message() : "exit code " + exitCode,
          result.processedEnd(), null);
    }
  }

  /**
   * Stops a task's current step. For an event-range task in compute, returns the first event not
   * processed (the run is suspended); otherwise the range start (nothing processed yet).
   */
  private long stopStep(RunningTask t) {
    long processedEnd = t.range == null ? 0 : t.range.getStart();
    if (t.rangeRun != null) {
      processedEnd = t.rangeRun.suspend().stopAt();
      t.rangeRun = null;
    } else if (t.step != null) {
      t.step.handle.cancel();
    }
    t.step = null;
    return processedEnd;
  }

  private synchronized void onComputed(RunningTask t, Step step, TaskExecutor.Result result) {
    if (t.finished || t.step != step || state != State.STARTED) {
      return;
    }
    t.step = null;
    int exitCode = result.exitCode();
    if (exitCode == 0) {
      finish(t, TaskEventType.COMPLETED, 0, result.message());
    } else {
      finish(t, TaskEventType.FAILED, exitCode,
          result.message() != null ? result.message() : "exit code " + exitCode);
    }
  }

  /** Ends a task early: stops its current step, reports its partial cache changes, FAILED. */
  private void abort(RunningTask t, String message) {
    if (t.finished) {
      return;
    }
    long processedEnd = stopStep(t);
    t.finished = true;
    // Tasks waiting for this task's fetch now fetch the file themselves.
    releaseFetch(t);
    sendDelta(t.delta);
    finish(t, TaskEventType.FAILED, ABORTED_EXIT_CODE, message, processedEnd, null);
  }

  private void finish(RunningTask t, TaskEventType type, int exitCode, String message) {
    finish(t, type, exitCode, message, t.range == null ? 0 : t.range.getStart(), null);
  }

  /**
   * Ends a task attempt with one event.
   *
   * @param processedEnd event-range task: the first event not processed (ignored otherwise)
   * @param ack the SuspendTask decision that ended it (its id and epoch go on the event); null for
   *     the placing decision's
   */
  private void finish(RunningTask t, TaskEventType type, int exitCode, String message,
      long processedEnd, Decision ack) {
    t.finished = true;
    running.remove(t.key);
    for (InputPlan in : t.place.getInputs()) {
      cache.unpin(in.getFileId());
    }
    store.released(t.key);
    if (type == TaskEventType.COMPLETED) {
      tasksCompleted++;
    } else if (type == TaskEventType.SUSPENDED) {
      tasksSuspended++;
    } else {
      tasksFailed++;
    }
    long now = scheduler.nowMs();
    TaskEvent.Builder e = event(t, type)
        .setTimeMs(now)
        .setEndTimeMs(now)
        .setBytesLocal(t.bytesLocal)
        .setBytesPeer(t.bytesPeer)
        .setBytesStorage(t.bytesStorage)
        .setExitCode(exitCode)
        .setMessage(message);
    if (t.range != null) {
      EventRange r = t.range;
      long end = Math.max(r.getStart(), Math.min(processedEnd, r.getEnd()));
      e.setEvents(new EventRange(r.getDataset(), r.getStart(), end));
      if (type == TaskEventType.SUSPENDED) {
        e.setStopAt(end);
      }
      endedRanges.put(t.key, end);
      if (end > r.getStart()) {
        eventsProcessed += end - r.getStart();
        processed.addLast(new ProcessedRange(t.place.getJobId(), t.place.getTaskId(),
            t.place.getAttempt(), r.getDataset(), r.getStart(), end, type));
        if (processed.size() > PROCESSED_LOG) {
          processed.removeFirst();
        }
      }
    }
    if (ack != null) {
      e.setDecisionId(ack.getDecisionId()).setEpoch(ack.getEpoch());
    }
    output.taskEvent(e.build());
    finishDrainIfIdle();
  }

  /** Refuses any decision: a PlaceTask gets a REFUSED event, other actions are logged. */
  private void refuseDecision(Decision d, String kind, String message) {
    if (d.getAction() instanceof PlaceTask p) {
      LOG.info("{}: refusing decision {}: {}", nodeId(), d.getDecisionId(), message);
      refuse(d, p, kind, message);
    } else if (d.getAction() instanceof ShrinkTask sh) {
      LOG.info("{}: refusing decision {}: {}", nodeId(), d.getDecisionId(), message);
      refuse(d, sh.getTaskId(), sh.getJobId(), sh.getAttempt(), kind, message);
    } else if (d.getAction() instanceof SuspendTask su) {
      LOG.info("{}: refusing decision {}: {}", nodeId(), d.getDecisionId(), message);
      refuse(d, su.getTaskId(), su.getJobId(), su.getAttempt(), kind, message);
    } else {
      refusals.merge(kind, 1L, Long::sum);
      String what = d.getAction() == null ? "no action" : d.getAction().getClass().getSimpleName();
      if (kind.equals(Refusal.STALE_EPOCH)) {
        // Replays after a scheduler restart are expected.
        LOG.info("{}: refusing decision {} ({}): {}", nodeId(), d.getDecisionId(), what, message);
      } else {
        LOG.warn("{}: refusing decision {} ({}): {}", nodeId(), d.getDecisionId(), what, message);
      }
    }
  }

  private void refuse(Decision d, PlaceTask p, String kind, String reason) {
    refuse(d, p.getTaskId(), p.getJobId(), p.getAttempt(), kind, reason);
  }

  private void refuse(Decision d, String taskId, String jobId, int attempt, String kind,
      String reason) {
    refusals.merge(kind, 1L, Long::sum);
    tasksRefused++;
    output.taskEvent(answer(d, taskId, jobId, attempt, TaskEventType.REFUSED)
        .setMessage(reason)
        .build());
  }

  /** A task event answering decision {@code d} about a task attempt. */
  private TaskEvent.Builder answer(Decision d, String taskId, String jobId, int attempt,
      TaskEventType type) {
    return TaskEvent.newBuilder()
        .setPool(config.pool())
        .setTaskId(taskId)
        .setJobId(jobId)
        .setAttempt(attempt)
        .setNode(nodeId())
        .setType(type)
        .setDecisionId(d.getDecisionId())
        .setEpoch(d.getEpoch())
        .setTimeMs(scheduler.nowMs());
  }

  // ---- ShrinkTask / SuspendTask ----------------------------------------------------------------

  private void shrink(Decision d, ShrinkTask s) {
    String key = taskKey(s.getTaskId(), s.getAttempt());
    RunningTask t = running.get(key);
    if (t == null) {
      answerEnded(d, s.getTaskId(), s.getJobId(), s.getAttempt(), "shrink");
      return;
    }
    if (t.range == null) {
      refuse(d, s.getTaskId(), s.getJobId(), s.getAttempt(), Refusal.NOT_AN_EVENT_RANGE,
          Refusal.of(Refusal.NOT_AN_EVENT_RANGE, key + " has no event range").message());
      return;
    }
    long stopAt;
    if (t.rangeRun != null) {
      stopAt = t.rangeRun.shrink(s.getNewEnd());
    } else {
      // Still staging: nothing processed yet, so the range is simply cut.
      stopAt = Math.min(t.rangeEnd, Math.max(s.getNewEnd(), t.range.getStart()));
    }
    t.rangeEnd = stopAt;
    acknowledgeShrink(d, s.getTaskId(), s.getJobId(), s.getAttempt(), t.startMs, stopAt, null);
  }

  private void suspend(Decision d, SuspendTask s) {
    String key = taskKey(s.getTaskId(), s.getAttempt());
    RunningTask t = running.get(key);
    if (t == null) {
      answerEnded(d, s.getTaskId(), s.getJobId(), s.getAttempt(), "suspend");
      return;
    }
    if (t.range == null) {
      refuse(d, s.getTaskId(), s.getJobId(), s.getAttempt(), Refusal.NOT_AN_EVENT_RANGE,
          Refusal.of(Refusal.NOT_AN_EVENT_RANGE, key + " has no event range").message());
      return;
    }
    long stopAt;
    if (t.rangeRun != null) {
      RangeRun.Stop stop = t.rangeRun.suspend();
      if (!stop.stopped()) {
        // The run already ended (normally: every event is done) and its end is on its way to
        // this agent: too late to lose anything. Its COMPLETED (or FAILED) follows.
        t.rangeEnd = stop.stopAt();
        acknowledgeShrink(d, s.getTaskId(), s.getJobId(), s.getAttempt(), t.startMs,
            stop.stopAt(), "suspend after the run ended; its final event follows");
        return;
      }
      stopAt = stop.stopAt();
      t.rangeRun = null;
      t.step = null;
    } else {
      stopAt = stopStep(t);
    }
    t.finished = true;
    releaseFetch(t);
    sendDelta(t.delta);
    finish(t, TaskEventType.SUSPENDED, 0, null, stopAt, d);
  }

  /** A shrink or suspend of an attempt not running here: SHRUNK if it ended here, else REFUSED. */
  private void answerEnded(Decision d, String taskId, String jobId, int attempt, String what) {
    String key = taskKey(taskId, attempt);
    Long end = endedRanges.get(key);
    if (end != null) {
      acknowledgeShrink(d, taskId, jobId, attempt, 0, end, what + " of an attempt that ended");
      return;
    }
    LOG.info("{}: refusing {} of {}: not running here and not recently", nodeId(), what, key);
    refuse(d, taskId, jobId, attempt, Refusal.UNKNOWN_TASK, Refusal.of(Refusal.UNKNOWN_TASK,
        key + " does not run here and did not end here recently").message());
  }

  private void acknowledgeShrink(Decision d, String taskId, String jobId, int attempt,
      long startMs, long stopAt, String message) {
    shrinksAcknowledged++;
    output.taskEvent(answer(d, taskId, jobId, attempt, TaskEventType.SHRUNK)
        .setStartTimeMs(startMs)
        .setStopAt(stopAt)
        .setMessage(message)
        .build());
  }

  // ---- CancelTask ------------------------------------------------------------------------------

  private void cancel(CancelTask c) {
    RunningTask t = running.get(taskKey(c.getTaskId(), c.getAttempt()));
    if (t == null) {
      // Finished already, or never placed here: nothing to stop, and no event to confuse the
      // scheduler with.
      LOG.debug("{}: cancel of {}#{} which is not running", nodeId(), c.getTaskId(),
          c.getAttempt());
      return;
    }
    abort(t, CANCELLED);
  }

  // ---- EvictFiles ------------------------------------------------------------------------------

  private void evict(Decision d, EvictFiles e) {
    Delta delta = new Delta();
    List<String> pinned = new ArrayList<>();
    for (String f : e.getFiles()) {
      if (!cache.contains(f)) {
        continue;
      }
      if (cache.isPinned(f)) {
        pinned.add(f);
        continue;
      }
      cache.remove(f);
      cachedView.remove(f);
      delta.remove(f);
      store.evicted(f);
      filesEvictedOnRequest++;
    }
    sendDelta(delta);
    if (!pinned.isEmpty()) {
      evictionsRefused += pinned.size();
      LOG.info("{}: decision {} asked to evict {} which running tasks use; kept", nodeId(),
          d.getDecisionId(), pinned);
    }
  }

  // ---- ReplicateFile ---------------------------------------------------------------------------

  private void replicate(ReplicateFile r) {
    String f = r.getFileId();
    if (cache.contains(f)) {
      cache.touch(f);
      return;
    }
    if (inFlight.containsKey(f) || r.getBytes() > cache.capacity()) {
      return;
    }
    inFlight.put(f, new ArrayList<>());
    Replication rep = new Replication(r);
    replications.add(rep);
    String peer = r.getPeerNode();
    if (r.getSource() == FetchSource.PEER && peer != null && !peer.equals(nodeId())) {
      replicationFetch(rep, FetchSource.PEER, peer);
    } else {
      replicationFetch(rep, FetchSource.STORAGE, null);
    }
  }

  private void replicationFetch(Replication rep, FetchSource source, String peer) {
    Step step = new Step();
    rep.step = step;
    ReplicateFile r = rep.request;
    StageRequest fx = new StageRequest(nodeId(), r.getFileId(), r.getBytes(), source, peer,
        r.getLocation(), null);
    step.handle = stager.fetch(fx, outcome -> onReplicated(rep, step, fx, outcome));
  }

  private synchronized void onReplicated(Replication rep, Step step, StageRequest fx,
      StageRequest.Outcome outcome) {
    FetchSource source = fx.source();
    if (rep.step != step || state != State.STARTED) {
      store.discard(fx);
      return;
    }
    rep.step = null;
    String f = rep.request.getFileId();
    if (outcome == StageRequest.Outcome.NOT_FOUND && source == FetchSource.PEER) {
      peerFallbacks++;
      replicationFetch(rep, FetchSource.STORAGE, null);
      return;
    }
    replications.remove(rep);
    if (outcome == StageRequest.Outcome.DONE) {
      replicatedBytes += rep.request.getBytes();
      Delta delta = new Delta();
      if (!insertFetched(delta, fx)) {
        store.discard(fx);
      }
      sendDelta(delta);
    } else {
      LOG.warn("{}: replication of {} failed: {}", nodeId(), f, outcome);
    }
    runWaiters(f);
  }

  // ---- cache bookkeeping -----------------------------------------------------------------------

  /** Inserts a fetched file into the cache; false when it does not fit (the caller streams it). */
  private boolean insertFetched(Delta delta, StageRequest fx) {
    String f = fx.fileId();
    long bytes = fx.bytes();
    boolean present = cache.contains(f);
    NodeCache.Insert r = cache.insert(f, bytes);
    // Victims leave the disk before the newcomer arrives: the directory never exceeds the quota.
    for (String v : r.evicted()) {
      cachedView.remove(v);
      delta.remove(v);
      store.evicted(v);
    }
    if (r.cached()) {
      store.commit(fx);
    }
    if (r.cached() && !present) {
      cachedView.add(f);
      delta.add(f, bytes);
      // Another task's unsent delta may still say f was evicted; sent after this one it would
      // leave the scheduler's index without a file that is here. The insert supersedes it.
      for (RunningTask o : running.values()) {
        if (o.delta != delta) {
          o.delta.removed.remove(f);
        }
      }
    }
    return r.cached();
  }

  private void sendDelta(Delta delta) {
    if (delta.isEmpty()) {
      return;
    }
    seq++;
    List<CachedFile> added = new ArrayList<>();
    delta.added.forEach((f, b) -> added.add(new CachedFile(f, b)));
    output.nodeReport(report(NodeReportType.CACHE_DELTA)
        .setAdded(added)
        .setRemoved(new ArrayList<>(delta.removed))
        .build());
    delta.added.clear();
    delta.removed.clear();
  }

  private NodeReport.Builder report(NodeReportType type) {
    return NodeReport.newBuilder()
        .setPool(config.pool())
        .setNode(nodeId())
        .setType(type)
        .setTimeMs(scheduler.nowMs())
        .setSlots(config.slots())
        .setCacheCapacityBytes(config.cacheCapacityBytes())
        .setSeq(seq)
        .setDraining(draining)
        .setEndpoint(endpoint);
  }

  private TaskEvent.Builder event(RunningTask t, TaskEventType type) {
    return TaskEvent.newBuilder()
        .setPool(config.pool())
        .setTaskId(t.place.getTaskId())
        .setJobId(t.place.getJobId())
        .setAttempt(t.place.getAttempt())
        .setNode(nodeId())
        .setType(type)
        .setDecisionId(t.decision.getDecisionId())
        .setEpoch(t.decision.getEpoch())
        .setTimeMs(t.startMs)
        .setStartTimeMs(t.startMs);
  }

  /** How an agent names a task attempt ("taskId#attempt"); executors and stores use the same key. */
  public static String taskKey(String taskId, int attempt) {
    return taskId + "#" + attempt;
  }

  // ---- queries and shutdown --------------------------------------------------------------------

  public synchronized AgentStats stats() {
    return new AgentStats(tasksStarted, tasksCompleted, tasksFailed, tasksRefused, bytesLocal,
        bytesPeer, bytesStorage, peerFallbacks, sharedFetches, duplicateDecisions, staleDecisions,
        ignoredDecisions, filesEvictedOnRequest, evictionsRefused, replicatedBytes, running.size(),
        cache.used(), cache.size(), tasksSuspended, shrinksAcknowledged, eventsProcessed);
  }

  /**
   * The event ranges processed here (the last {@value #PROCESSED_LOG}), in the order their
   * attempts ended: the same ranges the COMPLETED, SUSPENDED and FAILED events reported.
   */
  public synchronized List<ProcessedRange> processedRanges() {
    return List.copyOf(processed);
  }

  /** A copy of the cache: file → bytes. */
  public synchronized Map<String, Long> cacheContents() {
    return new LinkedHashMap<>(cache.contents());
  }

  public synchronized boolean isPinned(String fileId) {
    return cache.isPinned(fileId);
  }

  /** The seq of the last cache report sent (0 after registration). */
  public synchronized long cacheSeq() {
    return seq;
  }

  /** Running attempts as "taskId#attempt". */
  public synchronized Set<String> runningTasks() {
    return new LinkedHashSet<>(running.keySet());
  }

  /** Refusals by kind ({@link Refusal}'s constants, or a guard's), since start. */
  public synchronized Map<String, Long> refusals() {
    return new TreeMap<>(refusals);
  }

  /** The highest scheduler epoch seen (Long.MIN_VALUE before the first decision). */
  public synchronized long maxEpoch() {
    return maxEpoch;
  }

  public synchronized boolean isDraining() {
    return draining;
  }

  /** Whether LEAVE was sent (by {@link #close()} or at the end of a drain). */
  public synchronized boolean isClosed() {
    return state == State.CLOSED;
  }

  /**
   * Starts a graceful drain: no new placements (REFUSED {@value #DRAINING}), a heartbeat with
   * draining=true at once and in every heartbeat after, running tasks finish, then LEAVE (as
   * {@link #close()}). Idempotent.
   *
   * @return completes when LEAVE has been sent
   */
  public synchronized CompletableFuture<Void> drain() {
    if (state == State.NEW) {
      close();
    }
    if (state == State.STARTED && !draining) {
      draining = true;
      LOG.info("{}: draining ({} tasks running)", nodeId(), running.size());
      output.nodeReport(report(NodeReportType.HEARTBEAT).build());
      finishDrainIfIdle();
    }
    return left;
  }

  /** Completes when LEAVE has been sent. */
  public CompletableFuture<Void> left() {
    return left;
  }

  private void finishDrainIfIdle() {
    if (draining && !closing && state == State.STARTED && running.isEmpty()) {
      close();
    }
  }

  /** Fails running tasks ({@value #AGENT_STOPPED}), stops heartbeats and sends LEAVE. */
  @Override
  public synchronized void close() {
    if (state == State.CLOSED || closing) {
      return;
    }
    closing = true;
    boolean wasStarted = state == State.STARTED;
    heartbeat.cancel();
    if (wasStarted) {
      for (RunningTask t : new ArrayList<>(running.values())) {
        long processedEnd = stopStep(t);
        t.finished = true;
        t.fetching = null;
        sendDelta(t.delta);
        finish(t, TaskEventType.FAILED, ABORTED_EXIT_CODE, AGENT_STOPPED, processedEnd, null);
      }
      for (Replication r : replications) {
        if (r.step != null) {
          r.step.handle.cancel();
        }
      }
      replications.clear();
      inFlight.clear();
      output.nodeReport(report(NodeReportType.LEAVE).build());
    }
    state = State.CLOSED;
    left.complete(null);
  }

  // ---- internal records ------------------------------------------------------------------------

  /** One scheduled step (a fetch or the compute); a callback for a step no longer current is stale. */
  private static final class Step {
    Cancellable handle = Cancellable.NONE;
  }

  /** Cache changes not yet reported. A file is never in both sets: the net change is kept. */
  private static final class Delta {
    final Map<String, Long> added = new LinkedHashMap<>();
    final Set<String> removed = new LinkedHashSet<>();

    void add(String f, long bytes) {
      removed.remove(f);
      added.put(f, bytes);
    }

    void remove(String f) {
      // Added and removed before the report went out: the scheduler never needs to hear of it.
      if (added.remove(f) == null) {
        removed.add(f);
      }
    }

    boolean isEmpty() {
      return added.isEmpty() && removed.isEmpty();
    }
  }

  private static final class RunningTask {
    final Decision decision;
    final PlaceTask place;
    final String key;
    final long startMs;
    final Delta delta = new Delta();
    int index;
    long bytesLocal;
    long bytesPeer;
    long bytesStorage;
    Step step;
    /** The file this task is fetching for itself and for waiters, or null. */
    String fetching;
    boolean finished;
    /** Event-range task: the placed range; null for a file task. */
    final EventRange range;
    /** Event-range task: the end it will stop at (placed, or acknowledged by a shrink). */
    long rangeEnd;
    /** Event-range task: its run while computing. */
    RangeRun rangeRun;

    RunningTask(Decision decision, PlaceTask place, String key, long startMs) {
      this.decision = decision;
      this.place = place;
      this.key = key;
      this.startMs = startMs;
      this.range = place.getEvents();
      this.rangeEnd = range == null ? 0 : range.getEnd();
    }
  }

  private static final class Replication {
    final ReplicateFile request;
    Step step;

    Replication(ReplicateFile request) {
      this.request = request;
    }
  }
}
