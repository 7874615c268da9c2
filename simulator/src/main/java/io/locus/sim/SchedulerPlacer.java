package io.locus.sim;

import io.locus.core.Scheduler;
import io.locus.core.model.Command;
import io.locus.core.model.Task;
import io.locus.core.policy.Policies;
import io.locus.core.policy.Policy;
import io.locus.core.provision.Provisioner;
import io.locus.core.state.PoolState;
import io.locus.core.state.StateJournal;
import io.locus.sim.engine.EventQueue;
import io.locus.sim.exec.Cluster;
import io.locus.sim.exec.Executor;
import io.locus.sim.exec.TaskRun;
import io.locus.sim.metrics.QueueRecorder;
import io.locus.sim.provision.Lrm;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Drives the policy core. Every event is applied as it happens through the {@link Scheduler}
 * facade's {@code apply*} methods (arrivals, completions, failures, registrations, releases with
 * their CacheReset, cache deltas), never on the pool state directly; then {@link
 * Scheduler#dispatch} runs once per batch of equal-time events and its commands are carried out on
 * the cluster. SRP registers every node at t = 0; DRP polls the core's {@link Provisioner} every
 * poll interval and turns its Acquire and Release commands into LRM requests and node releases
 * (spec §2.4).
 *
 * <p>Dispatches that provably decide nothing are skipped by a {@link DispatchGate}; that changes no
 * decision and saves MCH (and GCC at or above θ) most of their window rescans.
 *
 * <p><b>Preemption</b> (pools with queues, issue 24): the core's preemption round, run after each
 * fair-share dispatch, marks victims and emits {@link Command.Preempt}; this placer stops them as
 * a node agent does ({@code TaskRunner#preempt}) and answers PREEMPTED through {@link
 * Scheduler#applyTaskPreempted}. A victim still reading its inputs (or placed and not started,
 * τ_dispatch) stops at once, as the agent stops a run still staging. A computing victim stops at
 * the end of the grace period: the agent sends SIGTERM and kills at the grace, and the simulator
 * takes every process to ignore SIGTERM (one that obeys stops sooner), so the slot frees as late as
 * the agent allows. A victim whose run ends on its own within the grace also ends PREEMPTED, then:
 * the agent does not report a stopped process's own completion ({@code Cancellable#stop}), so its
 * work is lost as well. The slot frees at the stop, the task goes back to its queue at its
 * original position as the next attempt (not a failure, not a retry), and its attempt's
 * slot-seconds from start to stop are counted as lost (per queue, {@link QueueRecorder#preempted}).
 */
final class SchedulerPlacer implements TaskPlacer {
  private final Simulation sim;
  private final SimulationConfig cfg;
  private final Cluster cluster;
  private final Lrm lrm;
  private final EventQueue events;
  private final PoolState state;
  private final Scheduler scheduler;
  private final Provisioner provisioner;
  private final Map<String, TaskRun> runs = new HashMap<>();
  private final Map<String, EventQueue.Event> timeouts = new HashMap<>();
  /** Attempts being preempted, by task id: which attempt, and the event that stops it. */
  private final Map<String, Stop> stops = new HashMap<>();

  private record Stop(int attempt, EventQueue.Event event) {}
  private final Set<String> lrmNodes = new HashSet<>();
  private final Map<String, ArrayDeque<Double>> recentFailures = new HashMap<>();
  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private final DispatchGate gate;
  /** The per-queue measures (null: no queue tree); fed where a slot is taken or given back. */
  private final QueueRecorder queues;
  /** Whether the scheduler dispatches by the queue tree (then held heads need wake-ups). */
  private final boolean fairShare;
  /** The time of the latest wake-up event scheduled for a held queue head (NaN: none). */
  private double wakeAt = Double.NaN;
  private double dispatcherFreeAt;
  private int nodeCounter;
  private long pollCount;
  private long releases;
  private long timeoutCount;
  private long injected;
  private long dispatchCalls;
  private long cpuNanos;

  SchedulerPlacer(Simulation sim) {
    this.sim = sim;
    this.cfg = sim.config();
    this.cluster = sim.cluster();
    this.lrm = sim.lrm();
    this.events = sim.events();
    this.state = new PoolState(StateJournal.NONE, cfg.maxRetries(), cfg.replay().backoff());
    Policy policy = Policies.create(cfg.policy(), cfg.policyParams());
    this.scheduler = new Scheduler(cfg.pool(), state, policy);
    this.provisioner = cfg.provisioning() == SimulationConfig.Provisioning.DRP
        ? new Provisioner(cfg.drp())
        : null;
    this.gate = new DispatchGate(cfg, policy);
    this.queues = sim.queues();
    // the default queue alone is no tree, as in the streaming scheduler (FilePoolDriver): the pool
    // keeps its one queue and its policy's order
    this.fairShare = cfg.queues() != null && cfg.queues().enforce()
        && !cfg.queues().tree().isDefaultOnly();
    if (fairShare) {
      scheduler.setQueues(cfg.queues().tree());
      scheduler.setMaxLocalityWait(cfg.queues().maxLocalityWait());
      scheduler.setPreemptionGrace(cfg.queues().preemptionGrace());
    }
    cluster.setDirectory(state::holders);
    cluster.setDemand(state);
  }

  long skippedDispatches() {
    return gate.skipped();
  }

  PoolState state() {
    return state;
  }

  long dispatchCalls() {
    return dispatchCalls;
  }

  double schedulerCpuSeconds() {
    return cpuNanos / 1e9;
  }

  @Override
  public void setup(double now) {
    int initial = provisioner == null ? cfg.nodes() : cfg.minNodes();
    for (int i = 0; i < initial; i++) {
      registerNode(now, false);
    }
    if (provisioner != null) {
      events.scheduleDaemon(now, () -> poll(now));
    }
  }

  // ------------------------------------------------------------------ events

  @Override
  public void released(Task task, double now) {
    int before = state.queueLength();
    long t0 = cpuStart();
    scheduler.applyJobArrival(task);
    cpuEnd(t0);
    gate.arrived(before);
  }

  @Override
  public void cacheChanged(Executor node, long seq, Map<String, Long> added, List<String> removed,
      double now) {
    long t0 = cpuStart();
    scheduler.applyCacheDelta(node.id(), seq, added, removed);
    cpuEnd(t0);
    var view = state.node(node.id());
    gate.cacheChanged(view != null && view.freeSlots() > 0 && !view.draining(),
        !removed.isEmpty());
  }

  @Override
  public void taskDone(TaskRun run, double now) {
    Task t = run.task();
    String id = t.taskId();
    Stop pending = stops.get(id);
    if (runs.get(id) == run && pending != null && pending.attempt() == t.attempt()) {
      // being preempted: the agent reports the process's end as PREEMPTED, not its completion
      events.cancel(pending.event());
      stop(id, t.attempt(), run.node(), now);
      return;
    }
    runs.remove(id);
    events.cancel(timeouts.remove(id));
    if (cfg.replay().failureInjection()
        && sim.failureRng().nextDouble() < cfg.replay().failureProbability()) {
      injected++;
      failed(run, now);
      return;
    }
    var view = state.node(run.node());
    boolean wasFree = view != null && view.freeSlots() > 0 && !view.draining();
    long t0 = cpuStart();
    PoolState.EndOutcome o = scheduler.applyTaskCompleted(id, t.attempt(), run.node(),
        run.bytesLocal(), run.bytesPeer(), run.bytesStorage());
    cpuEnd(t0);
    gate.completed(wasFree, state);
    settle(id);
    if (o == PoolState.EndOutcome.COMPLETED) {
      sim.jobEnded(t, run, true, now);
    }
  }

  @Override
  public Cancelled cancel(String taskId, double now) {
    TaskRun run = runs.remove(taskId);
    events.cancel(timeouts.remove(taskId));
    Task queued = state.queued(taskId);
    long t0 = cpuStart();
    Cancelled c = PoolCancel.cancel(scheduler, taskId, run, cluster, now);
    cpuEnd(t0);
    gate.changed();
    if (queues != null) {
      if (c.placed()) {
        queues.ended(taskId);
      } else {
        queues.unqueued(queued);
      }
    }
    return c;
  }

  /**
   * Tells the queue measures where {@code taskId} went after the core applied an end: still
   * placed (a stale report), back to pending (a retry, queued or parked), or gone.
   */
  private void settle(String taskId) {
    if (queues == null || state.running(taskId) != null) {
      return;
    }
    if (state.isQueued(taskId) || state.parked(taskId) != null) {
      queues.requeued(taskId);
    } else {
      queues.ended(taskId);
    }
  }

  /**
   * The attempt failed (injected) or timed out: the core re-queues it or gives up (§2.3). With a
   * retry backoff the core parks the retry; an event at its release time makes the dispatch that
   * releases it (the core releases due tasks before each dispatch, as in the streaming scheduler).
   */
  private void failed(TaskRun run, double now) {
    Task t = run.task();
    long t0 = cpuStart();
    PoolState.EndOutcome o = scheduler.applyTaskFailed(t.taskId(), t.attempt(), run.node(), now);
    cpuEnd(t0);
    gate.changed();
    settle(t.taskId());
    var parked = state.parked(t.taskId());
    if (parked != null) {
      events.schedule(parked.until(), gate::changed);
    }
    if (o == PoolState.EndOutcome.FAILED_PERMANENTLY) {
      sim.jobEnded(t, run, false, now);
    }
    noteFailure(run.node(), now);
  }

  private void timeout(TaskRun run, double now) {
    timeouts.remove(run.task().taskId());
    if (run.cancelled() || runs.get(run.task().taskId()) != run) {
      return;
    }
    timeoutCount++;
    runs.remove(run.task().taskId());
    cluster.cancel(run, now);
    failed(run, now);
  }

  /** Suspends (releases) an executor with too many recent failures (§2.3). */
  private void noteFailure(String node, double now) {
    ArrayDeque<Double> times = recentFailures.computeIfAbsent(node, n -> new ArrayDeque<>());
    times.addLast(now);
    while (!times.isEmpty() && times.peekFirst() < now - cfg.replay().suspendWindowSeconds()) {
      times.removeFirst();
    }
    if (times.size() >= cfg.replay().suspendAfter()) {
      recentFailures.remove(node);
      releaseNode(node, now, "suspended");
    }
  }

  // ------------------------------------------------------------------ dispatch

  @Override
  public void afterBatch(double now) {
    if (!gate.open()) {
      return;
    }
    long t0 = cpuStart();
    List<Command> cmds = scheduler.dispatch(now);
    cpuEnd(t0);
    dispatchCalls++;
    gate.dispatched(state);
    for (Command c : cmds) {
      execute(c, now);
    }
    if (fairShare) {
      wakeForHeldHead(now);
    }
  }

  /**
   * A queue head held for locality may stop waiting at a time when nothing else happens (the
   * streaming scheduler's heartbeats tick it; here nothing would): an event then makes the
   * dispatch that places it.
   */
  private void wakeForHeldHead(double now) {
    double w = scheduler.nextQueueWakeup();
    if (Double.isNaN(w) || !(w > now)) {
      return;
    }
    if (Double.isNaN(wakeAt) || wakeAt <= now || w < wakeAt) {
      wakeAt = w;
      events.schedule(w, gate::changed);
    }
  }

  private void execute(Command c, double now) {
    sim.recordDecision(now, c);
    if (c instanceof Command.Run run) {
      if (queues != null) {
        queues.placed(run.task());
      }
      startRun(run, now);
    } else if (c instanceof Command.Acquire a) {
      acquire(a.nodes(), now);
    } else if (c instanceof Command.Release r) {
      releaseNode(r.node(), now, r.reason());
    } else if (c instanceof Command.Evict e) {
      cluster.evict(e.node(), e.files(), now);
    } else if (c instanceof Command.Replicate r) {
      cluster.replicate(r.node(), r.unit(), r.peer(), now);
    } else if (c instanceof Command.Preempt p) {
      preempt(p, now);
    } else if (c instanceof Command.Cancel x) {
      TaskRun run = runs.get(x.taskId());
      if (run != null && run.task().attempt() == x.attempt()) {
        cluster.cancel(run, now); // the policy owns the state change; the attempt just stops here
        runs.remove(x.taskId());
      }
      settle(x.taskId());
    }
  }

  /**
   * Schedules the stop of a preemption's victim (see the class comment): now if it is still
   * staging or has not started, else at the end of the grace period. Its timeout no longer
   * applies: the stop ends it first.
   */
  private void preempt(Command.Preempt p, double now) {
    TaskRun run = runs.get(p.taskId());
    boolean computing = run != null && run.task().attempt() == p.attempt()
        && !Double.isNaN(run.readsDoneAt());
    double at = computing ? now + p.graceSeconds() : now;
    events.cancel(timeouts.remove(p.taskId()));
    stops.put(p.taskId(), new Stop(p.attempt(),
        events.schedule(at, () -> stop(p.taskId(), p.attempt(), p.node(), at))));
  }

  /**
   * The victim's process is gone: its slot frees, the core re-queues the task (PREEMPTED), and
   * the slot-seconds it ran are lost. Nothing when the attempt ended otherwise meanwhile (its node
   * was released, the job cancelled): that end was applied already.
   */
  private void stop(String taskId, int attempt, String node, double now) {
    Stop s = stops.get(taskId);
    if (s != null && s.attempt() == attempt) {
      stops.remove(taskId);
    }
    var placed = state.running(taskId);
    if (placed == null || placed.task().attempt() != attempt || !placed.node().equals(node)
        || !state.isPreempting(taskId)) {
      return;
    }
    TaskRun run = runs.remove(taskId);
    double lost = 0.0;
    if (run != null && run.task().attempt() == attempt) {
      cluster.cancel(run, now);
      lost = now - run.startTime();
    }
    long t0 = cpuStart();
    PoolState.EndOutcome o = scheduler.applyTaskPreempted(taskId, attempt, node);
    cpuEnd(t0);
    gate.changed();
    if (queues != null) {
      if (o == PoolState.EndOutcome.REQUEUED) {
        queues.preempted(taskId, lost);
      } else {
        settle(taskId);
      }
    }
  }

  /** τ_dispatch: the dispatcher handles one placement at a time, each costing τ (spec §1.2). */
  private void startRun(Command.Run run, double now) {
    double tau = cfg.tauDispatch();
    if (tau <= 0) {
      begin(run, now);
      return;
    }
    double at = Math.max(now, dispatcherFreeAt) + tau;
    dispatcherFreeAt = at;
    events.schedule(at, () -> begin(run, at));
  }

  private void begin(Command.Run run, double now) {
    Task t = run.task();
    var current = state.running(t.taskId());
    if (current == null || current.task().attempt() != t.attempt()
        || !current.node().equals(run.node())) {
      return; // the node left (or the attempt ended) between decision and start
    }
    TaskRun r = cluster.start(t, run.inputs(), run.node(), now);
    runs.put(t.taskId(), r);
    if (cfg.replay().timeouts()) {
      double limit = Math.max(cfg.replay().minTimeoutSeconds(),
          cfg.replay().runtimeFactor() * estimatedRuntime(t));
      timeouts.put(t.taskId(), events.scheduleDaemon(now + limit, () -> timeout(r, now + limit)));
    }
  }

  private double estimatedRuntime(Task t) {
    double bw = Math.min(cfg.exec().nicInBytesPerSecond(), cfg.exec().fsBytesPerSecond());
    return t.totalComputeSeconds() + t.totalBytes() / bw;
  }

  // ------------------------------------------------------------------ provisioning

  private void poll(double now) {
    for (Command c : provisioner.poll(state, now, lrm.freeCapacity(now))) {
      execute(c, now);
    }
    double next = ++pollCount * cfg.pollSeconds();
    events.scheduleDaemon(next, () -> poll(next));
  }

  private void acquire(int nodes, double now) {
    lrm.submit(nodes, now, new Lrm.Callback() {
      @Override
      public void granted(int n, double at) {
        for (int i = 0; i < n; i++) {
          registerNode(at, true); // all nodes of a request register together (§1.2)
        }
      }

      @Override
      public void refused(int n, double at) {
        if (provisioner != null) {
          provisioner.onRequestFailed(n);
        }
      }
    });
  }

  private void registerNode(double now, boolean fromLrm) {
    String id = String.format(Locale.ROOT, "n%05d", ++nodeCounter);
    cluster.addExecutor(id, cfg.slots(), cfg.cacheBytes(), now);
    long t0 = cpuStart();
    scheduler.applyNodeRegistered(id, cfg.slots(), cfg.cacheBytes(), null, now);
    cpuEnd(t0);
    if (provisioner != null) {
      provisioner.onNodeRegistered(id, now);
    }
    if (fromLrm) {
      lrmNodes.add(id);
    }
    gate.registered(state);
    sim.metrics().nodesNow(state.nodes().size());
  }

  /** Release (or suspension): the cache is reset and the index forgets the node (CacheReset). */
  private void releaseNode(String id, double now, String why) {
    if (state.node(id) == null) {
      return;
    }
    List<TaskRun> cancelled = cluster.release(id, now);
    for (TaskRun r : cancelled) {
      runs.remove(r.task().taskId());
      events.cancel(timeouts.remove(r.task().taskId()));
    }
    long t0 = cpuStart();
    scheduler.applyNodeReleased(id); // re-queues what ran there (normally nothing: only idle nodes go)
    cpuEnd(t0);
    if (queues != null) {
      queues.placedIds().forEach(this::settle); // placed there, started or not
    }
    for (TaskRun r : cancelled) {
      if (!state.isQueued(r.task().taskId()) && state.running(r.task().taskId()) == null
          && state.parked(r.task().taskId()) == null) {
        sim.jobEnded(r.task(), r, false, now); // out of retries
      }
    }
    if (provisioner != null) {
      provisioner.onNodeReleased(id);
    }
    if (lrmNodes.remove(id)) {
      lrm.release(1, now);
    }
    releases++;
    gate.changed();
  }

  /**
   * Scheduler CPU time (--measure-scheduler, DD6) counts the dispatches and the events applied to
   * the pool state: both are the dispatcher's work, and the data-aware policies' queue index is
   * kept up to date while events are applied.
   */
  private long cpuStart() {
    return cfg.measureSchedulerCpu() ? threads.getCurrentThreadCpuTime() : 0L;
  }

  private void cpuEnd(long t0) {
    if (cfg.measureSchedulerCpu()) {
      cpuNanos += threads.getCurrentThreadCpuTime() - t0;
    }
  }

  // ------------------------------------------------------------------ gauges and counters

  @Override
  public int queueLength() {
    return state.queueLength();
  }

  @Override
  public int busySlots() {
    return state.busySlots();
  }

  @Override
  public int registeredSlots() {
    return state.registeredSlots();
  }

  @Override
  public int registeredNodes() {
    return state.nodes().size();
  }

  @Override
  public int pendingNodes() {
    return lrm.pendingNodes();
  }

  @Override
  public long releases() {
    return releases;
  }

  @Override
  public long retries() {
    return state.counters().retries;
  }

  @Override
  public long timeouts() {
    return timeoutCount;
  }

  @Override
  public long injectedFailures() {
    return injected;
  }
}
