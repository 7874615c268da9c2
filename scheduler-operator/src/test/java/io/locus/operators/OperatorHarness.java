package io.locus.operators;

import io.locus.schemas.Decision;
import io.locus.schemas.internal.SchedulerInput;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.StateBackend;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;

/**
 * The scheduler operator (or another keyed function over scheduler inputs) in Flink's keyed
 * operator test harness, set up the one way every harness test runs it: keyed by pool, as the job
 * keys it; on RocksDB, the deployed backend, so every state access goes through the serializers
 * and a snapshot is a RocksDB one; and with Flink's Kryo fallback off, so a state or record type
 * without a Flink or Avro serializer fails the test instead of being written by Kryo. Other
 * modules' tests and the operator benchmark get it through this module's test-jar.
 */
public final class OperatorHarness {
  private OperatorHarness() {}

  /**
   * A harness around {@code function} on {@code backend}, Kryo off, not yet set up: for callers
   * that choose the backend (the benchmark compares RocksDB with the heap).
   */
  public static KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> create(
      KeyedProcessFunction<String, SchedulerInput, Decision> function, StateBackend backend)
      throws Exception {
    var h = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(function),
        SchedulerInput::getPool, Types.STRING);
    h.setStateBackend(backend);
    ((SerializerConfigImpl) h.getExecutionConfig().getSerializerConfig()).setGenericTypes(false);
    return h;
  }

  /** The scheduler operator with {@code config}, opened on RocksDB with empty state. */
  public static KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> open(
      SchedulerConfig config) throws Exception {
    return open(new SchedulerOperator(config), null);
  }

  /** The scheduler operator with {@code config}, opened on RocksDB from {@code restoreFrom}. */
  public static KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> open(
      SchedulerConfig config, OperatorSubtaskState restoreFrom) throws Exception {
    return open(new SchedulerOperator(config), restoreFrom);
  }

  /**
   * {@code function} opened on RocksDB, from {@code restoreFrom} (a snapshot of an earlier
   * harness) or with empty state when it is null.
   */
  public static KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> open(
      KeyedProcessFunction<String, SchedulerInput, Decision> function,
      OperatorSubtaskState restoreFrom) throws Exception {
    var h = create(function, new EmbeddedRocksDBStateBackend());
    h.setup();
    if (restoreFrom != null) {
      h.initializeState(restoreFrom);
    }
    h.open();
    return h;
  }

  /**
   * What a modelled agent sends when it finishes a placement: a CACHE_DELTA of the inputs it
   * staged (none when every input was local), then COMPLETED one ms later, each wrapped for
   * {@code pool}. {@code cacheSeq} keeps each node's delta sequence across calls.
   */
  public static java.util.List<SchedulerInput> finish(String pool, Decision d,
      io.locus.schemas.PlaceTask p, long clock, java.util.Map<String, Long> cacheSeq) {
    java.util.List<SchedulerInput> out = new java.util.ArrayList<>();
    java.util.List<io.locus.schemas.CachedFile> staged = new java.util.ArrayList<>();
    for (io.locus.schemas.InputPlan i : p.getInputs()) {
      if (!i.getSource().name().equals("LOCAL")) {
        staged.add(new io.locus.schemas.CachedFile(i.getFileId(), i.getBytes()));
      }
    }
    if (!staged.isEmpty()) {
      long seq = cacheSeq.merge(d.getNode(), 1L, Long::sum);
      out.add(wrap(pool, io.locus.schemas.NodeReport.newBuilder().setPool(pool)
          .setNode(d.getNode()).setType(io.locus.schemas.NodeReportType.CACHE_DELTA)
          .setTimeMs(clock).setSeq(seq).setAdded(staged).build()));
    }
    out.add(wrap(pool, io.locus.schemas.TaskEvent.newBuilder().setPool(pool)
        .setTaskId(p.getTaskId()).setJobId(p.getJobId()).setAttempt(p.getAttempt())
        .setNode(d.getNode()).setType(io.locus.schemas.TaskEventType.COMPLETED)
        .setDecisionId(d.getDecisionId()).setTimeMs(clock + 1).build()));
    return out;
  }

  private static SchedulerInput wrap(String pool, Object event) {
    return SchedulerInput.newBuilder().setPool(pool).setEvent(event).build();
  }

  /** The records of side output {@code tag} emitted since the last call, which it clears. */
  public static <T> java.util.List<T> take(
      KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> h,
      org.apache.flink.util.OutputTag<T> tag) {
    java.util.List<T> out = new java.util.ArrayList<>();
    var q = h.getSideOutput(tag);
    if (q != null) {
      q.forEach(r -> out.add(r.getValue()));
      q.clear();
    }
    return out;
  }
}
