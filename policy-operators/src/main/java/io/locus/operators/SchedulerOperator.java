package io.locus.operators;

import io.locus.core.Scheduler;
import io.locus.core.model.Command;
import io.locus.core.model.Task;
import io.locus.core.policy.Dispatch;
import io.locus.core.policy.Policies;
import io.locus.core.policy.Policy;
import io.locus.core.policy.StatefulPolicy;
import io.locus.core.provision.Provisioner;
import io.locus.core.provision.ProvisioningConfig;
import io.locus.core.state.NodeView;
import io.locus.core.state.PoolState;
import io.locus.schemas.CachedFile;
import io.locus.schemas.Control;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.Decision;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.ScaleAction;
import io.locus.schemas.ScaleRequest;
import io.locus.schemas.SchedulerMetrics;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.internal.SchedulerInput;
import io.locus.core.state.StagingState;
import io.locus.schemas.EvictFiles;
import io.locus.schemas.FetchSource;
import io.locus.schemas.ReplicateFile;
import io.locus.schemas.state.FileStat;
import io.locus.schemas.state.NodeStage;
import io.locus.schemas.state.NodeState;
import io.locus.schemas.state.PoolMeta;
import io.locus.schemas.state.StagedEntry;
import io.locus.schemas.state.TaskState;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.formats.avro.typeutils.AvroTypeInfo;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler of a pool, keyed by pool. It applies each input event to the pool's state through
 * the policy core and emits the resulting placements as {@link Decision}s (keyed downstream by
 * node). State lives in keyed state, written through on every change; the heap copy per pool is a
 * cache rebuilt on first use after a (re)start, which also starts a new scheduler epoch.
 */
