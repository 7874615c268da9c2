package io.locus.operators;

import io.locus.core.model.PendingCode;
import io.locus.core.state.PoolState;
import io.locus.schemas.Control;
import io.locus.schemas.ControlAck;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.Decision;
import io.locus.schemas.JobCommand;
import io.locus.schemas.JobStatus;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.NodeStatus;
import io.locus.schemas.ScaleRequest;
import io.locus.schemas.SchedulerMetrics;
import io.locus.schemas.ShadowDecision;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.internal.SchedulerInput;
import io.locus.schemas.state.PoolMeta;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import io.locus.schemas.codec.DeadLetterCodes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.apache.flink.formats.avro.typeutils.AvroTypeInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler, keyed by pool. It routes each input to its pool's {@link PoolDriver} (one per
 * policy family: {@link FilePoolDriver}, {@link SplitPoolDriver}; {@link PoolDrivers} picks and
 * changes it), emits what the driver returns — decisions on the main output (keyed downstream by
 * node), rejections as dead letters, scale requests — and emits each pool's metrics on a
 * processing-time timer.
 *
 * <p>State lives in keyed state ({@link PoolStore}), written through as it changes; the heap
 * {@link ScheduledPool} is a cache rebuilt on first use after a (re)start, which also starts a new
 * scheduler epoch. The policy clock is the largest event time the pool has seen, never the wall
 * clock, so a replay gives the same decisions.
 *
 * <p>Every input passes the {@link InputGate} first (declared pools, time bounds, node signatures
 * and proofs of placement, liveness, node ownership, job id retention); every decision leaves
 * through {@link DecisionStamp} (owner instance, proof of placement, signature).
 */
