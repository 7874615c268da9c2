package io.locus.workflows;

import static io.locus.schemas.WorkflowFailurePolicy.FAIL_DESCENDANTS;
import static io.locus.workflows.Wf.job;
import static io.locus.workflows.Wf.workflow;
import static org.assertj.core.api.Assertions.assertThat;

import io.locus.kafka.Topics;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.JobState;
import io.locus.schemas.JobStatus;
import io.locus.schemas.internal.RawRecord;
import io.locus.schemas.limits.Limits;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/** The step before the runner: what reaches it, keyed by workflow, and what is dead-lettered. */
class WorkflowInputsTest {
  private static RawRecord raw(String topic, long offset, byte[] value) {
    return new RawRecord(topic, 1, offset, 42L, Wf.key("pool-or-anything"),
        value == null ? null : ByteBuffer.wrap(value));
  }

  @Test
  void partsAndWorkflowStatusesAreKeyedByWorkflowOthersStopOrAreDeadLettered() throws Exception {
    try (var h = new OneInputStreamOperatorTestHarness<>(
        new ProcessOperator<>(new WorkflowInputs()))) {
      h.open();
      h.processElement(raw(Topics.WORKFLOWS.name(), 0,
          Topics.WORKFLOWS.value(workflow("wf-1", FAIL_DESCENDANTS, job("a")))), 0);
      h.processElement(raw(Topics.JOB_STATUS.name(), 0, Topics.JOB_STATUS.value(
          Wf.status("wf-1", "a", JobState.COMPLETED, 5, ""))), 0);
      // a job outside any workflow: not the runner's
      h.processElement(raw(Topics.JOB_STATUS.name(), 1, Topics.JOB_STATUS.value(
          JobStatus.newBuilder(Wf.status("x", "b", JobState.QUEUED, 5, "")).setWorkflow(null)
              .build())), 0);
      h.processElement(raw(Topics.WORKFLOWS.name(), 1, new byte[] {1, 2, 3}), 0);
      h.processElement(raw(Topics.WORKFLOWS.name(), 2,
          Topics.WORKFLOWS.value(workflow(" ", FAIL_DESCENDANTS, job("a")))), 0);
      h.processElement(raw(Topics.WORKFLOWS.name(), 3, new byte[Limits.MAX_RECORD_BYTES + 1]), 0);

      List<RawRecord> passed = h.extractOutputValues();
      assertThat(passed).extracting(RawRecord::getTopic, WorkflowInputs::workflowId)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("workflows", "wf-1"),
              org.assertj.core.groups.Tuple.tuple("job-status", "wf-1"));
      List<DeadLetter> dead = h.getSideOutput(WorkflowInputs.DEAD_LETTERS).stream()
          .map(StreamRecord::getValue).toList();
      assertThat(dead).extracting(DeadLetter::getOffset, DeadLetter::getCode)
          .containsExactly(org.assertj.core.groups.Tuple.tuple(1L, "corrupt"),
              org.assertj.core.groups.Tuple.tuple(2L, "invalid-workflow"),
              org.assertj.core.groups.Tuple.tuple(3L, "too-large"));
      assertThat(dead.get(1).getReason())
          .isEqualTo("invalid WorkflowSubmitted: workflowId is blank");
      assertThat(dead).allSatisfy(d -> assertThat(d.getTimeMs()).isEqualTo(42L));
    }
  }
}
