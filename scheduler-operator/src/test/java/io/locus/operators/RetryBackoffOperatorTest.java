package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.model.PendingCode;
import io.locus.core.state.RetryBackoff;
import io.locus.schemas.DataUnit;
import io.locus.schemas.Decision;
import io.locus.schemas.JobCommand;
import io.locus.schemas.JobCommandType;
import io.locus.schemas.JobState;
import io.locus.schemas.JobStatus;
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
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 23, "retries with backoff per task", through the scheduler operator (Flink's harness on
 * RocksDB): a failed attempt is not placed before its backoff ends on the pool's record clock,
 * and is placed by the first input at or after that time even when the only inputs are node
 * heartbeats (the metrics timer, on processing time, never releases it); meanwhile its job is
 * QUEUED with pending code backoff and counted under backoff in the metrics; a cancel while
 * parked ends it for good; a refusal is placeable again at once; and a parked task survives a
 * snapshot and restore with its release time.
 */
@Timeout(60)
class RetryBackoffOperatorTest {
  private static final String POOL = "p";
  private static final long MB = 1_000_000L;
  /** 10 s doubling: attempt 0 failing at 3 s of record clock is released at 13 s. */
  private static final RetryBackoff BACKOFF = new RetryBackoff(10, 360);

  private SchedulerOperator operator;
  private KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> harness;
  private long offset;

  private void open(OperatorSubtaskState restoreFrom) throws Exception {
    operator = new SchedulerOperator(new SchedulerConfig(
        new SchedulerConfig.PolicySpec("FA", Map.of()), Map.of(), 1000, 3)
        .withRetryBackoff(BACKOFF));
    harness = OperatorHarness.open(operator, restoreFrom);
    harness.setProcessingTime(0);
  }

  @AfterEach
  void close() throws Exception {
    if (harness != null) {
      harness.close();
    }
  }

  private void send(Object event, long t) throws Exception {
    harness.processElement(new StreamRecord<>(SchedulerInput.newBuilder().setPool(POOL)
        .setEvent(event).setSourceTopic("t").setSourcePartition(0).setSourceOffset(offset++)
        .build(), t));
  }

  private static NodeReport report(String node, NodeReportType type, long t) {
    return NodeReport.newBuilder().setPool(POOL).setNode(node).setType(type).setTimeMs(t)
        .setSlots(1).setCacheCapacityBytes(1000 * MB).build();
  }

  private static JobSubmitted job(String id, long t) {
    return JobSubmitted.newBuilder().setJobId(id).setPool(POOL).setSubmitTimeMs(t)
        .setInputs(List.of(DataUnit.newBuilder().setId("f-" + id).setBytes(10 * MB).build()))
        .setComputeSeconds(1.0).build();
  }

  private static TaskEvent event(TaskEventType type, String task, int attempt, long t) {
    return TaskEvent.newBuilder().setPool(POOL).setTaskId(task).setJobId(task)
        .setAttempt(attempt).setNode("n1").setType(type)
        .setDecisionId(POOL + "/" + task + "/" + attempt).setEpoch(1).setTimeMs(t)
        .setStartTimeMs(t).setMessage("exit 3").build();
  }

  /** "task#attempt" of each placement decided since the last call. */
  private List<String> placements() {
    List<String> out = harness.extractOutputValues().stream()
        .filter(d -> d.getAction() instanceof PlaceTask)
        .map(d -> ((PlaceTask) d.getAction()).getTaskId() + "#"
            + ((PlaceTask) d.getAction()).getAttempt())
        .toList();
    harness.getOutput().clear();
    return out;
  }

  private List<JobStatus> statuses() {
    return OperatorHarness.take(harness, SchedulerOperator.JOB_STATUS);
  }

  private SchedulerMetrics metricsAt(long processingTime) throws Exception {
    harness.setProcessingTime(processingTime);
    SchedulerMetrics last = null;
    for (StreamRecord<SchedulerMetrics> r : harness.getSideOutput(SchedulerOperator.METRICS)) {
      last = r.getValue();
    }
    return last;
  }

  /** n1 (one slot) registered, job a placed on it and failed at 3 s: parked until 13 s. */
  private void failOnce() throws Exception {
    send(report("n1", NodeReportType.REGISTER, 1000), 1000);
    send(job("a", 2000), 2000);
    assertThat(placements()).containsExactly("a#0");
    send(event(TaskEventType.FAILED, "a", 0, 3000), 3000);
    assertThat(placements()).as("the slot is free, but the retry waits out its backoff")
        .isEmpty();
  }

