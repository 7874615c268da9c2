package io.locus.operators;

import io.locus.core.state.PoolState;
import io.locus.schemas.Control;
import io.locus.schemas.ControlType;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.Decision;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.ScaleRequest;
import io.locus.schemas.SchedulerMetrics;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.internal.SchedulerInput;
import io.locus.schemas.state.PoolMeta;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
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
 * {@link Pool} is a cache rebuilt on first use after a (re)start, which also starts a new
 * scheduler epoch. The policy clock is the largest event time the pool has seen, never the wall
 * clock, so a replay gives the same decisions.
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

  private transient PoolStore store;
  private transient Map<String, Pool> pools;

  /**
   * A pool's heap state: its scalars, its node registry (and, for file policies, queue) and the
   * driver of its policy family.
   */
  private static final class Pool {
    final PoolMeta meta;
    final PoolState state;
    PoolDriver driver;

    Pool(PoolMeta meta, PoolState state, PoolDriver driver) {
      this.meta = meta;
      this.state = state;
      this.driver = driver;
    }
  }

  public SchedulerOperator(SchedulerConfig config) {
    this.config = config;
  }

  @Override
  public void open(OpenContext openContext) {
    store = new PoolStore(getRuntimeContext());
    pools = new HashMap<>();
  }

  @Override
  public void processElement(SchedulerInput in, Context ctx, Collector<Decision> out)
      throws Exception {
    String name = ctx.getCurrentKey();
    Pool pool = pool(name, ctx);
    Object event = in.getEvent();
    advanceClock(pool.meta, eventTime(event));
    PoolOutput o;
    if (event instanceof JobSubmitted job) {
      o = pool.driver.onJob(job, pool.meta);
    } else if (event instanceof TaskEvent te) {
      o = pool.driver.onTaskEvent(te, pool.meta);
    } else if (event instanceof NodeReport r) {
      o = pool.driver.onNodeReport(r, pool.meta);
    } else if (event instanceof Control c) {
      o = control(pool, name, c);
    } else {
      throw new IllegalArgumentException("unexpected event type " + event.getClass());
    }
    for (PoolOutput.Rejection r : o.rejections()) {
      ctx.output(REJECTED, deadLetter(in, name, pool.meta, r));
    }
    o.decisions().forEach(out::collect);
    for (ScaleRequest r : o.scaleRequests()) {
      ctx.output(SCALE_REQUESTS, r);
    }
    store.saveMeta(pool.meta);
  }

  /** SET_POLICY, DRAIN_NODE, RESUME_NODE; a control that cannot apply is a dead letter. */
  private PoolOutput control(Pool pool, String name, Control c) throws Exception {
    String problem = null;
    ControlType type = c.getType();
    if (type == ControlType.SET_POLICY) {
      try {
        pool.driver = PoolDrivers.change(name, pool.driver, pool.meta, pool.state, c, config,
            store);
      } catch (IllegalArgumentException e) {
        problem = e.getMessage();
      }
    } else if (type == ControlType.DRAIN_NODE || type == ControlType.RESUME_NODE) {
      problem = pool.driver.drain(c.getNode(), type == ControlType.DRAIN_NODE);
    } else {
      problem = "unsupported control " + type;
    }
    PoolOutput o = problem == null ? new PoolOutput()
        : PoolOutput.rejected("control rejected: " + problem);
    return o.add(pool.driver.afterControl(pool.meta, problem == null));
  }

  @Override
  public void onTimer(long timestamp, OnTimerContext ctx, Collector<Decision> out)
      throws Exception {
    String name = ctx.getCurrentKey();
    Pool pool = pool(name, ctx);
    SchedulerMetrics.Builder b = SchedulerMetrics.newBuilder()
        .setPool(name)
        .setTimeMs(timestamp)
        .setEpoch(pool.meta.getEpoch());
    pool.driver.metrics(b, pool.meta);
    ctx.output(METRICS, b.build());
    scheduleMetrics(ctx.timerService().currentProcessingTime(), ctx);
  }

  /** The pool's heap state, rebuilt from keyed state on first use (a new epoch starts then). */
  private Pool pool(String name, Context ctx) throws Exception {
    Pool p = pools.get(name);
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
    PoolState st = new PoolState(store.journal(name), config.maxRetries());
    store.load(st, m);
    p = new Pool(m, st, PoolDrivers.open(name, m, st, config, store));
    LOG.info("pool {}: epoch {}, policy {}, {} nodes, {} queued tasks, {} running; {}", name,
        m.getEpoch(), p.driver.policy(), st.nodes().size(), st.queueLength(),
        st.running().size(), p.driver.busy() == null ? "idle" : p.driver.busy());
    pools.put(name, p);
    store.saveMeta(m);
    scheduleMetrics(ctx.timerService().currentProcessingTime(), ctx);
    return p;
  }

  private void scheduleMetrics(long nowMs, Context ctx) {
    long every = config.metricsIntervalMs();
    // Aligned to the interval, so re-registering after a restore never starts a second chain.
    ctx.timerService().registerProcessingTimeTimer((nowMs / every + 1) * every);
  }

  private static DeadLetter deadLetter(SchedulerInput in, String pool, PoolMeta meta,
      PoolOutput.Rejection rejection) {
    return DeadLetter.newBuilder()
        .setSourceTopic(in.getSourceTopic())
        .setPartition(in.getSourcePartition())
        .setOffset(in.getSourceOffset())
        .setKey(ByteBuffer.wrap(pool.getBytes(StandardCharsets.UTF_8)))
        .setValue(null)
        .setReason(rejection.reason())
        .setCode(rejection.code())
        .setTimeMs(meta.getClockMs())
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
}