public class SchedulerOperator extends KeyedProcessFunction<String, SchedulerInput, Decision> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(SchedulerOperator.class);

  public static final OutputTag<SchedulerMetrics> METRICS =
      new OutputTag<>("scheduler-metrics", new AvroTypeInfo<>(SchedulerMetrics.class));
  /** Dynamic provisioning: requests for an external autoscaler. */
  public static final OutputTag<ScaleRequest> SCALE_REQUESTS =
      new OutputTag<>("scale-requests", new AvroTypeInfo<>(ScaleRequest.class));
  /** The answer to every control record (applied or refused), to control-acks. */
  public static final OutputTag<ControlAck> CONTROL_ACKS =
      new OutputTag<>("control-acks", new AvroTypeInfo<>(ControlAck.class));
  /** Shadow policies' would-be placements with their scores, to shadow-decisions. */
  public static final OutputTag<ShadowDecision> SHADOW_DECISIONS =
      new OutputTag<>("shadow-decisions", new AvroTypeInfo<>(ShadowDecision.class));
  /** The scheduler's verdicts about nodes ({@link NodeVerdicts}), to node-status. */
  public static final OutputTag<NodeStatus> NODE_STATUS =
      new OutputTag<>("node-status", new AvroTypeInfo<>(NodeStatus.class));
  /**
   * Every transition of every job (queued, placed, running, completed, failed, cancelled), to
   * job-status ({@link JobStatuses}); stamped with the pool's record clock.
   */
  public static final OutputTag<JobStatus> JOB_STATUS =
      new OutputTag<>("job-status", new AvroTypeInfo<>(JobStatus.class));
  /** Well-formed records the scheduler cannot act on (e.g. an unknown policy): to dead-letters. */
  public static final OutputTag<DeadLetter> REJECTED =
      new OutputTag<>("scheduler-rejected", new AvroTypeInfo<>(DeadLetter.class));

  private final SchedulerConfig config;

  private transient PoolStore store;
  private transient Map<String, ScheduledPool> pools;
  private transient GateMetrics metrics;
  private transient InputGate gate;
  private transient DecisionStamp stamp;
  private transient Map<String, ShadowMetrics> shadowMetrics;
  private transient JobWorkflows jobWorkflows;

  public SchedulerOperator(SchedulerConfig config) {
    this.config = config;
  }

  @Override
  public void open(OpenContext openContext) {
    store = new PoolStore(getRuntimeContext());
    pools = new HashMap<>();
    metrics = new GateMetrics(getRuntimeContext().getMetricGroup());
    gate = new InputGate(config, metrics);
    stamp = new DecisionStamp(config.decisionSecret(), config.nodeSecret());
    shadowMetrics = new HashMap<>();
    jobWorkflows = new JobWorkflows(store.jobWorkflows);
    if (config.pools().isEmpty()) {
      LOG.warn("no pools declared: records for any pool are accepted (declare them to refuse "
          + "unknown pools)");
    }
  }

  /** The operator's counters (tests read them). */
  GateMetrics gateMetrics() {
    return metrics;
  }

  /** A pool's Flink metrics, or null before its first record (tests read them). */
  PoolMetrics poolMetrics(String pool) {
    return metrics.poolOrNull(pool);
  }

  private static int drainingNodes(ScheduledPool pool) {
    int n = 0;
    for (var node : pool.state.nodes()) {
      if (node.draining()) {
        n++;
      }
    }
    return n;
  }

  @Override
  public void processElement(SchedulerInput in, Context ctx, Collector<Decision> out)
      throws Exception {
    String name = ctx.getCurrentKey();
    String unknown = gate.poolProblem(name);
    if (unknown != null) {
      // before pool(): no state is created for a pool this scheduler does not run
      reject(ctx, in, name, 0, new PoolOutput.Rejection(DeadLetterCodes.UNKNOWN_POOL, unknown));
      if (in.getEvent() instanceof Control c) {
        ctx.output(CONTROL_ACKS, PoolControl.refusedAtGate(name, c, null, unknown));
      } else if (in.getEvent() instanceof NodeReport r && r.getType() == NodeReportType.REGISTER) {
        ctx.output(NODE_STATUS, NodeVerdicts.refused(name, r.getNode(), r.getInstanceId(),
            DeadLetterCodes.UNKNOWN_POOL, unknown, r.getTimeMs(), 0));
      }
      if (in.getEvent() instanceof JobSubmitted j && j.getWorkflow() != null) {
        // its runner would wait forever otherwise (see workflowRefusal)
        ctx.output(JOB_STATUS,
            JobStatuses.refused(name, 0, 0, j, DeadLetterCodes.UNKNOWN_POOL, unknown));
      }
      return;
    }
    ScheduledPool pool = pool(name, ctx);
    Object event = in.getEvent();
    NodeVerdicts.Before before = event instanceof NodeReport r
        ? NodeVerdicts.Before.of(pool, r.getNode()) : null;
    PoolOutput o = gate.admit(pool, event, in.getSourceTimestampMs(),
        () -> route(pool, name, event));
    if (event instanceof NodeReport r) {
      NodeVerdicts.afterReport(pool, r, before, o);
    }
    for (NodeStatus s : o.verdicts()) {
      ctx.output(NODE_STATUS, s);
    }
    for (PoolOutput.Rejection r : o.deadLetters()) {
      reject(ctx, in, name, pool.meta.getClockMs(), r);
    }
    if (event instanceof JobSubmitted j && o.rejections().isEmpty()) {
      pool.queues.accepted(j); // before its QUEUED status, which names the queue
    }
    for (JobStatus s : o.statuses()) {
      jobWorkflows.stamp(name, s);
      pool.queues.stamp(s);
      ctx.output(JOB_STATUS, s);
    }
    if (event instanceof JobSubmitted j && j.getWorkflow() != null && !o.rejections().isEmpty()
        && !DeadLetterCodes.UNKNOWN_QUEUE.equals(o.rejections().get(0).code())) {
      PoolOutput.Rejection fails = workflowRefusal(pool, name, j, o.rejections().get(0));
      if (fails != null) {
        ctx.output(JOB_STATUS, JobStatuses.refused(name, pool.meta.getClockMs(),
            pool.meta.getEpoch(), j, fails.code(), fails.reason()));
      }
    }
    PoolMetrics pm = metrics.pool(name);
    long now = ctx.timerService().currentProcessingTime();
    for (Decision d : o.decisions()) {
      out.collect(stamp.stamp(d, pool.registry.owner(d.getNode())));
      pm.decided(d, in.getSourceTimestampMs(), now);
    }
    pm.follow(pool.meta);
    pm.paused(pool.paused()); // PAUSE_POOL / RESUME_POOL, or the flag restored with the pool
    for (ScaleRequest r : o.scaleRequests()) {
      ctx.output(SCALE_REQUESTS, r);
    }
    shadow(ctx, pool, event, o);
    acknowledge(ctx, name, pool, event, o);
    store.flush(name);
    store.saveMeta(pool.meta);
  }

  /**
   * A workflow job the scheduler refused (an invalid job, an id seen within the retention window)
   * fails for good: its workflow runner learns it from job-status, the only thing it reads back,
   * and applies the workflow's failure policy instead of waiting forever for a job that will
   * never run. A job outside workflows gets its dead letter only. Returns the refusal to publish
   * as the job's FAILED status, or null for none.
   *
   * <p>A duplicate id is not a failure when the earlier arrival was a job of the same workflow:
   * that is the same submission delivered again (the runner's at-least-once release after a
   * restore), and the job it names is running or ran. Any other owner of the id (another
   * workflow, finished or not: a workflow run again under a new id; a job outside workflows)
   * fails the job, naming that owner. The ledger ({@link JobLedger#workflowOf}) knows the owner
   * for the whole retention window; an id it recorded before it kept workflows is looked up
   * among the unfinished jobs' workflows ({@link JobWorkflows}). (The FAILED record replaces the
   * earlier job's latest status on the compacted topic; its workflow and reason say which
   * submission it was.)
   */
  private PoolOutput.Rejection workflowRefusal(ScheduledPool pool, String name, JobSubmitted j,
      PoolOutput.Rejection r) throws Exception {
    if (!DeadLetterCodes.DUPLICATE_JOB.equals(r.code())) {
      return r;
    }
    String earlier = pool.ledger.workflowOf(j.getJobId());
    if (earlier == null) {
      earlier = jobWorkflows.workflowOf(name, j.getJobId());
    }
    if (j.getWorkflow().equals(earlier)) {
      return null;
    }
    String owner = earlier == null ? "a job outside workflows"
        : "a job of workflow '" + InputGate.shown(earlier) + "'";
    return new PoolOutput.Rejection(r.code(), r.reason() + "; that job was " + owner
        + ", so workflow '" + InputGate.shown(j.getWorkflow()) + "' cannot run its job '"
        + InputGate.shown(j.getJobId()) + "' (a workflow run again needs new job ids)");
  }

  /** An input that passed the gate, to its pool's driver. */
  private PoolOutput route(ScheduledPool pool, String name, Object event) throws Exception {
    if (event instanceof JobSubmitted job) {
      String refusal = pool.queues.refusal(job);
      if (refusal != null) {
        return unknownQueue(pool, name, job, refusal);
      }
      return pool.driver.onJob(job, pool.meta);
    } else if (event instanceof TaskEvent te) {
      return pool.driver.onTaskEvent(te, pool.meta);
    } else if (event instanceof NodeReport r) {
      return pool.driver.onNodeReport(r, pool.meta);
    } else if (event instanceof Control c) {
      return control(pool, name, c);
    } else if (event instanceof JobCommand c) {
      // the ledger says whether the job ever arrived (within retention): finished vs unknown
      return pool.driver.onJobCommand(c,
          pool.ledger.arrivedWithin(c.getJobId(), pool.meta.getClockMs()) != null, pool.meta);
    }
    throw new IllegalArgumentException("unexpected event type " + event.getClass());
  }

  /**
   * A job naming a queue that is not a leaf of the pool's tree (with no tree configured: any queue
   * but the default one) is refused, never run in the default queue instead (see {@link
   * io.locus.core.share.QueueTree#resolve} for why): a dead letter {@code unknown-queue}, and a
   * FAILED status, for a job in a workflow or not, so {@code locus job status} says why. (Its id
   * is not recorded as arrived: the job may be sent again once the queue exists.)
   */
  private static PoolOutput unknownQueue(ScheduledPool pool, String name, JobSubmitted job,
      String refusal) {
    return PoolOutput.rejected(DeadLetterCodes.UNKNOWN_QUEUE, refusal)
        .status(JobStatuses.refusedQueue(name, pool.meta, job, refusal));
  }

  /**
   * The pool's shadow policies see what the real driver accepted (not what it refused), after
   * the real pool has changed; a SET_POLICY that moved the pool to a split policy ends them.
   */
  private void shadow(Context ctx, ScheduledPool pool, Object event, PoolOutput o) {
    if (pool.shadows == null || !o.rejections().isEmpty()) {
      return;
    }
    String active = pool.driver.policy();
    if (SplitPoolParams.isSplitPolicy(active)) {
      pool.shadows = null;
      return;
    }
    for (ShadowDecision d : pool.shadows.onInput(event, pool.meta, pool.state, active,
        o.decisions())) {
      ctx.output(SHADOW_DECISIONS, d);
    }
  }

  /**
   * SET_POLICY, PAUSE_POOL, RESUME_POOL, DRAIN_NODE, RESUME_NODE, SET_QUEUES ({@link
   * PoolControl}); a control
   * that cannot apply is a dead letter, and every control is acknowledged.
   */
  private PoolOutput control(ScheduledPool pool, String name, Control c) throws Exception {
    return PoolControl.apply(pool, c, config, store);
  }

  /**
   * Every control gets one ControlAck: the one {@link PoolControl} made, or, for a control the
   * gate refused before the pool saw it (a time out of bounds), a refusal with the gate's reason.
   */
  private void acknowledge(Context ctx, String name, ScheduledPool pool, Object event,
      PoolOutput o) {
    if (!(event instanceof Control c)) {
      return;
    }
    if (o.acks().isEmpty()) {
      String why = o.rejection() != null ? o.rejection() : "not applied";
      ctx.output(CONTROL_ACKS, PoolControl.refusedAtGate(name, c, pool, why));
      return;
    }
    for (ControlAck a : o.acks()) {
      ctx.output(CONTROL_ACKS, a);
    }
  }

  @Override
  public void onTimer(long timestamp, OnTimerContext ctx, Collector<Decision> out)
      throws Exception {
    String name = ctx.getCurrentKey();
    ScheduledPool pool = pool(name, ctx);
    SchedulerMetrics.Builder b = SchedulerMetrics.newBuilder()
        .setPool(name)
        .setTimeMs(timestamp)
        .setEpoch(pool.meta.getEpoch());
    pool.driver.metrics(b, pool.meta);
    b.setQueues(new ArrayList<>(pool.queues.configs()));
    // each queue's standing (issue 24); a split pool's subjobs are not queued by tenant: none
    if (pool.driver instanceof FilePoolDriver) {
      b.setQueueUsage(QueueUsages.of(name, pool.state,
          Conversions.seconds(pool.meta.getClockMs())));
    }
    int draining = drainingNodes(pool);
    b.setPendingReason(PendingReason.of(name, b.getQueueLength(), pool.paused(),
        b.getRegisteredNodes(), draining));
    // the pool-wide reason, when one applies, is every queued task's first code (a split pool's
    // core knows nothing of pauses and drains, the registry does)
    PendingCode wide = PendingReason.poolWide(pool.paused(), b.getRegisteredNodes(), draining);
    if (wide != null && b.getQueueLength() > 0) {
      b.setPendingByCode(Map.of(wide.code(), (long) b.getQueueLength()));
    }
    // queued jobs whose reason changed since their last status (bounded per tick)
    for (JobStatus s : pool.driver.pendingStatuses()) {
      jobWorkflows.stamp(name, s);
      ctx.output(JOB_STATUS, s);
    }
    store.flush(name);
    SchedulerMetrics snapshot = b.build();
    metrics.pool(name).refresh(snapshot, drainingNodes(pool));
    metrics.pool(name).paused(pool.paused());
    ctx.output(METRICS, snapshot);
    scheduleMetrics(ctx.timerService().currentProcessingTime(), ctx);
  }

  /** The pool's heap state, rebuilt from keyed state on first use (a new epoch starts then). */
  private ScheduledPool pool(String name, Context ctx) throws Exception {
    ScheduledPool p = pools.get(name);
    if (p != null) {
      return p;
    }
    PoolMeta m = store.meta();
    if (m == null) {
      SchedulerConfig.PolicySpec spec = config.policyFor(name);
      m = PoolMeta.newBuilder()
          .setEpoch(1)
          .setNextSeq(1)
          .setPolicy(spec.name())
          .setParams(new HashMap<>(spec.params()))
          .build();
    } else {
      m.setEpoch(m.getEpoch() + 1);
    }
    PoolState st = new PoolState(store.journal(name), config.maxRetries(),
        config.retryBackoff());
    store.load(st, m);
    List<String> nodes = new ArrayList<>();
    st.nodes().forEach(n -> nodes.add(n.id()));
    PoolMeta loaded = m;
    p = new ScheduledPool(name, m, st, PoolDrivers.open(name, m, st, config, store),
        NodeRegistry.load(store.registry, nodes,
            r -> InputGate.livenessOnLoad(loaded, r, !nodes.isEmpty())),
        store.ledger(config.jobRetentionMs()), store.queues());
    LOG.info("pool {}: epoch {}, policy {}, {} nodes, {} queued tasks, {} running; {}", name,
        m.getEpoch(), p.driver.policy(), st.nodes().size(), st.queueLength(),
        st.running().size(), p.driver.busy() == null ? "idle" : p.driver.busy());
    p.shadows = PoolShadows.open(name, m, st, p.driver.policy(), config.shadowsFor(name),
        config.maxRetries(), config.shadowTimeScale(), shadowMetrics(name));
    pools.put(name, p);
    metrics.pool(name).follow(m); // its counters count from here
    store.saveMeta(m);
    scheduleMetrics(ctx.timerService().currentProcessingTime(), ctx);
    return p;
  }

  private ShadowMetrics shadowMetrics(String pool) {
    return shadowMetrics.computeIfAbsent(pool,
        p -> new ShadowMetrics(getRuntimeContext().getMetricGroup(), p));
  }

  /** A pool's shadow metrics (tests read them), or null. */
  ShadowMetrics shadowMetricsOrNull(String pool) {
    return shadowMetrics.get(pool);
  }

  private void scheduleMetrics(long nowMs, Context ctx) {
    long every = config.metricsIntervalMs();
    // Aligned to the interval, so re-registering after a restore never starts a second chain.
    ctx.timerService().registerProcessingTimeTimer((nowMs / every + 1) * every);
  }

  private void reject(Context ctx, SchedulerInput in, String pool, long clockMs,
      PoolOutput.Rejection rejection) {
    metrics.deadLetter(rejection.code());
    ctx.output(REJECTED, DeadLetter.newBuilder()
        .setSourceTopic(in.getSourceTopic())
        .setPartition(in.getSourcePartition())
        .setOffset(in.getSourceOffset())
        .setKey(ByteBuffer.wrap(pool.getBytes(StandardCharsets.UTF_8)))
        .setValue(null)
        .setReason(rejection.reason())
        .setCode(rejection.code())
        .setTimeMs(clockMs)
        .build());
  }
}
