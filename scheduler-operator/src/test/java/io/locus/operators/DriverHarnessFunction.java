package io.locus.operators;

import io.locus.core.state.PoolState;
import io.locus.schemas.Control;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.Decision;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.internal.SchedulerInput;
import io.locus.schemas.state.PoolMeta;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.formats.avro.typeutils.AvroTypeInfo;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * For driver tests in Flink's harness: routes inputs to a pool's driver as {@link
 * SchedulerOperator} does (same keyed state, same drivers), and turns a DRAIN_NODE control whose
 * policy is {@value #LOST} into {@link PoolDriver#onNodeLost} (the liveness timer that calls it
 * belongs to the operator). Rejections go to {@link #REJECTED} with their code.
 */
class DriverHarnessFunction extends KeyedProcessFunction<String, SchedulerInput, Decision> {
  static final String LOST = "lost";
  static final OutputTag<DeadLetter> REJECTED =
      new OutputTag<>("rejected", new AvroTypeInfo<>(DeadLetter.class));

  private final SchedulerConfig config;
  private transient PoolStore store;
  private transient Map<String, Object[]> pools;

  DriverHarnessFunction(SchedulerConfig config) {
    this.config = config;
  }

  @Override
  public void open(OpenContext ctx) {
    store = new PoolStore(getRuntimeContext());
    pools = new HashMap<>();
  }

  @Override
  public void processElement(SchedulerInput in, Context ctx, Collector<Decision> out)
      throws Exception {
    String name = ctx.getCurrentKey();
    Object[] p = pools.get(name);
    if (p == null) {
      PoolMeta m = store.meta();
      if (m == null) {
        SchedulerConfig.PolicySpec spec = config.policyFor(name);
        m = PoolMeta.newBuilder().setEpoch(1).setNextSeq(1).setPolicy(spec.name())
            .setParams(new HashMap<>(spec.params())).build();
      } else {
        m.setEpoch(m.getEpoch() + 1);
      }
      PoolState st = new PoolState(store.journal(name), config.maxRetries(),
          config.retryBackoff());
      store.load(st, m);
      p = new Object[] {m, PoolDrivers.open(name, m, st, config, store)};
      pools.put(name, p);
    }
    PoolMeta meta = (PoolMeta) p[0];
    PoolDriver driver = (PoolDriver) p[1];
    Object e = in.getEvent();
    long t = e instanceof JobSubmitted j ? j.getSubmitTimeMs()
        : e instanceof TaskEvent te ? te.getTimeMs()
        : e instanceof NodeReport r ? r.getTimeMs() : ((Control) e).getTimeMs();
    meta.setClockMs(Math.max(meta.getClockMs(), t));
    PoolOutput o;
    if (e instanceof JobSubmitted j) {
      o = driver.onJob(j, meta);
    } else if (e instanceof TaskEvent te) {
      o = driver.onTaskEvent(te, meta);
    } else if (e instanceof NodeReport r) {
      o = driver.onNodeReport(r, meta);
    } else if (e instanceof Control c && LOST.equals(c.getPolicy())) {
      o = driver.onNodeLost(c.getNode(), meta);
    } else {
      throw new IllegalArgumentException("unsupported input " + e);
    }
    for (PoolOutput.Rejection r : o.deadLetters()) {
      ctx.output(REJECTED, DeadLetter.newBuilder().setSourceTopic("test").setPartition(0)
          .setOffset(0).setKey(null).setValue(null).setReason(r.reason()).setCode(r.code())
          .setTimeMs(meta.getClockMs()).build());
    }
    o.decisions().forEach(out::collect);
    store.flush(name);
    store.saveMeta(meta);
  }
}