  @Test
  void aFailedAttemptWaitsOutItsBackoffOnTheRecordClockAndAHeartbeatReleasesIt()
      throws Exception {
    open(null);
    failOnce();
    List<JobStatus> s = statuses();
    JobStatus queued = s.get(s.size() - 1);
    assertThat(queued.getState()).isEqualTo(JobState.QUEUED);
    assertThat(queued.getAttempt()).isEqualTo(1);
    assertThat(queued.getPendingCode()).isEqualTo("backoff");
    assertThat(queued.getReason()).startsWith("attempt 0 FAILED on node n1: exit 3; retry 1 "
        + "(attempt 1) after backoff until 1970-01-01T00:00:13Z (in 10.0 s");

    // the metrics timer runs on processing time: it counts the task, and releases nothing
    SchedulerMetrics m = metricsAt(60_000);
    assertThat(m.getQueueLength()).isEqualTo(1);
    assertThat(m.getPendingByCode()).isEqualTo(Map.of("backoff", 1L));
    assertThat(operator.poolMetrics(POOL).pendingTasks(PendingCode.BACKOFF)).isEqualTo(1);
    assertThat(placements()).isEmpty();

    // the pool's input goes quiet but for n1's heartbeats: they move the record clock
    send(report("n1", NodeReportType.HEARTBEAT, 12_999), 12_999);
    assertThat(placements()).isEmpty();
    send(report("n1", NodeReportType.HEARTBEAT, 13_000), 13_000);
    assertThat(placements()).containsExactly("a#1");
    assertThat(statuses()).extracting(x -> x.getState() + "#" + x.getAttempt())
        .containsExactly("PLACED#1");
    m = metricsAt(120_000);
    assertThat(m.getQueueLength()).isZero();
    assertThat(m.getPendingByCode()).isEmpty();
    assertThat(operator.poolMetrics(POOL).pendingTasks(PendingCode.BACKOFF)).isZero();

    // the second failure of its own waits twice as long: 20 s
    send(event(TaskEventType.FAILED, "a", 1, 14_000), 14_000);
    assertThat(statuses()).last().satisfies(x -> assertThat(x.getReason())
        .contains("retry 2 (attempt 2) after backoff until 1970-01-01T00:00:34Z"));
    send(report("n1", NodeReportType.HEARTBEAT, 33_999), 33_999);
    assertThat(placements()).isEmpty();
    send(report("n1", NodeReportType.HEARTBEAT, 34_000), 34_000);
    assertThat(placements()).containsExactly("a#2");
  }

  @Test
  void aRefusalIsPlaceableAgainAtOnce() throws Exception {
    open(null);
    send(report("n1", NodeReportType.REGISTER, 1000), 1000);
    send(job("a", 2000), 2000);
    assertThat(placements()).containsExactly("a#0");
    send(event(TaskEventType.REFUSED, "a", 0, 3000), 3000);
    assertThat(placements()).containsExactly("a#1");
  }

  @Test
  void aTaskCancelledWhileItWaitsOutItsBackoffIsNeverPlaced() throws Exception {
    open(null);
    failOnce();
    statuses();
    send(JobCommand.newBuilder().setPool(POOL).setJobId("a").setType(JobCommandType.CANCEL)
        .setTimeMs(4000).setRequestId("r1").build(), 4000);
    assertThat(statuses()).singleElement().satisfies(x -> {
      assertThat(x.getState()).isEqualTo(JobState.CANCELLED);
      assertThat(x.getAttempt()).isEqualTo(1);
      assertThat(x.getRequestId()).isEqualTo("r1");
    });
    assertThat(harness.extractOutputValues()).as("nothing to cancel on a node").isEmpty();
    send(report("n1", NodeReportType.HEARTBEAT, 20_000), 20_000);
    assertThat(placements()).isEmpty();
    SchedulerMetrics m = metricsAt(60_000);
    assertThat(m.getQueueLength()).isZero();
    assertThat(m.getPendingByCode()).isEmpty();
  }

  @Test
  void aParkedTaskSurvivesASnapshotAndRestoreWithItsReleaseTime() throws Exception {
    open(null);
    failOnce();
    statuses();
    OperatorSubtaskState snap = harness.snapshot(1, 100);
    harness.close();
    open(snap);
    SchedulerMetrics m = metricsAt(60_000);
    assertThat(m.getPendingByCode()).as("restored parked, not queued")
        .isEqualTo(Map.of("backoff", 1L));
    // the restored pool's first pass publishes the task's reason again: still backoff
    assertThat(statuses()).singleElement().satisfies(x -> {
      assertThat(x.getPendingCode()).isEqualTo("backoff");
      assertThat(x.getAttempt()).isEqualTo(1);
    });
    send(report("n1", NodeReportType.HEARTBEAT, 12_999), 12_999);
    assertThat(placements()).isEmpty();
    send(report("n1", NodeReportType.HEARTBEAT, 13_000), 13_000);
    assertThat(placements()).containsExactly("a#1");
  }
}
