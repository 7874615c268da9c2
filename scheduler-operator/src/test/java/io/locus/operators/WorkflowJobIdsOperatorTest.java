package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.DataUnit;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.Decision;
import io.locus.schemas.JobState;
import io.locus.schemas.JobStatus;
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
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A workflow job whose id the pool already knows (Flink's harness on RocksDB): the same
 * workflow's release delivered again is a dead letter only, also after the job finished and
 * across a restore; another workflow (a re-run under a new workflow id) or a job outside
 * workflows that took the id fails the new job at once on job-status, naming the earlier owner,
 * so the new workflow's runner ends instead of waiting forever.
 */
@Timeout(60)
class WorkflowJobIdsOperatorTest {
  private static final String POOL = "p";
  private static final long MB = 1_000_000L;
  private KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> harness;
  private long offset;

  private void operator(OperatorSubtaskState restoreFrom) throws Exception {
    harness = OperatorHarness.open(new SchedulerConfig(
        new SchedulerConfig.PolicySpec("FA", Map.of()), Map.of(), 1000, 3), restoreFrom);
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
        .setEvent(event).setSourceTopic("job-arrivals").setSourcePartition(0)
        .setSourceOffset(offset++).build(), t));
  }

  private static JobSubmitted job(String id, String workflow, long t) {
    return JobSubmitted.newBuilder().setJobId(id).setPool(POOL).setSubmitTimeMs(t)
        .setWorkflow(workflow)
        .setInputs(List.of(DataUnit.newBuilder().setId("f-" + id).setBytes(10 * MB).build()))
        .setComputeSeconds(1.0).build();
  }

  /** Places {@code id} on the pool's one node and completes it. */
  private void runToCompletion(String id, String workflow, long t) throws Exception {
    send(job(id, workflow, t), t);
    List<Decision> d = harness.extractOutputValues();
    harness.getOutput().clear();
    assertThat(d).singleElement().satisfies(x ->
        assertThat(((PlaceTask) x.getAction()).getTaskId()).isEqualTo(id));
    send(TaskEvent.newBuilder().setPool(POOL).setTaskId(id).setJobId(id).setAttempt(0)
        .setNode("n1").setType(TaskEventType.COMPLETED).setDecisionId(d.get(0).getDecisionId())
        .setEpoch(d.get(0).getEpoch()).setTimeMs(t + 1).setStartTimeMs(t).build(), t + 1);
    assertThat(statuses()).last().satisfies(s -> {
      assertThat(s.getState()).isEqualTo(JobState.COMPLETED);
      assertThat(s.getWorkflow()).isEqualTo(workflow);
    });
  }

  private List<JobStatus> statuses() {
    return OperatorHarness.take(harness, SchedulerOperator.JOB_STATUS);
  }

  private List<String> deadLetters() {
    return OperatorHarness.take(harness, SchedulerOperator.REJECTED).stream()
        .map(DeadLetter::getCode).toList();
  }

  private void register() throws Exception {
    send(NodeReport.newBuilder().setPool(POOL).setNode("n1").setType(NodeReportType.REGISTER)
        .setTimeMs(10).setSlots(1).setQueueDepth(0).setCacheCapacityBytes(1000 * MB).build(), 10);
  }

  @Test
  void aRerunOfAFinishedWorkflowFailsItsJobNamingTheEarlierWorkflow() throws Exception {
    operator(null);
    register();
    runToCompletion("a", "wf-1", 20);

    send(job("a", "wf-1", 30), 30); // wf-1's release delivered again after it finished
    assertThat(deadLetters()).containsExactly(DeadLetterCodes.DUPLICATE_JOB);
    assertThat(statuses()).as("a redelivery changes nothing").isEmpty();

    send(job("a", "wf-2", 40), 40); // the same trace submitted again as a new workflow
    assertThat(deadLetters()).containsExactly(DeadLetterCodes.DUPLICATE_JOB);
    assertThat(statuses()).singleElement().satisfies(s -> {
      assertThat(s.getJobId()).isEqualTo("a");
      assertThat(s.getWorkflow()).isEqualTo("wf-2");
      assertThat(s.getState()).isEqualTo(JobState.FAILED);
      assertThat(s.getEndTimeMs()).isEqualTo(40);
      assertThat(s.getReason()).startsWith("refused by the scheduler (duplicate-job): "
          + "duplicate job id 'a'").contains("a job of workflow 'wf-1'",
          "workflow 'wf-2' cannot run its job 'a'");
    });
  }

  @Test
  void theWorkflowOfAFinishedJobSurvivesARestore() throws Exception {
    operator(null);
    register();
    runToCompletion("a", "wf-1", 20);
    OperatorSubtaskState snap = harness.snapshot(1, 100);
    harness.close();

    operator(snap);
    send(job("a", "wf-1", 30), 30);
    assertThat(deadLetters()).containsExactly(DeadLetterCodes.DUPLICATE_JOB);
    assertThat(statuses()).as("still the same submission after a restore").isEmpty();
    send(job("a", "wf-2", 31), 31);
    assertThat(deadLetters()).containsExactly(DeadLetterCodes.DUPLICATE_JOB);
    assertThat(statuses()).singleElement().satisfies(s -> {
      assertThat(s.getState()).isEqualTo(JobState.FAILED);
      assertThat(s.getReason()).contains("a job of workflow 'wf-1'");
    });
  }

  @Test
  void aWorkflowJobReusingTheIdOfAJobOutsideWorkflowsFails() throws Exception {
    operator(null);
    register();
    runToCompletion("solo", null, 20);
    send(job("solo", null, 25), 25);
    assertThat(deadLetters()).containsExactly(DeadLetterCodes.DUPLICATE_JOB);
    assertThat(statuses()).as("outside workflows: the dead letter only").isEmpty();

    send(job("solo", "wf-1", 30), 30);
    assertThat(deadLetters()).containsExactly(DeadLetterCodes.DUPLICATE_JOB);
    assertThat(statuses()).singleElement().satisfies(s -> {
      assertThat(s.getWorkflow()).isEqualTo("wf-1");
      assertThat(s.getState()).isEqualTo(JobState.FAILED);
      assertThat(s.getReason()).contains("a job outside workflows");
    });
  }
}
