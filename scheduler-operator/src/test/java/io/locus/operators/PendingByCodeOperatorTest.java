package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.model.PendingCode;
import io.locus.schemas.CachedFile;
import io.locus.schemas.Control;
import io.locus.schemas.ControlType;
import io.locus.schemas.DataUnit;
import io.locus.schemas.Decision;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.SchedulerMetrics;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.internal.SchedulerInput;
import java.util.List;
import java.util.Map;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 23, "why pending": the scheduler's metrics record counts the queued tasks per pending
 * code ({@code pendingByCode}, summing to queueLength) and the {@code pendingTasks{reason=…}}
 * gauges follow it, in the operator harness on RocksDB: while MCH holds a task for the one busy
 * holder of its file, after it places it there, and while the pool is paused.
 */
@Timeout(60)
class PendingByCodeOperatorTest {
  private static final String POOL = "batch";
  private static final long MB = 1_000_000L;

  private SchedulerOperator operator;
  private KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> harness;

  @AfterEach
  void close() throws Exception {
    if (harness != null) {
      harness.close();
    }
  }

  private void send(Object event, long t) throws Exception {
    harness.processElement(new StreamRecord<>(
        SchedulerInput.newBuilder().setPool(POOL).setEvent(event).build(), t));
  }

  private static NodeReport register(String node, long t) {
    return NodeReport.newBuilder().setPool(POOL).setNode(node).setType(NodeReportType.REGISTER)
        .setTimeMs(t).setSlots(1).setCacheCapacityBytes(1000 * MB).build();
  }

  private static JobSubmitted job(String id, String file, long t) {
    return JobSubmitted.newBuilder().setJobId(id).setPool(POOL).setSubmitTimeMs(t)
        .setInputs(List.of(DataUnit.newBuilder().setId(file).setBytes(10 * MB).build()))
        .setComputeSeconds(30.0).build();
  }

  private List<String> placements() {
    List<String> out = harness.extractOutputValues().stream()
        .filter(d -> d.getAction() instanceof PlaceTask)
        .map(d -> d.getNode() + "<-" + ((PlaceTask) d.getAction()).getTaskId()).toList();
    harness.getOutput().clear();
    return out;
  }

  /** The last metrics record emitted once processing time reaches {@code ms}. */
  private SchedulerMetrics metricsAt(long ms) throws Exception {
    harness.setProcessingTime(ms);
    SchedulerMetrics last = null;
    for (StreamRecord<SchedulerMetrics> r : harness.getSideOutput(SchedulerOperator.METRICS)) {
      last = r.getValue();
    }
    return last;
  }

  @Test
  void pendingByCodeWhileMchWaitsForTheHolderAndAfterItPlaces() throws Exception {
    operator = new SchedulerOperator(new SchedulerConfig(
        new SchedulerConfig.PolicySpec("MCH", Map.of()), Map.of(), 1000, 3));
    harness = OperatorHarness.open(operator, null);
    harness.setProcessingTime(0);
    send(register("n1", 1), 1);
    send(register("n2", 2), 2);
    send(NodeReport.newBuilder().setPool(POOL).setNode("n1").setType(NodeReportType.CACHE_DELTA)
        .setTimeMs(3).setSeq(1).setAdded(List.of(new CachedFile("hot-2", 10 * MB))).build(), 3);
    send(job("first", "hot-2", 1_000), 1_000);
    assertThat(placements()).containsExactly("n1<-first");
    send(job("second", "hot-2", 2_000), 2_000);
    assertThat(placements()).as("MCH holds it for n1 while n2 is idle").isEmpty();

    SchedulerMetrics m = metricsAt(1_000);
    assertThat(m.getQueueLength()).isEqualTo(1);
    assertThat(m.getPendingByCode()).containsExactly(Map.entry("locality-wait", 1L));
    assertThat(m.getPendingReason()).as("nothing pool-wide").isNull();
    PoolMetrics g = operator.poolMetrics(POOL);
    assertThat(g.pendingTasks(PendingCode.LOCALITY_WAIT)).isEqualTo(1);
    assertThat(g.pendingTasks(PendingCode.NO_FREE_SLOT)).isZero();

    send(TaskEvent.newBuilder().setPool(POOL).setTaskId("first").setJobId("first").setAttempt(0)
        .setNode("n1").setType(TaskEventType.COMPLETED).setTimeMs(31_000)
        .setDecisionId(POOL + "/first/0").build(), 31_000);
    assertThat(placements()).containsExactly("n1<-second");
    SchedulerMetrics after = metricsAt(2_000);
    assertThat(after.getQueueLength()).isZero();
    assertThat(after.getPendingByCode()).isEmpty();
    assertThat(g.pendingTasks(PendingCode.LOCALITY_WAIT)).isZero();

    // paused: every queued task is "paused", whatever its data
    send(Control.newBuilder().setPool(POOL).setType(ControlType.PAUSE_POOL).setTimeMs(32_000)
        .build(), 32_000);
    send(job("third", "cold", 33_000), 33_000);
    send(job("fourth", "hot-2", 34_000), 34_000);
    assertThat(placements()).isEmpty();
    SchedulerMetrics paused = metricsAt(3_000);
    assertThat(paused.getPendingByCode()).containsExactly(Map.entry("paused", 2L));
    assertThat(paused.getPendingReason()).contains("paused");
    assertThat(g.pendingTasks(PendingCode.PAUSED)).isEqualTo(2);
  }

