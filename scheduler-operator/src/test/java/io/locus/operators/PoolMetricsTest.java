package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.CachedFile;
import io.locus.schemas.Control;
import io.locus.schemas.ControlType;
import io.locus.schemas.DataUnit;
import io.locus.schemas.Decision;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.codec.DeadLetterCodes;
import io.locus.schemas.internal.SchedulerInput;
import java.util.List;
import java.util.Map;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The scheduler's per-pool Flink metrics ({@link PoolMetrics}) in the operator's test harness, on
 * RocksDB: what each series reads after a known sequence of inputs.
 */
@Timeout(60)
class PoolMetricsTest {
  private static final String POOL = "pool-m";
  private static final long MB = 1_000_000L;
  /** Kafka timestamp of every input here; processing time runs ahead of it by the latency. */
  private static final long KAFKA_TS = 10_000;

  private SchedulerOperator operator;
  private KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> harness;

  private void start(String policy) throws Exception {
    operator = new SchedulerOperator(new SchedulerConfig(
        new SchedulerConfig.PolicySpec(policy, Map.of()), Map.of(), 1000, 3));
    harness = OperatorHarness.open(operator, null);
  }

  @AfterEach
  void close() throws Exception {
    if (harness != null) {
      harness.close();
    }
  }

  private static SchedulerInput in(Object event) {
    return SchedulerInput.newBuilder().setPool(POOL).setEvent(event)
        .setSourceTimestampMs(KAFKA_TS).build();
  }

  private void send(Object event, long t) throws Exception {
    harness.processElement(in(event), t);
  }

  private static NodeReport register(String node, long t) {
    return NodeReport.newBuilder().setPool(POOL).setNode(node).setType(NodeReportType.REGISTER)
        .setTimeMs(t).setSlots(1).setCacheCapacityBytes(1000 * MB).build();
  }

  private static JobSubmitted job(String id, String file, long t) {
    return JobSubmitted.newBuilder().setJobId(id).setPool(POOL).setSubmitTimeMs(t)
        .setInputs(List.of(DataUnit.newBuilder().setId(file).setBytes(10 * MB).build()))
        .setComputeSeconds(1.0).build();
  }

  private static TaskEvent event(String task, String node, TaskEventType type, long t) {
    return event(task, 0, node, type, t);
  }

  private static TaskEvent event(String task, int attempt, String node, TaskEventType type,
      long t) {
    return TaskEvent.newBuilder().setPool(POOL).setTaskId(task).setJobId(task).setAttempt(attempt)
        .setNode(node).setType(type).setTimeMs(t)
        .setDecisionId(POOL + "/" + task + "/" + attempt).build();
  }

  private List<Decision> placements() {
    List<Decision> out = harness.extractOutputValues().stream()
        .filter(d -> d.getAction() instanceof PlaceTask).toList();
    harness.getOutput().clear();
    return out;
  }

  @Test
  void placementsLatencyBytesQueueAndHitRatios() throws Exception {
    start("MCH");
    harness.setProcessingTime(KAFKA_TS + 100);
    send(register("n1", 1), 1);
    send(register("n2", 1), 2);
    send(NodeReport.newBuilder().setPool(POOL).setNode("n2").setType(NodeReportType.CACHE_DELTA)
        .setTimeMs(3).setSeq(1).setAdded(List.of(new CachedFile("hot", 10 * MB))).build(), 3);
    PoolMetrics m = operator.poolMetrics(POOL);
    assertThat(m.placements()).isZero();

    harness.setProcessingTime(KAFKA_TS + 250);
    send(job("j1", "hot", 10), 10); // n2 holds it: local
    send(job("j2", "cold", 11), 11); // n1 reads it from storage
    send(job("j3", "other", 12), 12); // no free slot: queued
    List<Decision> placed = placements();
    assertThat(placed).hasSize(2);
    assertThat(m.placements()).isEqualTo(2);
    assertThat(m.decisionLatencyMs().getCount()).isEqualTo(2);
    assertThat(m.decisionLatencyMs().getStatistics().getMin()).isEqualTo(250);
    assertThat(m.decisionLatencyMs().getStatistics().getMax()).isEqualTo(250);
    assertThat(m.bytesLocal()).isEqualTo(10 * MB);
    assertThat(m.bytesStorage()).isEqualTo(10 * MB);
    assertThat(m.bytesPeer()).isZero();
    assertThat(m.bytesToMove()).isEqualTo(10 * MB);
    assertThat(m.queueLength()).as("gauges wait for the metrics timer").isZero();

    harness.setProcessingTime(KAFKA_TS + 1000); // the metrics timer
    assertThat(m.queueLength()).isEqualTo(1);
    assertThat(m.runningTasks()).isEqualTo(2);
    assertThat(m.registeredNodes()).isEqualTo(2);
    assertThat(m.drainingNodes()).isZero();
    assertThat(m.hitRatioLocal()).isEqualTo(0.5);
    assertThat(m.hitRatioStorage()).isEqualTo(0.5);
    assertThat(m.hitRatioPeer()).isZero();

    harness.setProcessingTime(KAFKA_TS + 1400);
    String onN2 = placed.get(0).getNode().equals("n2") ? "j1" : "j2";
    send(event(onN2, "n2", TaskEventType.COMPLETED, 20), 20);
    assertThat(placements()).hasSize(1); // j3 takes the free slot
    assertThat(m.completions()).isEqualTo(1);
    assertThat(m.placements()).isEqualTo(3);
    assertThat(m.decisionLatencyMs().getStatistics().getMax()).isEqualTo(1400);
    assertThat(m.bytesLocal() + m.bytesPeer() + m.bytesStorage()).isEqualTo(30 * MB);
    assertThat(m.bytesToMove()).isEqualTo(m.bytesPeer() + m.bytesStorage());

    send(Control.newBuilder().setPool(POOL).setType(ControlType.DRAIN_NODE).setNode("n1")
        .setTimeMs(21).build(), 21);
    harness.setProcessingTime(KAFKA_TS + 2000);
    assertThat(m.queueLength()).isZero();
    assertThat(m.drainingNodes()).isEqualTo(1);
    assertThat(m.hitRatioLocal() + m.hitRatioPeer() + m.hitRatioStorage())
        .isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-9));
  }

  @Test
  void failuresAndDeadLettersByReasonAreCounted() throws Exception {
    start("FA");
    harness.setProcessingTime(KAFKA_TS);
    send(register("n1", 1), 1);
    send(job("j1", "f", 2), 2);
    send(job("j1", "f", 3), 3); // the same job id again
    send(event("nope", "n1", TaskEventType.FAILED, 4), 4); // unknown task
    PoolMetrics m = operator.poolMetrics(POOL);
    for (int attempt = 0; attempt <= 3; attempt++) { // three retries, then given up
      assertThat(m.failures()).isZero();
      send(event("j1", attempt, "n1", TaskEventType.FAILED, 5 + attempt), 5 + attempt);
    }
    assertThat(m.failures()).isEqualTo(1);
    assertThat(m.completions()).isZero();
    assertThat(operator.gateMetrics().deadLetters(DeadLetterCodes.DUPLICATE_JOB)).isEqualTo(1);
    assertThat(operator.gateMetrics().deadLetters(DeadLetterCodes.UNKNOWN_TASK)).isEqualTo(1);
    assertThat(operator.gateMetrics().deadLetters(DeadLetterCodes.INVALID)).isZero();
    assertThat(m.placements()).as("the first attempt and its three retries").isEqualTo(4);
  }
}
