package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.DataUnit;
import io.locus.schemas.Decision;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.SchedulerMetrics;
import io.locus.schemas.internal.SchedulerInput;
import java.util.List;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 22, finding 4: with no declared pools, a job for a pool no agent serves queued forever
 * with no dead letter and no reason. It still queues (its agents may come later), and the
 * scheduler's metrics say why it waits.
 */
@Timeout(60)
class PendingReasonTest {
  private static final String POOL = "nowhere";
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

  private static JobSubmitted job(String id, long t) {
    return JobSubmitted.newBuilder().setJobId(id).setPool(POOL).setSubmitTimeMs(t)
        .setInputs(List.of(DataUnit.newBuilder().setId("f-" + id).setBytes(1000).build()))
        .setComputeSeconds(1.0).build();
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
  void aJobForAPoolWithNoNodesQueuesWithAReasonUntilANodeRegisters() throws Exception {
    SchedulerConfig config = SchedulerConfig.defaults("FA");
    assertThat(config.pools()).as("no --pools: every pool is accepted").isEmpty();
    harness = OperatorHarness.open(config, null);
    harness.setProcessingTime(0);
    send(job("j1", 1), 1);
    send(job("j2", 2), 2);
    assertThat(harness.extractOutputValues()).isEmpty();
    assertThat(harness.getSideOutput(SchedulerOperator.REJECTED))
        .as("accepted, not refused: an agent of the pool may still come").isNull();
    SchedulerMetrics m = metricsAt(60_000);
    assertThat(m.getQueueLength()).isEqualTo(2);
    assertThat(m.getPendingReason()).contains("no node registered in pool nowhere",
        "2 queued task(s)", "--pools");

    send(NodeReport.newBuilder().setPool(POOL).setNode("n1").setType(NodeReportType.REGISTER)
        .setTimeMs(3).setSlots(2).setCacheCapacityBytes(1_000_000).build(), 3);
    assertThat(harness.extractOutputValues()).extracting(Decision::getAction)
        .hasSize(2).allMatch(a -> a instanceof PlaceTask);
    SchedulerMetrics after = metricsAt(120_000);
    assertThat(after.getQueueLength()).isZero();
    assertThat(after.getPendingReason()).isNull();
  }

  @Test
  void onlyAQueueThatCannotBePlacedAtAllHasAReason() {
    assertThat(PendingReason.of("p", 0, true, 0, 0)).as("no queue").isNull();
    assertThat(PendingReason.of("p", 3, false, 2, 1)).as("busy slots: the normal queue")
        .isNull();
    assertThat(PendingReason.of("p", 3, true, 2, 0)).contains("paused", "RESUME_POOL");
    assertThat(PendingReason.of("p", 3, false, 2, 2)).contains("every node", "draining");
    assertThat(PendingReason.of("p", 3, false, 0, 0)).contains("no node registered in pool p");
  }
}
