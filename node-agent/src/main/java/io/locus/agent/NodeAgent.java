package io.locus.agent;

import io.locus.schemas.CancelTask;
import io.locus.schemas.Decision;
import io.locus.schemas.EvictFiles;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.ReplicateFile;
import io.locus.schemas.ResyncNode;
import io.locus.schemas.ShrinkTask;
import io.locus.schemas.SuspendTask;
import io.locus.schemas.TaskEventType;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node's agent, independent of Kafka: it takes the decisions addressed to it, admits them and
 * routes each to the part that acts on it. How bytes move and how a task runs are behind
 * {@link Stager} and {@link TaskExecutor}, so the simulated mode and the real mode share this logic.
 *
 * <p><b>Parts.</b>
 * <ul>
 *   <li>{@link TaskRunner}: PlaceTask and CancelTask; each placement is a {@link AttemptRun} that goes
 *       STAGING → COMPUTING → ENDED (staging along the read path of spec §1.3, pins, shared
 *       fetches).
 *   <li>{@link RangeControl}: ShrinkTask and SuspendTask of event-range tasks, and their
 *       acknowledgements; {@link RangeLedger} remembers what ended ranges processed.
 *   <li>{@link LocalQueue}: late binding, the placements held beyond the slots (up to
 *       {@link AgentConfig#queueDepth()}), started first in first out as slots free, and their
 *       withdraw (CancelTask onlyIfQueued: WITHDRAWN, or REFUSED when started or unknown).
 *       A preemption (CancelTask preempt) stops a run politely within its grace period and
 *       answers PREEMPTED ({@link TaskRunner#preempt}).
 *   <li>{@link CacheRequests}: EvictFiles and ReplicateFile.
 *   <li>{@link AgentCache} (the accounting, its disk side and the peers' lock-free view),
 *       {@link NodeReporter} (REGISTER, HEARTBEAT, CACHE_SNAPSHOT, CACHE_DELTA, LEAVE) and
 *       {@link TaskEventWriter} (task events), shared through an {@link AgentContext}.
 * </ul>
 *
 * <p><b>Threading.</b> Every entry point (decisions, stager and executor callbacks, heartbeats,
 * close) takes this agent's monitor, so the state of every part is race-free whatever thread calls;
 * outputs are emitted under the lock, hence in order. {@link #holds} is lock-free so that a peer's
 * stager can ask without taking this lock: two agents reading from each other never deadlock.
 *
 * <p><b>Admission</b>, in this order:
 * <ul>
 *   <li>Decisions for another node or another pool are ignored (several pools may name nodes alike
 *       and share a decisions partition), as is everything before start and after close.
 *   <li>A {@link DecisionGuard} checks authenticity first (a forged decision leaves no trace).
 *   <li>A decision addressed to another agent instance ({@code instanceId} set and not ours) is
 *       refused, counted and logged, never acted on and never answered; {@value #IDENTITY_CONFLICT_AFTER}
 *       in a row make {@link #problem()} (hence a real agent's /health) report it.
 *   <li>Duplicates (same decision id within the last {@link AgentConfig#dedupeWindow()} ids) are
 *       not acted on again, before the epoch check, so a replayed stale decision is not refused
 *       twice. A duplicate PlaceTask is answered with the latest event of its attempt (STARTED, or
 *       its final event; the last {@value TaskEventWriter#ANSWERS} placements are kept), the
 *       others are dropped.
 *   <li>A ResyncNode is obeyed whatever its epoch, and its epoch becomes the highest seen.
 *   <li>A decision with an epoch older than the highest seen is refused, and so is one more than
 *       {@value #MAX_EPOCH_JUMP} above it ({@value #ABSURD}; it does not move the highest). The
 *       highest is kept in the {@link EpochStore} of the agent's {@link AgentIdentity}.
 *   <li>The guard then checks content (file ids, locations, templates, arguments).
 *   <li>A PlaceTask is refused while draining ({@value #DRAINING}), for an attempt already running
 *       ({@value #ALREADY_RUNNING}, also when it waits in the local queue under another decision),
 *       when every slot and every local-queue position is taken ({@value #NO_FREE_SLOT}: so a
 *       scheduler that overbooks a node shows up), for a malformed event range, and for malformed
 *       outputs (a negative size, an id declared twice: {@link TaskOutputs}).
 * </ul>
 * A refused PlaceTask, ShrinkTask or SuspendTask gets a REFUSED task event (the scheduler waits for
 * an answer about that task); for EvictFiles, ReplicateFile and CancelTask a task event would read
 * as "the placement failed", so those are logged and counted. Every refusal is counted by kind
 * ({@link #refusals()}).
 *
 * <p><b>Drain.</b> {@link #drain()}: no new placements, heartbeats say draining=true, running tasks
 * finish, queued placements (accepted) still start and finish, then LEAVE. Cancel, withdraw,
 * evict, shrink and suspend decisions still apply.
 *
 * <p>Times in task events are this agent's wall clock (scaled durations), not modelled seconds.
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
  /** How many processed ranges {@link #processedRanges()} keeps (oldest dropped first). */
  public static final int PROCESSED_LOG = RangeLedger.PROCESSED_LOG;
  /** A decision's epoch more than this above the highest seen is refused ({@value #ABSURD}). */
  public static final long MAX_EPOCH_JUMP = 1_000_000L;
  public static final String ABSURD = Refusal.ABSURD_EPOCH;
  /** Decisions to another instance in a row after which {@link #problem()} reports it. */
  public static final int IDENTITY_CONFLICT_AFTER = 3;
  public static final String IDENTITY_CONFLICT = "node id held by another agent instance";
  /**
   * The longest preemption grace period an agent accepts (1 h): a scheduler asks for seconds
   * (30 s by default); a larger value is corrupt, and would hold the slot for hours.
   */
  public static final long MAX_PREEMPT_GRACE_MS = 3_600_000L;

  /**
   * Events [start, end) of a dataset processed by one attempt of an event-range task, as its final
   * task event reported them.
   *
   * @param how COMPLETED, SUSPENDED or FAILED: the event that reported the range
   */
  public record ProcessedRange(String jobId, String taskId, int attempt, String dataset,
      long start, long end, TaskEventType how) {}

  private final AgentContext ctx;
  private final DecisionGuard guard;
  private final DecisionWindow seen;
  private final SharedFetches shared = new SharedFetches();
  private final RangeLedger ledger;
  private final TaskRunner runner;
  private final RangeControl ranges;
  private final CacheRequests requests;
  private final LocalQueue queue;
  private final CompletableFuture<Void> left = new CompletableFuture<>();
  private long maxEpoch;
  /** Decisions addressed to another instance of this node id since the last one addressed to us. */
  private int foreignInARow;
  private Cancellable heartbeat = Cancellable.NONE;
  private boolean closing;
  private volatile String hostProblem;
  /** Why the scheduler refused this instance's registration (its REFUSED verdict), or null. */
  private String refused;
  /** Completes with the scheduler's first REGISTERED (or DRAINING) verdict on this instance. */
  private final CompletableFuture<io.locus.schemas.NodeStatus> accepted = new CompletableFuture<>();

  /**
   * @param endpoint where peers fetch this node's cache (reported in REGISTER), or null
   */
  public NodeAgent(AgentConfig config, AgentScheduler scheduler, Stager stager,
      TaskExecutor executor, AgentOutput output, String endpoint) {
    this(config, scheduler, stager, executor, output, endpoint, CacheStore.NONE,
        DecisionGuard.ACCEPT_ALL, AgentIdentity.random());
  }

  /**
   * @param endpoint where peers fetch this node's cache (reported in every node report), or null
   * @param store the on-disk side of the cache ({@link CacheStore#NONE} when there are no bytes)
   * @param guard checks on each decision ({@link DecisionGuard#ACCEPT_ALL}: none)
   */
  public NodeAgent(AgentConfig config, AgentScheduler scheduler, Stager stager,
      TaskExecutor executor, AgentOutput output, String endpoint, CacheStore store,
      DecisionGuard guard) {
    this(config, scheduler, stager, executor, output, endpoint, store, guard,
        AgentIdentity.random());
  }

  /**
   * @param endpoint where peers fetch this node's cache (reported in every node report), or null
   * @param store the on-disk side of the cache ({@link CacheStore#NONE} when there are no bytes)
   * @param guard checks on each decision ({@link DecisionGuard#ACCEPT_ALL}: none)
   * @param identity instance id, epoch store and node key
   */
  public NodeAgent(AgentConfig config, AgentScheduler scheduler, Stager stager,
      TaskExecutor executor, AgentOutput output, String endpoint, CacheStore store,
      DecisionGuard guard, AgentIdentity identity) {
    Objects.requireNonNull(config, "config");
    if (AgentConfig.TEMPLATE_NODE.equals(config.nodeId())) {
      throw new IllegalArgumentException("an agent needs a real node id, not the template's");
    }
    this.guard = Objects.requireNonNull(guard, "guard");
    this.ctx = new AgentContext(this, config, Objects.requireNonNull(scheduler, "scheduler"),
        Objects.requireNonNull(output, "output"), endpoint, Objects.requireNonNull(store, "store"),
        Objects.requireNonNull(identity, "identity"));
    this.maxEpoch = identity.epochs().load(config.pool());
    this.seen = new DecisionWindow(config.dedupeWindow());
    this.ledger = new RangeLedger(config.dedupeWindow(), ctx.counters);
    this.runner = new TaskRunner(ctx, Objects.requireNonNull(stager, "stager"),
        Objects.requireNonNull(executor, "executor"), shared, ledger, this::runEnded);
    this.queue = new LocalQueue(ctx, runner);
    // Half the local queue still to run is ample cover for the few ms an event may be held.
    int holdFrom = Math.max(1, (config.queueDepth() + 1) / 2);
    ctx.events.holdRoutineEventsWhile(() -> queue.size() >= holdFrom);
    this.ranges = new RangeControl(ctx, runner, ledger);
    this.requests = new CacheRequests(ctx, stager, shared);
  }

  public String nodeId() {
    return ctx.nodeId();
  }

  public AgentConfig config() {
    return ctx.config;
  }

  /** Whether this node's cache holds the file now. Lock-free: peers call it while staging. */
  public boolean holds(String fileId) {
    return ctx.cache.holds(fileId);
  }

  /**
   * Puts a file in the cache before {@link #start()} (a warm cache, e.g. after a restart with files
   * on disk). Announced by the CACHE_SNAPSHOT that follows REGISTER.
   */
  public synchronized void preload(String fileId, long bytes) {
    if (ctx.state != AgentContext.State.NEW) {
      throw new IllegalStateException("preload only before start()");
    }
    ctx.cache.preload(fileId, bytes);
  }

  /** Registers (REGISTER, then CACHE_SNAPSHOT if the cache is not empty) and starts heartbeats. */
  public synchronized void start() {
    if (ctx.state != AgentContext.State.NEW) {
      throw new IllegalStateException("agent " + nodeId() + " already " + ctx.state);
    }
    ctx.state = AgentContext.State.STARTED;
    // A snapshot resets the scheduler's view and its seq; deltas continue from it.
    ctx.reports.register(ctx.cache.contents());
    heartbeat = ctx.clock.scheduleAtFixedRate(ctx.config.heartbeatMs() * 1_000_000L,
        this::heartbeat);
  }

  private synchronized void heartbeat() {
    if (ctx.live()) {
      // seq tells the scheduler which cache report was last sent, so it can spot a lost delta.
      ctx.reports.heartbeat();
    }
  }

  // ---- admission and routing -------------------------------------------------------------------

  /** Handles one decision read from the decisions topic. */
  public synchronized void onDecision(Decision d) {
    if (!nodeId().equals(d.getNode()) || !ctx.config.pool().equals(d.getPool()) || !ctx.live()) {
      ctx.counters.ignoredDecisions++;
      LOG.debug("{}: ignoring decision {} for {}/{} (state {})", nodeId(), d.getDecisionId(),
          d.getPool(), d.getNode(), ctx.state);
      return;
    }
    Refusal forged = guard.verify(d);
    if (forged != null) {
      refuseDecision(d, forged.kind(), forged.message());
      return;
    }
    String to = d.getInstanceId();
    if (to != null && !to.equals(ctx.identity.instanceId())) {
      foreignDecision(d);
      return;
    }
    if (to != null) {
      foreignInARow = 0;
    }
    Object action = d.getAction();
    if (!seen.add(d.getDecisionId())) {
      ctx.counters.duplicateDecisions++;
      if (action instanceof PlaceTask p) {
        answerDuplicate(d, p);
      } else {
        LOG.debug("{}: duplicate decision {}", nodeId(), d.getDecisionId());
      }
      return;
    }
    if (action instanceof ResyncNode r) {
      // Whatever its epoch: the scheduler that sends it is the one to follow from now on.
      setEpoch(d.getEpoch());
      resync(d, r);
      return;
    }
    if (maxEpoch != EpochStore.NONE && d.getEpoch() < maxEpoch) {
      ctx.counters.staleDecisions++;
      refuseDecision(d, Refusal.STALE_EPOCH, "stale epoch " + d.getEpoch() + " < " + maxEpoch);
      return;
    }
    // Scheduler epochs grow by one per restart: a jump this large is forged or corrupt, and
    // following it would lock the real scheduler out. Before any epoch, the floor is 0.
    long floor = Math.max(maxEpoch, 0);
    if (d.getEpoch() > floor && d.getEpoch() - floor > MAX_EPOCH_JUMP) {
      ctx.counters.absurdEpochs++;
      refuseDecision(d, Refusal.ABSURD_EPOCH, Refusal.ABSURD_EPOCH + ": " + d.getEpoch() + " is more than "
          + MAX_EPOCH_JUMP + " above the highest seen (" + floor + ")");
      return;
    }
    if (maxEpoch == EpochStore.NONE || d.getEpoch() > maxEpoch) {
      setEpoch(d.getEpoch());
    }
    Refusal unsafe = guard.admit(d);
    if (unsafe != null) {
      refuseDecision(d, unsafe.kind(), unsafe.message());
      return;
    }
    if (action instanceof PlaceTask p) {
      place(d, p);
    } else if (action instanceof EvictFiles e) {
      requests.evict(d, e);
    } else if (action instanceof ReplicateFile r) {
      requests.replicate(r);
    } else if (action instanceof CancelTask c) {
      cancel(d, c);
    } else if (action instanceof ShrinkTask sh) {
      ranges.shrink(d, sh);
    } else if (action instanceof SuspendTask su) {
      ranges.suspend(d, su);
    } else {
      ctx.counters.ignoredDecisions++;
      LOG.warn("{}: unknown action {} in decision {}", nodeId(), action, d.getDecisionId());
    }
  }

  private void setEpoch(long epoch) {
    maxEpoch = epoch;
    try {
      ctx.identity.epochs().save(ctx.config.pool(), epoch);
    } catch (RuntimeException e) {
      // Acting on the decision matters more; the floor is kept in memory until the next save.
      LOG.error("{}: cannot save epoch {}: {}", nodeId(), epoch, e.toString());
    }
  }

  /** Never acted on: another agent instance holds this node id at the scheduler. */
  private void foreignDecision(Decision d) {
    ctx.counters.foreignDecisions++;
    ctx.counters.refusal(Refusal.OTHER_INSTANCE);
    foreignInARow++;
    if (foreignInARow == 1 || foreignInARow == IDENTITY_CONFLICT_AFTER
        || foreignInARow % 1000 == 0) {
      LOG.error("{}: decision {} is addressed to agent instance {}, this is {} ({} in a row):"
          + " another agent runs with this node id", nodeId(), d.getDecisionId(),
          d.getInstanceId(), ctx.identity.instanceId(), foreignInARow);
    }
  }

  /**
   * A PlaceTask seen before is answered with the latest event of that attempt (the scheduler may
   * have lost the first answer in a failover), never acted on again.
   */
  private void answerDuplicate(Decision d, PlaceTask p) {
    if (ctx.events.repeat(d.getDecisionId())) {
      LOG.debug("{}: duplicate decision {} answered", nodeId(), d.getDecisionId());
      return;
    }
    String key = taskKey(p.getTaskId(), p.getAttempt());
    LocalQueue.Queued q = queue.get(key);
    if (q != null && q.decision().getDecisionId().equals(d.getDecisionId())) {
      // Nothing was emitted for it yet: STARTED follows when it starts.
      LOG.debug("{}: duplicate decision {} of a queued attempt ignored", nodeId(),
          d.getDecisionId());
      return;
    }
    AttemptRun run = runner.get(key);
    if (run != null && run.decision.getDecisionId().equals(d.getDecisionId())) {
      ctx.events.repeatStarted(run);
      return;
    }
    LOG.debug("{}: duplicate decision {} too old to answer", nodeId(), d.getDecisionId());
  }

  /**
   * ResyncNode: the scheduler does not know what runs here. Every run of the pool stops without a
   * task event (the scheduler re-queues them itself), then REGISTER with the whole cache.
   */
  private void resync(Decision d, ResyncNode r) {
    ctx.counters.resyncs++;
    int dropped = queue.dropAll() + runner.discardAll();
    LOG.warn("{}: resync asked by decision {} (epoch {}): {}; {} runs dropped, registering again",
        nodeId(), d.getDecisionId(), d.getEpoch(), r.getReason(), dropped);
    ctx.reports.register(ctx.cache.contents());
    finishDrainIfIdle();
  }

  private void place(Decision d, PlaceTask p) {
    String key = taskKey(p.getTaskId(), p.getAttempt());
    Refusal refusal = null;
    if (ctx.draining) {
      refusal = Refusal.of(Refusal.DRAINING, null);
    } else if (runner.isRunning(key)) {
      refusal = Refusal.of(Refusal.ALREADY_RUNNING, null);
    } else if (queue.get(key) != null) {
      LocalQueue.Queued q = queue.get(key);
      if (q.decision().getDecisionId().equals(d.getDecisionId())) {
        // The same placement again, beyond the dedupe window: it waits here already.
        ctx.counters.duplicateDecisions++;
        return;
      }
      refusal = Refusal.of(Refusal.ALREADY_RUNNING, "queued here, not started yet");
    } else if (!queue.hasRoom()) {
      refusal = Refusal.of(Refusal.NO_FREE_SLOT, null);
    } else if (p.getEvents() != null) {
      String bad = EventRanges.problem(p);
      if (bad == null && !runner.runsEventRanges()) {
        bad = "this agent's executor does not run event ranges";
      }
      refusal = bad == null ? null : Refusal.of(Refusal.BAD_INPUT, bad);
    }
    if (refusal == null) {
      String bad = TaskOutputs.problem(p);
      refusal = bad == null ? null : Refusal.of(Refusal.BAD_INPUT, bad);
    }
    if (refusal != null) {
      if (ctx.draining) {
        LOG.info("{}: refusing {}: {}", nodeId(), key, refusal.message());
      } else {
        LOG.warn("{}: refusing {} (decision {}): {}", nodeId(), key, d.getDecisionId(),
            refusal.message());
      }
      ctx.events.refused(d, TaskAttempt.of(p), refusal.kind(), refusal.message());
      return;
    }
    queue.admit(d, p);
  }

  private void cancel(Decision d, CancelTask c) {
    String key = taskKey(c.getTaskId(), c.getAttempt());
    LocalQueue.Queued q = queue.get(key);
    AttemptRun t = runner.get(key);
    if (c.getOnlyIfQueued()) {
      withdraw(d, c, q, t);
      return;
    }
    if (c.getPreempt()) {
      preempt(d, c, q, t);
      return;
    }
    if (q != null) {
      queue.cancel(q, CANCELLED);
      return;
    }
    if (t == null) {
      // Finished already, or never placed here: nothing to stop, and no event to confuse the
      // scheduler with.
      LOG.debug("{}: cancel of {}#{} which is not running", nodeId(), c.getTaskId(),
          c.getAttempt());
      return;
    }
    runner.abort(t, CANCELLED);
  }

  /**
   * A preemption (issue 24): a queued attempt leaves the queue, a running one stops politely
   * within the grace period ({@link TaskRunner#preempt}); either way the answer is PREEMPTED, not a
   * failure. An attempt this node does not hold is not answered, as a cancel is not: it ended
   * here already (its end is on its way) or was never placed here (a forged or misrouted
   * preemption stops nothing). A grace outside [0, {@value #MAX_PREEMPT_GRACE_MS}] ms is refused
   * (bad input): nothing stops.
   */
  private void preempt(Decision d, CancelTask c, LocalQueue.Queued q, AttemptRun t) {
    long graceMs = c.getGraceMs();
    if (graceMs < 0 || graceMs > MAX_PREEMPT_GRACE_MS) {
      refuseDecision(d, Refusal.BAD_INPUT, "preemption grace " + graceMs + " ms is outside [0, "
          + MAX_PREEMPT_GRACE_MS + "]");
      return;
    }
    if (q != null) {
      queue.preempt(q, c.getReason());
      return;
    }
    if (t == null) {
      LOG.debug("{}: preemption of {}#{} which is not running", nodeId(), c.getTaskId(),
          c.getAttempt());
      return;
    }
    runner.preempt(t, java.time.Duration.ofMillis(graceMs), c.getReason());
  }

  /**
   * A withdraw: a queued attempt leaves the queue (WITHDRAWN); anything else is REFUSED with the
   * withdraw's own decision id, and a running attempt keeps running.
   */
  private void withdraw(Decision d, CancelTask c, LocalQueue.Queued q, AttemptRun t) {
    if (q != null) {
      queue.withdraw(q, c.getReason());
      return;
    }
    String kind = t != null ? Refusal.WITHDRAW_STARTED : Refusal.WITHDRAW_UNKNOWN;
    // An attempt that finished here is still in the recent events; one never seen here is a file
    // task (only file pools withdraw), whose job id is its task id.
    String recent = t != null ? t.attempt.jobId() : ctx.events.jobOf(c.getTaskId(), c.getAttempt());
    String jobId = recent != null ? recent : c.getTaskId();
    LOG.debug("{}: withdraw {} of {}#{} refused: {}", nodeId(), d.getDecisionId(),
        c.getTaskId(), c.getAttempt(), kind);
    ctx.events.refused(d, new TaskAttempt(c.getTaskId(), jobId, c.getAttempt()), kind, kind);
  }

  /** Refuses any decision: those naming a task attempt get a REFUSED event, others are logged. */
  private void refuseDecision(Decision d, String kind, String message) {
    Object action = d.getAction();
    TaskAttempt attempt = action instanceof PlaceTask p ? TaskAttempt.of(p)
        : action instanceof ShrinkTask sh ? TaskAttempt.of(sh)
        : action instanceof SuspendTask su ? TaskAttempt.of(su)
        : null;
    if (attempt != null) {
      LOG.info("{}: refusing decision {}: {}", nodeId(), d.getDecisionId(), message);
      ctx.events.refused(d, attempt, kind, message);
      return;
    }
    ctx.counters.refusal(kind);
    String what = action == null ? "no action" : action.getClass().getSimpleName();
    if (kind.equals(Refusal.STALE_EPOCH)) {
      // Replays after a scheduler restart are expected.
      LOG.info("{}: refusing decision {} ({}): {}", nodeId(), d.getDecisionId(), what, message);
    } else {
      LOG.warn("{}: refusing decision {} ({}): {}", nodeId(), d.getDecisionId(), what, message);
    }
  }

  /** How an agent names a task attempt ("taskId#attempt"); executors and stores use the same key. */
  public static String taskKey(String taskId, int attempt) {
    return taskId + "#" + attempt;
  }

  // ---- queries ---------------------------------------------------------------------------------

  public synchronized AgentStats stats() {
    return ctx.counters.snapshot(runner.count(), queue.size(), ctx.cache.used(),
        ctx.cache.size());
  }

  /**
   * The event ranges processed here (the last {@value #PROCESSED_LOG}), in the order their
   * attempts ended: the same ranges the COMPLETED, SUSPENDED and FAILED events reported.
   */
  public synchronized List<ProcessedRange> processedRanges() {
    return ledger.processed();
  }

  /** A copy of the cache: file → bytes. */
  public synchronized Map<String, Long> cacheContents() {
    return ctx.cache.contents();
  }

  public synchronized boolean isPinned(String fileId) {
    return ctx.cache.isPinned(fileId);
  }

  /** The seq of the last cache report sent (0 after registration). */
  public synchronized long cacheSeq() {
    return ctx.reports.seq();
  }

  /** Running attempts as "taskId#attempt". */
  public synchronized Set<String> runningTasks() {
    return runner.keys();
  }

  /** Attempts waiting in the local queue as "taskId#attempt", oldest first. */
  public synchronized Set<String> queuedTasks() {
    return queue.keys();
  }

  /** Refusals by kind ({@link Refusal}'s constants, or a guard's), since start. */
  public synchronized Map<String, Long> refusals() {
    return ctx.counters.refusals();
  }

  /**
   * The highest scheduler epoch seen, restored from the {@link EpochStore} at creation
   * ({@link EpochStore#NONE} before any); a ResyncNode sets it to its own epoch.
   */
  public synchronized long maxEpoch() {
    return maxEpoch;
  }

  /** This agent's instance id: in every task event and node report. */
  public String instanceId() {
    return ctx.identity.instanceId();
  }

  /**
   * The scheduler's verdict on this node (node-status). Only a verdict on this instance counts: a
   * REFUSED one makes the agent say so at once (one ERROR line with the scheduler's reason) and
   * unhealthy until a REGISTERED one arrives; a verdict on another instance of the node id (the
   * real owner, when this agent is a copy) is not about this agent.
   */
  public void verdict(io.locus.schemas.NodeStatus v) {
    if (v.getInstanceId() == null || !v.getInstanceId().toString().equals(instanceId())) {
      return;
    }
    synchronized (this) {
      switch (v.getState()) {
        case REFUSED -> {
          String why = v.getReason() + (v.getCode().isEmpty() ? "" : " [" + v.getCode() + "]");
          if (!why.equals(refused)) {
            LOG.error("{}: the scheduler REFUSED this agent's registration (instance {}): {}; it"
                + " gets no work and /health answers 503 until the scheduler registers it",
                nodeId(), instanceId(), why);
          }
          refused = why;
        }
        case REGISTERED, DRAINING -> {
          if (refused != null) {
            LOG.warn("{}: registered by the scheduler after all (instance {})", nodeId(),
                instanceId());
          }
          refused = null;
        }
        default -> { } // LEFT, LOST: the scheduler asks the node to register again when it speaks
      }
    }
    if (v.getState() == io.locus.schemas.NodeStatusType.REGISTERED
        || v.getState() == io.locus.schemas.NodeStatusType.DRAINING) {
      accepted.complete(v);
    }
  }

  /** Completes with the scheduler's first verdict registering this instance (node-status). */
  public CompletableFuture<io.locus.schemas.NodeStatus> accepted() {
    return accepted;
  }

  /**
   * Why this agent is unhealthy, or null: the scheduler refused its registration ({@link
   * #verdict}), another agent instance holds its node id at the scheduler (the last {@value
   * #IDENTITY_CONFLICT_AFTER} or more decisions were addressed to it), or the host's decisions
   * consumer stopped ({@link #hostFailed}).
   */
  public synchronized String problem() {
    if (hostProblem != null) {
      return hostProblem;
    }
    if (refused != null) {
      return "registration refused by the scheduler: " + refused;
    }
    return foreignInARow >= IDENTITY_CONFLICT_AFTER ? IDENTITY_CONFLICT : null;
  }

  /** The host reading decisions for this agent failed: no decision reaches it any more. */
  public void hostFailed(String why) {
    hostProblem = why;
  }

  public synchronized boolean isDraining() {
    return ctx.draining;
  }

  /** Whether LEAVE was sent (by {@link #close()} or at the end of a drain). */
  public synchronized boolean isClosed() {
    return ctx.state == AgentContext.State.CLOSED;
  }

  // ---- drain and shutdown ----------------------------------------------------------------------

  /**
   * Starts a graceful drain: no new placements (REFUSED {@value #DRAINING}), a heartbeat with
   * draining=true at once and in every heartbeat after, running tasks finish, then LEAVE (as
   * {@link #close()}). Idempotent.
   *
   * @return completes when LEAVE has been sent
   */
  public synchronized CompletableFuture<Void> drain() {
    if (ctx.state == AgentContext.State.NEW) {
      close();
    }
    if (ctx.live() && !ctx.draining) {
      ctx.draining = true;
      LOG.info("{}: draining ({} tasks running)", nodeId(), runner.count());
      ctx.reports.heartbeat();
      finishDrainIfIdle();
    }
    return left;
  }

  /** Completes when LEAVE has been sent. */
  public CompletableFuture<Void> left() {
    return left;
  }

  /** After each run's final event: a slot is free for the local queue; a drain may be done. */
  private void runEnded() {
    if (!closing) {
      queue.startWhileFree();
    }
    finishDrainIfIdle();
  }

  private void finishDrainIfIdle() {
    if (ctx.draining && !closing && ctx.live() && runner.count() == 0 && queue.isEmpty()) {
      close();
    }
  }

  /**
   * Fails queued and running tasks ({@value #AGENT_STOPPED}), stops heartbeats and sends LEAVE.
   */
  @Override
  public synchronized void close() {
    if (ctx.state == AgentContext.State.CLOSED || closing) {
      return;
    }
    closing = true;
    heartbeat.cancel();
    if (ctx.live()) {
      // The queue first: a run stopped below must not start a queued attempt.
      queue.stopAll(AGENT_STOPPED);
      runner.stopAll(AGENT_STOPPED);
      requests.stopAll();
      shared.clear();
      ctx.reports.leave();
    }
    ctx.state = AgentContext.State.CLOSED;
    left.complete(null);
  }
}