public class SchedulerOperator extends KeyedProcessFunction<String, SchedulerInput, Decision> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(SchedulerOperator.class);

  public static final OutputTag<SchedulerMetrics> METRICS =
      new OutputTag<>("scheduler-metrics", new AvroTypeInfo<>(SchedulerMetrics.class));
  /** Dynamic provisioning: requests for an external autoscaler. */
  public static final OutputTag<ScaleRequest> SCALE_REQUESTS =
      new OutputTag<>("scale-requests", new AvroTypeInfo<>(ScaleRequest.class));
  /** Well-formed records the scheduler cannot act on (e.g. an unknown policy): to dead-letters. */
  public static final OutputTag<DeadLetter> REJECTED =
      new OutputTag<>("scheduler-rejected", new AvroTypeInfo<>(DeadLetter.class));

  private final SchedulerConfig config;

  private transient MapState<String, NodeState> nodes;
  private transient MapState<String, TaskState> tasks;
  private transient MapState<String, Long> cache;
  private transient ValueState<PoolMeta> meta;
  /** A {@link StatefulPolicy}'s memory (COMPLEMENTARY_PLACE: its round-robin pointer). */
  private transient ValueState<String> policyMemory;
  private transient FlinkStateJournal.StagingMaps staging;
  private transient Map<String, Pool> pools;

  /** A pool's heap state: the core scheduler over the rebuilt state, and the pool's scalars. */
  private static final class Pool {
    final Scheduler scheduler;
    final PoolMeta meta;
    final Provisioner provisioner;

    Pool(Scheduler scheduler, PoolMeta meta, Provisioner provisioner) {
      this.scheduler = scheduler;
      this.meta = meta;
      this.provisioner = provisioner;
    }
  }

  public SchedulerOperator(SchedulerConfig config) {
    this.config = config;
  }

  @Override
  public void open(OpenContext openContext) {
    nodes = getRuntimeContext().getMapState(new MapStateDescriptor<>(
        "nodes", Types.STRING, new AvroTypeInfo<>(NodeState.class)));
    tasks = getRuntimeContext().getMapState(new MapStateDescriptor<>(
        "tasks", Types.STRING, new AvroTypeInfo<>(TaskState.class)));
    cache = getRuntimeContext().getMapState(new MapStateDescriptor<>(
        "cache-index", Types.STRING, Types.LONG));
    meta = getRuntimeContext().getState(new ValueStateDescriptor<>(
        "pool-meta", new AvroTypeInfo<>(PoolMeta.class)));
    policyMemory = getRuntimeContext().getState(new ValueStateDescriptor<>(
        "policy-memory", Types.STRING));
    // The Khanna family (MET, MCT, SA, JDPDLL) keeps its own caches, statistics and Gantt charts.
    staging = new FlinkStateJournal.StagingMaps(
        getRuntimeContext().getMapState(new MapStateDescriptor<>(
            "staged-files", Types.STRING, new AvroTypeInfo<>(StagedEntry.class))),
        getRuntimeContext().getMapState(new MapStateDescriptor<>(
            "file-stats", Types.STRING, new AvroTypeInfo<>(FileStat.class))),
        getRuntimeContext().getMapState(new MapStateDescriptor<>(
            "gantt", Types.STRING, Types.DOUBLE)),
        getRuntimeContext().getMapState(new MapStateDescriptor<>(
            "task-mapping", Types.STRING, Types.STRING)),
        getRuntimeContext().getMapState(new MapStateDescriptor<>(
            "node-stages", Types.STRING, new AvroTypeInfo<>(NodeStage.class))),
        getRuntimeContext().getMapState(new MapStateDescriptor<>(
            "ref-counts", Types.STRING, Types.INT)));
    pools = new HashMap<>();
  }

  @Override
  public void processElement(SchedulerInput in, Context ctx, Collector<Decision> out)
      throws Exception {
    String poolName = ctx.getCurrentKey();
    Pool pool = pool(poolName, ctx);
    Object event = in.getEvent();
    advanceClock(pool.meta, eventTime(event));
    double now = Conversions.seconds(pool.meta.getClockMs());
    Scheduler s = pool.scheduler;
    List<Command> cmds;
    if (event instanceof JobSubmitted job) {
      long seq = pool.meta.getNextSeq();
      pool.meta.setNextSeq(seq + 1);
      Task t = Conversions.toTask(job, seq);
      if (!s.state().enqueue(t)) {
        LOG.debug("pool {}: duplicate arrival of {} ignored", poolName, job.getJobId());
      }
      cmds = s.dispatch(now);
    } else if (event instanceof TaskEvent te) {
      cmds = onTaskEvent(s, te, now);
    } else if (event instanceof NodeReport r) {
      cmds = onNodeReport(s, pool.provisioner, r, now);
    } else if (event instanceof Control c) {
      cmds = onControl(pool, c, in, ctx, now);
    } else {
      throw new IllegalArgumentException("unexpected event type " + event.getClass());
    }
    emit(pool, poolName, cmds, out);
    provision(pool, poolName, ctx);
    saveMeta(pool);
  }

  /**
   * DRP: polls the provisioner whenever the pool's event clock has moved a poll period on (agents'
   * heartbeats keep it moving), so provisioning is as deterministic as placement. A node to release
   * is drained at once, so it gets no new work while the autoscaler removes it.
   */
  private void provision(Pool pool, String poolName, Context ctx) {
    ProvisioningConfig pc = pool.provisioner.config();
    long clock = pool.meta.getClockMs();
    if (!pc.dynamic() || clock - pool.meta.getLastPollMs() < Conversions.millis(pc.pollSeconds())) {
      return;
    }
    pool.meta.setLastPollMs(clock);
    PoolState st = pool.scheduler.state();
    for (Command c : pool.provisioner.poll(st, Conversions.seconds(clock), Integer.MAX_VALUE)) {
      long seq = pool.meta.getScaleRequests() + 1;
      pool.meta.setScaleRequests(seq);
      ScaleRequest.Builder r = ScaleRequest.newBuilder()
          .setRequestId(poolName + "/scale/" + seq)
          .setPool(poolName)
          .setTimeMs(clock)
          .setEpoch(pool.meta.getEpoch());
      if (c instanceof Command.Acquire a) {
        r.setAction(ScaleAction.ACQUIRE).setNodes(a.nodes()).setReason(a.reason());
      } else if (c instanceof Command.Release rel) {
        st.setDraining(rel.node(), true);
        r.setAction(ScaleAction.RELEASE).setNode(rel.node()).setReason(rel.reason());
      } else {
        continue;
      }
      ctx.output(SCALE_REQUESTS, r.build());
    }
    pool.meta.setPendingNodes(pool.provisioner.pendingNodes());
  }

  private List<Command> onTaskEvent(Scheduler s, TaskEvent e, double now) {
    return switch (e.getType()) {
      case STARTED -> List.of(); // the slot was taken at placement
      // Acks of ShrinkTask/SuspendTask (issue 5). No policy here sends those yet; the event-range
      // (CERN) scheduler will handle them.
      case SHRUNK, SUSPENDED -> List.of();
      case COMPLETED -> s.onTaskCompleted(e.getTaskId(), e.getAttempt(), e.getNode(),
          e.getBytesLocal(), e.getBytesPeer(), e.getBytesStorage(), now);
      case FAILED, REFUSED -> {
        // Only the decision that placed the running attempt can fail it: an agent refusing a
        // forged or stale decision for the same task must not disturb the real one.
        var r = s.state().running(e.getTaskId());
        if (r != null && e.getDecisionId() != null && !e.getDecisionId().equals(r.decisionId())) {
          LOG.warn("pool {}: {} of {} ignored, decision {} is not the running one ({})",
              s.pool(), e.getType(), e.getTaskId(), e.getDecisionId(), r.decisionId());
          yield List.of();
        }
        yield s.onTaskFailed(e.getTaskId(), e.getAttempt(), e.getNode(), now);
      }
    };
  }

  private List<Command> onNodeReport(Scheduler s, Provisioner provisioner, NodeReport r,
      double now) {
    String node = r.getNode();
    PoolState st = s.state();
    switch (r.getType()) {
      case REGISTER:
        if (st.node(node) == null) {
          provisioner.onNodeRegistered(node, now);
        }
        st.registerNode(node, r.getSlots(), r.getCacheCapacityBytes(), r.getEndpoint(), now);
        if (!r.getAdded().isEmpty()) {
          st.applyCacheSnapshot(node, r.getSeq(), files(r.getAdded()));
        }
        break;
      case HEARTBEAT:
        if (st.node(node) == null) {
          // The scheduler lost this node (e.g. it was released); it has to register again.
          LOG.warn("heartbeat from unregistered node {} in pool {}", node, s.pool());
          return List.of();
        }
        // An agent can start draining itself; only a RESUME_NODE control ends a drain, so a
        // heartbeat never undoes a drain the scheduler (provisioning) or an operator imposed.
        if (r.getDraining() && !st.node(node).draining()) {
          st.setDraining(node, true);
        }
        break;
      case CACHE_DELTA:
        if (st.node(node) == null) {
          return List.of();
        }
        if (st.applyCacheDelta(node, r.getSeq(), files(r.getAdded()), r.getRemoved())
            && st.hasStaging()) {
          // A file the scheduler staged arrived on the node: TransferEnd(f, k).
          for (CachedFile f : r.getAdded()) {
            s.applyTransferEnd(f.getFileId(), node);
          }
        }
        break;
      case CACHE_SNAPSHOT:
        if (st.node(node) == null) {
          return List.of();
        }
        st.applyCacheSnapshot(node, r.getSeq(), files(r.getAdded()));
        break;
      case LEAVE:
        st.removeNode(node);
        provisioner.onNodeReleased(node);
        break;
      default:
        throw new IllegalArgumentException("unexpected report type " + r.getType());
    }
    return s.dispatch(now);
  }

  private List<Command> onControl(Pool pool, Control c, SchedulerInput in, Context ctx,
      double now) {
    Scheduler s = pool.scheduler;
    String problem = null;
    switch (c.getType()) {
      case SET_POLICY -> {
        try {
          Policy p = Policies.create(c.getPolicy(), c.getParams());
          s.setPolicy(p);
          pool.meta.setPolicy(p.name());
          pool.meta.setParams(new HashMap<>(c.getParams()));
        } catch (IllegalArgumentException e) {
          problem = e.getMessage();
        }
      }
      case DRAIN_NODE, RESUME_NODE -> {
        if (s.state().node(c.getNode()) == null) {
          problem = "node '" + c.getNode() + "' is not registered in pool " + s.pool();
        } else {
          s.state().setDraining(c.getNode(), c.getType() == io.locus.schemas.ControlType.DRAIN_NODE);
        }
      }
      default -> problem = "unsupported control " + c.getType();
    }
    if (problem != null) {
      ctx.output(REJECTED, DeadLetter.newBuilder()
          .setSourceTopic(in.getSourceTopic())
          .setPartition(in.getSourcePartition())
          .setOffset(in.getSourceOffset())
          .setKey(ByteBuffer.wrap(s.pool().getBytes(StandardCharsets.UTF_8)))
          .setValue(null)
          .setReason("control rejected: " + problem)
          .setTimeMs(pool.meta.getClockMs())
          .build());
      return List.of();
    }
    return s.dispatch(now);
  }

  @Override
  public void onTimer(long timestamp, OnTimerContext ctx, Collector<Decision> out)
      throws Exception {
    String poolName = ctx.getCurrentKey();
    Pool pool = pool(poolName, ctx);
    PoolState st = pool.scheduler.state();
    PoolState.Counters c = st.counters();
    ctx.output(METRICS, SchedulerMetrics.newBuilder()
        .setPool(poolName)
        .setTimeMs(timestamp)
        .setEpoch(pool.meta.getEpoch())
        .setPolicy(pool.scheduler.policy().name())
        .setQueueLength(st.queueLength())
        .setRunningTasks(st.running().size())
        .setRegisteredNodes(st.nodes().size())
        .setTotalSlots(st.registeredSlots())
        .setBusySlots(st.busySlots())
        .setPlacements(c.placements)
        .setCompletions(c.completions)
        .setFailures(c.failures)
        .setBytesLocal(c.bytesLocal)
        .setBytesPeer(c.bytesPeer)
        .setBytesStorage(c.bytesStorage)
        .build());
    scheduleMetrics(ctx.timerService().currentProcessingTime(), ctx);
  }

  // ------------------------------------------------------------------ state

  /** The pool's heap state, rebuilt from keyed state on first use (a new epoch starts then). */
  private Pool pool(String poolName, Context ctx) throws Exception {
    Pool p = pools.get(poolName);
    if (p != null) {
      return p;
    }
    PoolMeta m = meta.value();
    if (m == null) {
      SchedulerConfig.PolicySpec spec = config.policyFor(poolName);
      m = PoolMeta.newBuilder()
          .setEpoch(1)
          .setNextSeq(1)
          .setPolicy(spec.name())
          .setParams(new HashMap<>(spec.params()))
          .build();
    } else {
      m.setEpoch(m.getEpoch() + 1);
    }
    PoolState st = new PoolState(new FlinkStateJournal(poolName, nodes, tasks, cache, staging),
        config.maxRetries());
    for (Map.Entry<String, NodeState> e : nodes.entries()) {
      st.restoreNode(Conversions.fromState(e.getValue()));
    }
    List<String> orphans = new ArrayList<>();
    for (Map.Entry<String, Long> e : cache.entries()) {
      String key = e.getKey();
      int sep = key.indexOf(FlinkStateJournal.SEP);
      String node = key.substring(0, sep);
      if (st.node(node) == null) {
        orphans.add(key);
      } else {
        st.restoreCacheEntry(node, key.substring(sep + 1), e.getValue());
      }
    }
    for (String k : orphans) {
      cache.remove(k);
    }
    for (TaskState t : tasks.values()) {
      if (t.getNode() == null) {
        st.restoreQueued(Conversions.fromState(t));
      } else {
        st.restoreRunning(Conversions.runningFromState(t));
      }
    }
    if (STAGING_POLICIES.contains(m.getPolicy()) || !staging.mapping().isEmpty()
        || !staging.staged().isEmpty()) {
      restoreStaging(st.staging(), m);
    }
    st.finishRestore();
    restoreCounters(st.counters(), m);
    Policy policy = Policies.create(m.getPolicy(), m.getParams());
    if (policy instanceof StatefulPolicy sp && policyMemory.value() != null) {
      sp.restoreMemory(policyMemory.value());
    }
    Provisioner provisioner = new Provisioner(config.provisioningFor(poolName));
    provisioner.restorePending(m.getPendingNodes());
    p = new Pool(new Scheduler(poolName, st, policy), m, provisioner);
    pools.put(poolName, p);
    meta.update(m);
    scheduleMetrics(ctx.timerService().currentProcessingTime(), ctx);
    LOG.info("pool {}: epoch {}, policy {}, {} nodes, {} queued, {} running", poolName,
        m.getEpoch(), policy.name(), st.nodes().size(), st.queueLength(), st.running().size());
    return p;
  }

  /** Policies that keep scheduler-managed caches and Gantt charts ({@link StagingState}). */
  private static final java.util.Set<String> STAGING_POLICIES =
      java.util.Set.of("MET", "MCT", "SA", "JDPDLL", "ONLINE_HPS");

  private void restoreStaging(StagingState sg, PoolMeta m) throws Exception {
    for (Map.Entry<String, StagedEntry> e : staging.staged().entries()) {
      String key = e.getKey();
      int sep = key.indexOf(FlinkStateJournal.SEP);
      StagedEntry v = e.getValue();
      sg.restoreStagedFile(key.substring(0, sep), key.substring(sep + 1), v.getBytes(),
          v.getInFlight(), v.getLastUse());
    }
    for (Map.Entry<String, FileStat> e : staging.fileStats().entries()) {
      sg.restoreFileStats(e.getKey(), e.getValue().getAccessFreq(), e.getValue().getNumCopies());
    }
    for (Map.Entry<String, Double> e : staging.gantt().entries()) {
      sg.restoreReservation(FlinkStateJournal.ganttNode(e.getKey()),
          FlinkStateJournal.ganttStart(e.getKey()), e.getValue());
    }
    for (Map.Entry<String, String> e : staging.mapping().entries()) {
      sg.restoreMapping(e.getKey(), e.getValue());
    }
    for (Map.Entry<String, NodeStage> e : staging.stages().entries()) {
      sg.restoreStage(e.getKey(), e.getValue().getTaskId(), e.getValue().getPlannedCompletion());
    }
    for (Map.Entry<String, Integer> e : staging.refs().entries()) {
      String key = e.getKey();
      int sep = key.indexOf(FlinkStateJournal.SEP);
      sg.restoreRef(key.substring(0, sep), key.substring(sep + 1), e.getValue());
    }
    if (m.getMode() != null) {
      sg.restoreMode(m.getMode());
    }
    sg.finishRestore();
  }

  private void scheduleMetrics(long nowMs, Context ctx) {
    long every = config.metricsIntervalMs();
    // Aligned to the interval, so re-registering after a restore never starts a second chain.
    ctx.timerService().registerProcessingTimeTimer((nowMs / every + 1) * every);
  }

  private void saveMeta(Pool pool) throws Exception {
    PoolState.Counters c = pool.scheduler.state().counters();
    PoolMeta m = pool.meta;
    m.setPlacements(c.placements);
    m.setCompletions(c.completions);
    m.setFailures(c.failures);
    m.setBytesLocal(c.bytesLocal);
    m.setBytesPeer(c.bytesPeer);
    m.setBytesStorage(c.bytesStorage);
    m.setStagingTransfers(c.stagingTransfers);
    m.setReplicationTransfers(c.replicationTransfers);
    if (pool.scheduler.state().hasStaging()) {
      m.setMode(pool.scheduler.state().staging().mode());
    }
    meta.update(m);
    if (pool.scheduler.policy() instanceof StatefulPolicy sp) {
      String mem = sp.memory();
      if (mem != null && !mem.equals(policyMemory.value())) {
        policyMemory.update(mem);
      }
    }
  }

  private static void restoreCounters(PoolState.Counters c, PoolMeta m) {
    c.placements = m.getPlacements();
    c.completions = m.getCompletions();
    c.failures = m.getFailures();
    c.bytesLocal = m.getBytesLocal();
    c.bytesPeer = m.getBytesPeer();
    c.bytesStorage = m.getBytesStorage();
    c.stagingTransfers = m.getStagingTransfers();
    c.replicationTransfers = m.getReplicationTransfers();
  }

  private void emit(Pool pool, String poolName, List<Command> cmds, Collector<Decision> out) {
    long epoch = pool.meta.getEpoch();
    long time = pool.meta.getClockMs();
    for (Command c : cmds) {
      if (c instanceof Command.Run run) {
        Task t = run.task();
        out.collect(Conversions.toDecision(poolName, epoch, time,
            Dispatch.decisionId(poolName, t.taskId(), t.attempt()), run));
      } else if (c instanceof Command.Evict ev) {
        out.collect(other(pool, poolName, "evict", ev.node(), EvictFiles.newBuilder()
            .setFiles(new ArrayList<>(ev.files())).setReason(ev.reason()).build()));
      } else if (c instanceof Command.Replicate rep) {
        out.collect(other(pool, poolName, "replicate", rep.node(), ReplicateFile.newBuilder()
            .setFileId(rep.unit().id())
            .setBytes(rep.unit().bytes())
            .setSource(FetchSource.valueOf(rep.source().name()))
            .setPeerNode(rep.peer())
            .setLocation(rep.unit().location())
            .setReason(rep.reason())
            .build()));
      }
    }
  }

  /** A non-placement decision; its id comes from a per-pool sequence kept in state (replay-stable). */
  private static Decision other(Pool pool, String poolName, String kind, String node,
      Object action) {
    long seq = pool.meta.getDecisionSeq() + 1;
    pool.meta.setDecisionSeq(seq);
    return Decision.newBuilder()
        .setDecisionId(poolName + "/" + kind + "/" + seq)
        .setEpoch(pool.meta.getEpoch())
        .setPool(poolName)
        .setNode(node)
        .setTimeMs(pool.meta.getClockMs())
        .setAction(action)
        .build();
  }

  private static void advanceClock(PoolMeta m, long eventMs) {
    // The policy clock only moves forward with the events' own times: replay gives the same decisions.
    if (eventMs > m.getClockMs()) {
      m.setClockMs(eventMs);
    }
  }

  private static long eventTime(Object event) {
    if (event instanceof JobSubmitted j) {
      return j.getSubmitTimeMs();
    } else if (event instanceof TaskEvent t) {
      return t.getTimeMs();
    } else if (event instanceof NodeReport r) {
      return r.getTimeMs();
    } else if (event instanceof Control c) {
      return c.getTimeMs();
    }
    return 0;
  }

  private static Map<String, Long> files(List<CachedFile> files) {
    Map<String, Long> out = new LinkedHashMap<>();
    for (CachedFile f : files) {
      out.put(f.getFileId(), f.getBytes());
    }
    return out;
  }
}
