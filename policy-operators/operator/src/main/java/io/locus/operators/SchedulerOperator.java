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
import io.locus.core.model.Ids;
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
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
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
 *
 * <p>A pool whose policy is a split policy (FARM, JOB_SPLITTING, CACHE_JOB_SPLITTING, OUT_OF_ORDER,
 * DELAYED, ADAPTIVE_DELAY: splittable event-range jobs, spec cern-job-splitting) is driven by a
 * {@link SplitPoolDriver} instead of {@link Scheduler}. Its state is the driver's snapshot bytes in
 * {@code split-pool}, rewritten after each input that changed it, plus the ids of finished jobs in
 * {@code split-finished-jobs}; nodes are mirrored in {@code nodes} so that a pool can change
 * between file and split policies (when it is idle) without its agents registering again.
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
  /** Split pools: the {@link SplitPoolDriver} snapshot (core included). */
  private transient ValueState<byte[]> splitState;
  /** Split pools: finished job ids → pool clock at their end (duplicate arrivals are rejected). */
  private transient MapState<String, Long> splitFinished;
  private transient Map<String, Pool> pools;

  /**
   * A pool's heap state: the node registry and (file policies) queue in {@link PoolState}, the
   * core {@link Scheduler} over it, or for a split policy the {@link SplitPoolDriver}; and the
   * pool's scalars.
   */
  private static final class Pool {
    final PoolState state;
    /** File policies; null while the pool runs a split policy. */
    Scheduler scheduler;
    /** Split policies; null while the pool runs a file policy. */
    SplitPoolDriver split;
    final PoolMeta meta;
    final Provisioner provisioner;

    Pool(PoolState state, Scheduler scheduler, SplitPoolDriver split, PoolMeta meta,
        Provisioner provisioner) {
      this.state = state;
      this.scheduler = scheduler;
      this.split = split;
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
    splitState = getRuntimeContext().getState(new ValueStateDescriptor<>(
        "split-pool", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
    splitFinished = getRuntimeContext().getMapState(new MapStateDescriptor<>(
        "split-finished-jobs", Types.STRING, Types.LONG));
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
    if (pool.split != null && !(event instanceof Control)) {
      processSplit(pool, poolName, event, in, ctx, out);
      saveMeta(pool);
      return;
    }
    double now = Conversions.seconds(pool.meta.getClockMs());
    List<Command> cmds;
    if (event instanceof JobSubmitted job) {
      Scheduler s = pool.scheduler;
      if (job.getEvents() != null) {
        reject(pool, poolName, in, ctx, "job " + job.getJobId() + " is an event-range job "
            + "(events set) but pool " + poolName + " runs the file policy " + s.policy().name()
            + "; give the pool a split policy: " + String.join(", ",
                io.locus.core.split.SplitParams.POLICIES));
        cmds = s.dispatch(now);
      } else {
        long seq = pool.meta.getNextSeq();
        pool.meta.setNextSeq(seq + 1);
        Task t = Conversions.toTask(job, seq);
        if (!s.state().enqueue(t)) {
          LOG.debug("pool {}: duplicate arrival of {} ignored", poolName, job.getJobId());
        }
        cmds = s.dispatch(now);
      }
    } else if (event instanceof TaskEvent te) {
      cmds = onTaskEvent(pool.scheduler, te, now);
    } else if (event instanceof NodeReport r) {
      cmds = onNodeReport(pool.scheduler, pool.provisioner, r, now);
    } else if (event instanceof Control c) {
      cmds = onControl(pool, poolName, c, in, ctx, out, now);
    } else {
      throw new IllegalArgumentException("unexpected event type " + event.getClass());
    }
    emit(pool, poolName, cmds, out);
    if (pool.scheduler != null) {
      provision(pool, poolName, ctx);
    }
    saveMeta(pool);
  }

  /**
   * An input of a split pool. A record the driver cannot use is rejected with the reason (a dead
   * letter); one that makes the core throw is rejected too, and the driver is rebuilt from the
   * last stored snapshot, so a bad record never kills the job nor leaves half-applied state.
   */
  private void processSplit(Pool pool, String poolName, Object event, SchedulerInput in,
      Context ctx, Collector<Decision> out) throws Exception {
    SplitPoolDriver d = pool.split;
    SplitPoolDriver.Output o;
    try {
      if (event instanceof JobSubmitted job) {
        Long done = job.getEvents() == null ? null : splitFinished.get(job.getJobId());
        o = done == null ? d.onJob(job, pool.meta)
            : withRejection(d.onClock(pool.meta), "duplicate job id " + job.getJobId()
                + ": a job with that id already finished in pool " + poolName);
      } else if (event instanceof TaskEvent te) {
        o = d.onTaskEvent(te, pool.meta);
      } else if (event instanceof NodeReport r) {
        mirrorNode(pool.state, r);
        o = d.onNodeReport(r, pool.meta);
      } else {
        throw new IllegalArgumentException("unexpected event type " + event.getClass());
      }
    } catch (RuntimeException e) {
      LOG.warn("pool {}: split policy {} could not apply {}; state rolled back to the last "
          + "stored snapshot", poolName, d.policy(), event, e);
      reject(pool, poolName, in, ctx, "split pool " + poolName + " (" + d.policy()
          + ") could not apply the record: " + e.getMessage());
      pool.split = SplitPoolDriver.restore(poolName, pool.meta.getPolicy(),
          pool.meta.getParams(), splitState.value());
      return;
    }
    if (o.rejection() != null) {
      reject(pool, poolName, in, ctx, o.rejection());
    }
    for (Decision dec : o.decisions()) {
      out.collect(dec);
    }
    for (io.locus.core.split.JobOutcome f : o.finished()) {
      splitFinished.put(f.jobId(), pool.meta.getClockMs());
    }
    if (o.changed()) {
      splitState.update(d.snapshot());
    }
  }

  private static SplitPoolDriver.Output withRejection(SplitPoolDriver.Output o, String reason) {
    return new SplitPoolDriver.Output(o.decisions(), reason, o.finished(), o.changed());
  }

  /**
   * Split pools keep their nodes in {@link PoolState} too (registrations only: no tasks), so a
   * policy change between families keeps them. A re-registration is ignored, as in the driver.
   */
  private static void mirrorNode(PoolState st, NodeReport r) {
    if (r.getType() == io.locus.schemas.NodeReportType.REGISTER && st.node(r.getNode()) == null) {
      st.registerNode(r.getNode(), Math.max(1, r.getSlots()), r.getCacheCapacityBytes(),
          r.getEndpoint(), Conversions.seconds(r.getTimeMs()));
    } else if (r.getType() == io.locus.schemas.NodeReportType.LEAVE) {
      st.removeNode(r.getNode());
    }
  }

  private void reject(Pool pool, String poolName, SchedulerInput in, Context ctx, String reason) {
    ctx.output(REJECTED, DeadLetter.newBuilder()
        .setSourceTopic(in.getSourceTopic())
        .setPartition(in.getSourcePartition())
        .setOffset(in.getSourceOffset())
        .setKey(ByteBuffer.wrap(poolName.getBytes(StandardCharsets.UTF_8)))
        .setValue(null)
        .setReason(reason)
        .setTimeMs(pool.meta.getClockMs())
        .build());
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

  private List<Command> onControl(Pool pool, String poolName, Control c, SchedulerInput in,
      Context ctx, Collector<Decision> out, double now) throws Exception {
    String problem = null;
    switch (c.getType()) {
      case SET_POLICY -> problem = setPolicy(pool, poolName, c);
      case DRAIN_NODE, RESUME_NODE -> {
        if (pool.split != null) {
          problem = c.getType() + " is not supported by split pools (policy " + pool.split.policy()
              + "): their nodes have one slot each and the policy decides alone what runs there";
        } else if (pool.state.node(c.getNode()) == null) {
          problem = "node '" + c.getNode() + "' is not registered in pool " + poolName;
        } else {
          pool.state.setDraining(c.getNode(), c.getType() == io.locus.schemas.ControlType.DRAIN_NODE);
        }
      }
      default -> problem = "unsupported control " + c.getType();
    }
    if (problem != null) {
      reject(pool, poolName, in, ctx, "control rejected: " + problem);
    }
    if (pool.split != null) {
      // The control's time moved the clock: due timers fire.
      SplitPoolDriver.Output o = pool.split.onClock(pool.meta);
      for (Decision d : o.decisions()) {
        out.collect(d);
      }
      for (io.locus.core.split.JobOutcome f : o.finished()) {
        splitFinished.put(f.jobId(), pool.meta.getClockMs());
      }
      if (o.changed()) {
        splitState.update(pool.split.snapshot());
      }
      return List.of();
    }
    return problem != null ? List.of() : pool.scheduler.dispatch(now);
  }

  /**
   * SET_POLICY. Within a family the change is immediate for file policies; a split pool's core is
   * replaced, which needs the pool idle (no unfinished job: its subjobs and caches live in the
   * core). Between families the pool must be idle too; its registered nodes carry over (a new split
   * core starts with empty range caches). Returns the problem, or null.
   */
  private String setPolicy(Pool pool, String poolName, Control c) throws Exception {
    String name = c.getPolicy();
    Map<String, String> params = new HashMap<>(c.getParams());
    try {
      if (SplitPoolDriver.isSplitPolicy(name)) {
        String canonical = SplitPoolDriver.canonical(name);
        SplitPoolDriver.validate(canonical, params);
        if (pool.split != null && canonical.equals(pool.meta.getPolicy())
            && params.equals(pool.meta.getParams())) {
          return null; // the policy it has: nothing to change
        }
        String busy = busy(pool, poolName);
        if (busy != null) {
          return busy + "; set a split policy when it is idle";
        }
        List<String> nodes = new ArrayList<>();
        for (NodeView n : pool.state.nodes()) {
          nodes.add(n.id());
        }
        nodes.sort(Ids.ORDER);
        SplitPoolDriver d = SplitPoolDriver.create(poolName, canonical, params, nodes);
        pool.split = d;
        pool.scheduler = null;
        pool.meta.setPolicy(canonical);
        pool.meta.setParams(params);
        splitState.update(d.snapshot());
        return null;
      }
      Policy p = Policies.create(name, params);
      if (pool.split != null) {
        String busy = busy(pool, poolName);
        if (busy != null) {
          return busy + "; set a file policy when it is idle";
        }
        pool.split = null;
        splitState.clear();
        restoreCounters(pool.state.counters(), pool.meta); // the split pool's counts go on
        pool.scheduler = new Scheduler(poolName, pool.state, p);
      } else {
        pool.scheduler.setPolicy(p);
      }
      pool.meta.setPolicy(p.name());
      pool.meta.setParams(params);
      return null;
    } catch (IllegalArgumentException e) {
      return e.getMessage();
    }
  }

  /** Why the pool cannot change its policy family now, or null when it is idle. */
  private static String busy(Pool pool, String poolName) {
    if (pool.split != null) {
      int n = pool.split.activeJobs();
      return n == 0 ? null : "split pool " + poolName + " has " + n + " unfinished job(s)";
    }
    PoolState st = pool.state;
    if (st.queueLength() > 0 || !st.running().isEmpty()) {
      return "pool " + poolName + " has " + st.queueLength() + " queued and "
          + st.running().size() + " running task(s)";
    }
    return null;
  }

  @Override
  public void onTimer(long timestamp, OnTimerContext ctx, Collector<Decision> out)
      throws Exception {
    String poolName = ctx.getCurrentKey();
    Pool pool = pool(poolName, ctx);
    PoolMeta m = pool.meta;
    SchedulerMetrics.Builder b = SchedulerMetrics.newBuilder()
        .setPool(poolName)
        .setTimeMs(timestamp)
        .setEpoch(m.getEpoch());
    if (pool.split != null) {
      // Split pools: one slot per node; a task is a subjob; bytes are events x eventBytes, counted
      // when a job finishes.
      SplitPoolDriver d = pool.split;
      int running = d.running();
      b.setPolicy(d.policy())
          .setQueueLength(d.queued())
          .setRunningTasks(running)
          .setRegisteredNodes(d.nodeIds().size())
          .setTotalSlots(d.nodeIds().size())
          .setBusySlots(running)
          .setPlacements(m.getPlacements())
          .setCompletions(m.getCompletions())
          .setFailures(m.getFailures())
          .setBytesLocal(m.getBytesLocal())
          .setBytesPeer(m.getBytesPeer())
          .setBytesStorage(m.getBytesStorage());
    } else {
      PoolState st = pool.scheduler.state();
      PoolState.Counters c = st.counters();
      b.setPolicy(pool.scheduler.policy().name())
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
          .setBytesStorage(c.bytesStorage);
    }
    ctx.output(METRICS, b.build());
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
    Provisioner provisioner = new Provisioner(config.provisioningFor(poolName));
    provisioner.restorePending(m.getPendingNodes());
    if (SplitPoolDriver.isSplitPolicy(m.getPolicy())) {
      byte[] saved = splitState.value();
      SplitPoolDriver d;
      if (saved == null) {
        List<String> ids = new ArrayList<>();
        for (NodeView n : st.nodes()) {
          ids.add(n.id());
        }
        ids.sort(Ids.ORDER);
        d = SplitPoolDriver.create(poolName, m.getPolicy(), m.getParams(), ids);
        splitState.update(d.snapshot());
      } else {
        d = SplitPoolDriver.restore(poolName, m.getPolicy(), m.getParams(), saved);
      }
      p = new Pool(st, null, d, m, provisioner);
      LOG.info("pool {}: epoch {}, split policy {}, {} nodes, {} unfinished jobs, {} waiting "
          + "(queued subjobs and jobs not yet cut)", poolName, m.getEpoch(), d.policy(), d.nodeIds().size(), d.activeJobs(),
          d.queued());
    } else {
      Policy policy = Policies.create(m.getPolicy(), m.getParams());
      if (policy instanceof StatefulPolicy sp && policyMemory.value() != null) {
        sp.restoreMemory(policyMemory.value());
      }
      p = new Pool(st, new Scheduler(poolName, st, policy), null, m, provisioner);
      LOG.info("pool {}: epoch {}, policy {}, {} nodes, {} queued, {} running", poolName,
          m.getEpoch(), policy.name(), st.nodes().size(), st.queueLength(), st.running().size());
    }
    pools.put(poolName, p);
    meta.update(m);
    scheduleMetrics(ctx.timerService().currentProcessingTime(), ctx);
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
    if (pool.scheduler == null) {
      meta.update(pool.meta); // split pools keep their counters in PoolMeta itself
      return;
    }
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
