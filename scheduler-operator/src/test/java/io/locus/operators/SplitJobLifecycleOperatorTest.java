package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.DeadLetter;
import io.locus.schemas.Decision;
import io.locus.schemas.EventRange;
import io.locus.schemas.JobCommand;
import io.locus.schemas.JobCommandType;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A split pool's job lifecycle through the operator: one status per event-range job (QUEUED on
 * acceptance, COMPLETED with its subjob count), and the refusals of a cancel: an unfinished
 * event-range job (the split policies cannot take its subjobs out of their queues yet), a
 * finished one and an unknown one, each a dead letter with its code.
 */
@Timeout(60)
class SplitJobLifecycleOperatorTest {
  private static final String POOL = "cern";
  private static final long T0 = 1_000_000L;
  private KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> harness;
  private long offset;

  @AfterEach
  void close() throws Exception {
    if (harness != null) {
      harness.close();
    }
  }

  private void send(Object event) throws Exception {
    harness.processElement(SchedulerInput.newBuilder().setPool(POOL).setEvent(event)
        .setSourceTopic("t").setSourcePartition(0).setSourceOffset(offset++).build(), 0);
  }

  private List<JobStatus> statuses() {
    List<JobStatus> out = new ArrayList<>();
    var q = harness.getSideOutput(SchedulerOperator.JOB_STATUS);
    if (q != null) {
      q.forEach(r -> out.add(r.getValue()));
      q.clear();
    }
    return out;
  }

  private List<DeadLetter> rejected() {
    List<DeadLetter> out = new ArrayList<>();
    var q = harness.getSideOutput(SchedulerOperator.REJECTED);
    if (q != null) {
      q.forEach(r -> out.add(r.getValue()));
      q.clear();
    }
    return out;
  }

  private static JobCommand cancel(String job, long t) {
    return JobCommand.newBuilder().setPool(POOL).setJobId(job).setType(JobCommandType.CANCEL)
        .setTimeMs(t).build();
  }

  @Test
  void anEventRangeJobHasOneStatusAndACancelIsRefusedWithItsReason() throws Exception {
    SchedulerConfig cfg = new SchedulerConfig(new SchedulerConfig.PolicySpec("MCH", Map.of()),
        Map.of(POOL, new SchedulerConfig.PolicySpec("farm", Map.of("dataset", "lhcb"))), 1000,
        3).withNodeTimeoutMs(Long.MAX_VALUE);
    harness = OperatorHarness.open(cfg, null);
    send(NodeReport.newBuilder().setPool(POOL).setNode("n1").setType(NodeReportType.REGISTER)
        .setTimeMs(T0).setSlots(1).build());
    send(JobSubmitted.newBuilder().setJobId("j1").setPool(POOL).setSubmitTimeMs(T0)
        .setInputs(List.of()).setSplittable(true).setPriority(2)
        .setEvents(new EventRange("lhcb", 0L, 100L)).build());
    List<Decision> placed = harness.extractOutputValues();
    assertThat(placed).hasSize(1);
    PlaceTask p = (PlaceTask) placed.get(0).getAction();
    assertThat(statuses()).singleElement().satisfies(s -> {
      assertThat(s.getJobId()).isEqualTo("j1");
      assertThat(s.getState()).isEqualTo(JobState.QUEUED);
      assertThat(s.getPriority()).isEqualTo(2);
      assertThat(s.getSubmitTimeMs()).isEqualTo(T0);
      assertThat(s.getTimeMs()).isEqualTo(T0);
    });

    send(cancel("j1", T0 + 1));
    assertThat(rejected()).singleElement().satisfies(d -> {
      assertThat(d.getCode()).isEqualTo(DeadLetterCodes.REJECTED);
      assertThat(d.getOffset()).isEqualTo(offset - 1);
      assertThat(d.getReason()).contains("job 'j1'", "cannot cancel an unfinished event-range "
          + "job");
    });
    assertThat(statuses()).isEmpty();

    send(TaskEvent.newBuilder().setPool(POOL).setTaskId(p.getTaskId()).setJobId("j1")
        .setAttempt(p.getAttempt()).setNode("n1").setType(TaskEventType.COMPLETED)
        .setDecisionId(placed.get(0).getDecisionId()).setTimeMs(T0 + 100_000)
        .setEvents(new EventRange("lhcb", 0L, 100L)).build());
    assertThat(statuses()).singleElement().satisfies(s -> {
      assertThat(s.getState()).isEqualTo(JobState.COMPLETED);
      assertThat(s.getTasks()).isEqualTo(1);
      assertThat(s.getTasksDone()).isEqualTo(1);
      assertThat(s.getEndTimeMs()).isEqualTo(T0 + 100_000);
    });

    send(cancel("j1", T0 + 100_001));
    send(cancel("ghost", T0 + 100_002));
    assertThat(rejected()).extracting(DeadLetter::getCode)
        .containsExactly(DeadLetterCodes.JOB_FINISHED, DeadLetterCodes.UNKNOWN_JOB);
  }
}
