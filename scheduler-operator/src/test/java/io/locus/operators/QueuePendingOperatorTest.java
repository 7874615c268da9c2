package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.Control;
import io.locus.schemas.ControlType;
import io.locus.schemas.DataUnit;
import io.locus.schemas.Decision;
import io.locus.schemas.JobStatus;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.QueueConfig;
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
 * Issue 24 in the operator harness on RocksDB: after SET_QUEUES the pool places by fair share (a
 * freed slot goes to the queue below its guarantee, not to the earlier job of the queue that
 * borrowed), and the metrics and job statuses carry the queue pending codes: {@code queue-share}
 * while a queue is behind another's share, {@code queue-limit} while a queue is at its limit.
 */
@Timeout(60)
class QueuePendingOperatorTest {
  private static final String POOL = "batch";
  private static final long MB = 1_000_000L;

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

  private static JobSubmitted job(String id, String queue, long t) {
    return JobSubmitted.newBuilder().setJobId(id).setPool(POOL).setSubmitTimeMs(t)
        .setInputs(List.of(DataUnit.newBuilder().setId("f-" + id).setBytes(10 * MB).build()))
        .setComputeSeconds(30.0).setQueue(queue).build();
  }

  private List<String> placements() {
    List<String> out = harness.extractOutputValues().stream()
        .filter(d -> d.getAction() instanceof PlaceTask)
        .map(d -> d.getNode() + "<-" + ((PlaceTask) d.getAction()).getTaskId()).toList();
    harness.getOutput().clear();
    return out;
  }

  private SchedulerMetrics metricsAt(long ms) throws Exception {
    harness.setProcessingTime(ms);
    SchedulerMetrics last = null;
    for (StreamRecord<SchedulerMetrics> r : harness.getSideOutput(SchedulerOperator.METRICS)) {
      last = r.getValue();
    }
    return last;
  }

  private void complete(String id, String node, long t) throws Exception {
    send(TaskEvent.newBuilder().setPool(POOL).setTaskId(id).setJobId(id).setAttempt(0)
        .setNode(node).setType(TaskEventType.COMPLETED).setTimeMs(t)
        .setDecisionId(POOL + "/" + id + "/0").build(), t);
  }

  @Test
  void aFreedSlotGoesToTheQueueBelowItsGuaranteeAndTheStatusesSayWhy() throws Exception {
    SchedulerOperator operator = new SchedulerOperator(new SchedulerConfig(
        new SchedulerConfig.PolicySpec("FA", Map.of()), Map.of(), 1000, 3));
    harness = OperatorHarness.open(operator, null);
    harness.setProcessingTime(0);
    send(Control.newBuilder().setPool(POOL).setType(ControlType.SET_QUEUES).setTimeMs(0)
        .setRequestId("q").setQueues(List.of(
            QueueConfig.newBuilder().setName("a").setGuaranteedSlots(1).build(),
            QueueConfig.newBuilder().setName("b").setGuaranteedSlots(1).setLimitSlots(1)
                .build())).build(), 0);
    for (String n : List.of("n1", "n2")) {
      send(NodeReport.newBuilder().setPool(POOL).setNode(n).setType(NodeReportType.REGISTER)
          .setTimeMs(1).setSlots(1).setCacheCapacityBytes(1000 * MB).build(), 1);
    }
    send(job("a1", "a", 1_000), 1_000);
    send(job("a2", "a", 1_001), 1_001);
    send(job("a3", "a", 1_002), 1_002);
    assertThat(placements()).as("a borrows b's idle slot").containsExactly("n1<-a1", "n2<-a2");
    send(job("b1", "b", 2_000), 2_000);
    send(job("b2", "b", 2_001), 2_001);
    assertThat(placements()).isEmpty();

    SchedulerMetrics m = metricsAt(1_000);
    assertThat(m.getPendingByCode()).isEqualTo(Map.of("queue-share", 1L, "no-free-slot", 2L));
    List<JobStatus> tick = OperatorHarness.take(harness, SchedulerOperator.JOB_STATUS);
    assertThat(tick).filteredOn(x -> x.getJobId().equals("a3")).last().satisfies(x -> {
      assertThat(x.getPendingCode()).isEqualTo("queue-share");
      assertThat(x.getQueue()).isEqualTo("a");
      assertThat(x.getReason()).startsWith("behind queue 'b''s share");
    });

    complete("a1", "n1", 31_000);
    assertThat(placements()).as("b is below its guarantee: its job, not the earlier a3")
        .containsExactly("n1<-b1");
    SchedulerMetrics limited = metricsAt(2_000);
    assertThat(limited.getPendingByCode())
        .isEqualTo(Map.of("queue-limit", 1L, "no-free-slot", 1L));
    assertThat(OperatorHarness.take(harness, SchedulerOperator.JOB_STATUS))
        .filteredOn(x -> x.getJobId().equals("b2")).last().satisfies(x -> {
          assertThat(x.getPendingCode()).isEqualTo("queue-limit");
          assertThat(x.getReason()).isEqualTo("queue 'b' is at its limit (1 of 1 slots)");
        });
  }
}