  private List<io.locus.schemas.JobStatus> statuses() {
    return OperatorHarness.take(harness, SchedulerOperator.JOB_STATUS);
  }

  /**
   * A queued job's status follows its reason: QUEUED at arrival with the pool-level code, then,
   * on the metrics tick, QUEUED again with MCH's reason (the holder it waits for), once: a tick
   * that finds the same reason publishes nothing.
   */
  @Test
  void aQueuedJobsStatusIsRepublishedWhenItsReasonChangesAndOnlyThen() throws Exception {
    operator = new SchedulerOperator(new SchedulerConfig(
        new SchedulerConfig.PolicySpec("MCH", Map.of()), Map.of(), 1000, 3));
    harness = OperatorHarness.open(operator, null);
    harness.setProcessingTime(0);
    send(register("n1", 1), 1);
    send(register("n2", 2), 2);
    send(NodeReport.newBuilder().setPool(POOL).setNode("n1").setType(NodeReportType.CACHE_DELTA)
        .setTimeMs(3).setSeq(1).setAdded(List.of(new CachedFile("hot-2", 10 * MB))).build(), 3);
    send(job("first", "hot-2", 1_000), 1_000);
    send(job("second", "hot-2", 2_000), 2_000);
    assertThat(statuses()).filteredOn(x -> x.getJobId().equals("second"))
        .extracting(io.locus.schemas.JobStatus::getPendingCode).containsExactly("no-free-slot");

    metricsAt(1_000);
    List<io.locus.schemas.JobStatus> tick = statuses();
    assertThat(tick).singleElement().satisfies(x -> {
      assertThat(x.getJobId()).isEqualTo("second");
      assertThat(x.getState()).isEqualTo(io.locus.schemas.JobState.QUEUED);
      assertThat(x.getPendingCode()).isEqualTo("locality-wait");
      assertThat(x.getReason()).contains("n1");
      assertThat(x.getTimeMs()).isEqualTo(2_000);
    });
    metricsAt(2_000);
    assertThat(statuses()).as("the same reason is not published again").isEmpty();

    send(TaskEvent.newBuilder().setPool(POOL).setTaskId("first").setJobId("first").setAttempt(0)
        .setNode("n1").setType(TaskEventType.COMPLETED).setTimeMs(31_000)
        .setDecisionId(POOL + "/first/0").build(), 31_000);
    assertThat(statuses()).filteredOn(x -> x.getJobId().equals("second"))
        .extracting(x -> x.getState().toString()).containsExactly("PLACED");
    metricsAt(3_000);
    assertThat(statuses()).as("nothing queued: nothing to refresh").isEmpty();
  }
}
