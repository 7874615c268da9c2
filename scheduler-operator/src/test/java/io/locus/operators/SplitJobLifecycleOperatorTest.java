package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.CancelTask;
import io.locus.schemas.Control;
import io.locus.schemas.ControlType;
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
import io.locus.schemas.SchedulerMetrics;
import io.locus.schemas.SuspendTask;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.codec.DeadLetterCodes;
import io.locus.schemas.internal.SchedulerInput;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A split pool's job lifecycle through the operator: one status per event-range job (QUEUED on
 * acceptance, COMPLETED with its subjob count, or CANCELLED), a cancel of a queued job (it just
 * goes) and of a running one (a CancelTask per running subjob; the agent's answer, even a
 * COMPLETED that crossed the cancel, only frees the node, which takes other work), the refusals
 * of a cancel of a finished or unknown job, and a cancel in flight across a snapshot and restore.
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
    return OperatorHarness.take(harness, SchedulerOperator.JOB_STATUS);
  }

  private List<DeadLetter> rejected() {
    return OperatorHarness.take(harness, SchedulerOperator.REJECTED);
  }

  private static JobCommand cancel(String job, long t) {
    return JobCommand.newBuilder().setPool(POOL).setJobId(job).setType(JobCommandType.CANCEL)
        .setTimeMs(t).build();
  }

  private static SchedulerConfig config(String policy) {
    return new SchedulerConfig(new SchedulerConfig.PolicySpec("MCH", Map.of()),
        Map.of(POOL, new SchedulerConfig.PolicySpec(policy, Map.of("dataset", "lhcb"))), 1000,
        3).withNodeTimeoutMs(Long.MAX_VALUE);
  }

  private static NodeReport register(String node, long t) {
    return NodeReport.newBuilder().setPool(POOL).setNode(node).setType(NodeReportType.REGISTER)
        .setTimeMs(t).setSlots(1).build();
  }

  private static JobSubmitted job(String id, long start, long end, long t) {
    return JobSubmitted.newBuilder().setJobId(id).setPool(POOL).setSubmitTimeMs(t)
        .setInputs(List.of()).setSplittable(true).setPriority(2)
        .setEvents(new EventRange("lhcb", start, end)).build();
  }

  private static TaskEvent end(TaskEventType type, Decision placed, long t, long from, long to) {
    PlaceTask p = (PlaceTask) placed.getAction();
    return TaskEvent.newBuilder().setPool(POOL).setTaskId(p.getTaskId()).setJobId(p.getJobId())
        .setAttempt(p.getAttempt()).setNode(placed.getNode()).setType(type)
        .setDecisionId(placed.getDecisionId()).setTimeMs(t)
        .setEvents(new EventRange("lhcb", from, to)).build();
  }

  private List<Decision> drain() {
    List<Decision> out = new ArrayList<>(harness.extractOutputValues());
    harness.getOutput().clear();
    return out;
  }

  private static JobCommand cancel(String job, String request, long t) {
    return JobCommand.newBuilder(cancel(job, t)).setRequestId(request)
        .setReason("not needed").build();
  }

  @Test
  void anEventRangeJobHasOneStatusAndACancelOfAFinishedOrUnknownJobIsRefused()
      throws Exception {
    harness = OperatorHarness.open(config("farm"), null);
    send(register("n1", T0));
    send(job("j1", 0, 100, T0));
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
    List<DeadLetter> dl = rejected();
    assertThat(dl).extracting(DeadLetter::getCode)
        .containsExactly(DeadLetterCodes.JOB_FINISHED, DeadLetterCodes.UNKNOWN_JOB);
    assertThat(dl.get(0).getOffset()).isEqualTo(offset - 2);
  }

  /**
   * FARM on one node: j1 runs, j2 and j3 wait. j2's cancel takes it out of the FIFO; j1's sends
   * its node a CancelTask; the node's COMPLETED that crossed the cancel is no completion and the
   * node takes j3 (not j2). A second cancel and a resubmission of a cancelled id are refused.
   */
  @Test
  void cancelsOfAQueuedAndARunningJob() throws Exception {
    harness = OperatorHarness.open(config("farm"), null);
    send(register("n1", T0));
    send(job("j1", 0, 100, T0));
    send(job("j2", 100, 200, T0 + 1));
    send(job("j3", 200, 300, T0 + 2));
    Decision j1 = drain().get(0);
    statuses();

    send(cancel("j2", "r-2", T0 + 3));
    assertThat(drain()).isEmpty();
    assertThat(rejected()).isEmpty();
    assertThat(statuses()).singleElement().satisfies(s -> {
      assertThat(s.getJobId()).isEqualTo("j2");
      assertThat(s.getState()).isEqualTo(JobState.CANCELLED);
      assertThat(s.getRequestId()).isEqualTo("r-2");
      assertThat(s.getReason()).isEqualTo("not needed");
      assertThat(s.getTasks()).isZero();
      assertThat(s.getSubmitTimeMs()).isEqualTo(T0 + 1);
      assertThat(s.getEndTimeMs()).isEqualTo(T0 + 3);
    });

    send(cancel("j1", "r-1", T0 + 4));
    assertThat(drain()).singleElement().satisfies(d -> {
      assertThat(d.getNode()).isEqualTo("n1");
      assertThat(d.getDecisionId()).startsWith(POOL + "/cancel/");
      assertThat(d.getAction()).isInstanceOfSatisfying(CancelTask.class, c -> {
        assertThat(c.getTaskId()).isEqualTo("j1/1");
        assertThat(c.getAttempt()).isZero();
        assertThat(c.getReason()).isEqualTo("job cancelled: not needed");
      });
    });
    assertThat(statuses()).singleElement().satisfies(s -> {
      assertThat(s.getJobId()).isEqualTo("j1");
      assertThat(s.getState()).isEqualTo(JobState.CANCELLED);
      assertThat(s.getRequestId()).isEqualTo("r-1");
      assertThat(s.getTasks()).isEqualTo(1); // its one subjob, running
      assertThat(s.getTasksDone()).isZero();
    });

    // the pool is not idle while j1/1 has not stopped: no change of family
    send(Control.newBuilder().setPool(POOL).setType(ControlType.SET_POLICY).setPolicy("FA")
        .setTimeMs(T0 + 5).build());
    assertThat(rejected()).singleElement().satisfies(d -> assertThat(d.getReason())
        .contains("1 unfinished job(s) and 1 cancelled job(s) whose subjobs have not stopped"));

    // j1/1 had finished before the CancelTask reached its node
    send(end(TaskEventType.COMPLETED, j1, T0 + 80_000, 0, 100));
    assertThat(rejected()).isEmpty();
    assertThat(statuses()).as("a cancelled job never completes").isEmpty();
    Decision j3 = drain().get(0);
    assertThat(((PlaceTask) j3.getAction()).getJobId()).isEqualTo("j3");
    assertThat(j3.getNode()).isEqualTo("n1");

    send(cancel("j1", T0 + 80_001));
    send(cancel("j2", T0 + 80_002));
    send(job("j1", 0, 100, T0 + 80_003));
    assertThat(rejected()).extracting(DeadLetter::getCode).containsExactly(
        DeadLetterCodes.JOB_FINISHED, DeadLetterCodes.JOB_FINISHED, DeadLetterCodes.DUPLICATE_JOB);
    send(end(TaskEventType.COMPLETED, j3, T0 + 160_000, 200, 300));
    assertThat(statuses()).singleElement().satisfies(s -> {
      assertThat(s.getJobId()).isEqualTo("j3");
      assertThat(s.getState()).isEqualTo(JobState.COMPLETED);
    });
    harness.setProcessingTime(1000);
    SchedulerMetrics m = harness.getSideOutput(SchedulerOperator.METRICS).peek().getValue();
    assertThat(m.getCompletions()).as("j3's only: j1/1's answer is not a completion")
        .isEqualTo(1);
    assertThat(m.getFailures()).isZero();
    assertThat(m.getQueueLength()).isZero();
    assertThat(m.getRunningTasks()).isZero();
  }

  /**
   * JOB_SPLITTING on two nodes: j1 takes both, j2 suspends j1's subjob on n1; j1 is cancelled
   * while that suspension awaits its acknowledgement (no CancelTask for it: it stops anyway) and
   * its other subjob runs on n2 (a CancelTask). A snapshot then: the acknowledgement, n2's answer
   * and a second cancel give the same outputs with and without the restore, and nothing of j1 is
   * placed again.
   */
  @Test
  void aCancelInFlightSurvivesARestore() throws Exception {
    harness = OperatorHarness.open(config("job_splitting"), null);
    send(register("n1", T0));
    send(register("n2", T0));
    send(job("j1", 0, 1000, T0));
    List<Decision> halves = drain();
    assertThat(halves).hasSize(2);
    send(job("j2", 5000, 6000, T0 + 100_000));
    List<Decision> preempt = drain();
    Decision suspend = preempt.get(0);
    assertThat(suspend.getAction()).isInstanceOf(SuspendTask.class);
    String suspended = ((SuspendTask) suspend.getAction()).getTaskId();
    Decision running = halves.stream().filter(d -> !d.getNode().equals(suspend.getNode()))
        .findFirst().orElseThrow();
    statuses();
    send(cancel("j1", "r-1", T0 + 101_000));
    assertThat(drain()).singleElement().satisfies(d -> {
      assertThat(d.getNode()).isEqualTo(running.getNode());
      assertThat(((CancelTask) d.getAction()).getTaskId())
          .isEqualTo(((PlaceTask) running.getAction()).getTaskId());
    });
    assertThat(statuses()).extracting(JobStatus::getJobId, JobStatus::getState,
        JobStatus::getTasks, JobStatus::getTasksDone)
        // open: the suspended subjob, its remainder (queued) and the running one
        .containsExactly(org.assertj.core.groups.Tuple.tuple("j1", JobState.CANCELLED, 3, 0));
    rejected();
    OperatorSubtaskState snap = harness.snapshot(1, 100);

    List<Object> after = List.of(
        TaskEvent.newBuilder().setPool(POOL).setTaskId(suspended).setJobId("j1").setAttempt(0)
            .setNode(suspend.getNode()).setType(TaskEventType.SUSPENDED)
            .setDecisionId(suspend.getDecisionId()).setStopAt(120L).setTimeMs(T0 + 102_000)
            .build(),
        end(TaskEventType.FAILED, running, T0 + 103_000, 500, 640),
        cancel("j1", T0 + 104_000),
        register("n3", T0 + 105_000));
    List<String> before = replay(after);
    harness.close();

    harness = OperatorHarness.open(config("job_splitting"), snap);
    List<String> restored = replay(after);
    assertThat(restored).isEqualTo(before);
    // the acknowledgement settles the suspension; n2's answer frees it for j2's work (a shrink
    // of j2's subjob, whose tail n2 will run); nothing of j1 comes back, nor a status of it
    // (decision numbers count the suspend and the cancel before)
    assertThat(before).containsExactly("ShrinkTask " + POOL + "/shrink/3",
        "dead-letter " + DeadLetterCodes.JOB_FINISHED);
  }

  /** What the operator emits for {@code events}: decisions, statuses, dead letters. */
  private List<String> replay(List<Object> events) throws Exception {
    List<String> out = new ArrayList<>();
    for (Object e : events) {
      send(e);
      for (Decision d : drain()) {
        out.add((d.getAction() instanceof PlaceTask p ? "place " + p.getTaskId() + "@"
            + d.getNode() : d.getAction().getClass().getSimpleName() + " " + d.getDecisionId()));
      }
      statuses().forEach(s -> out.add("status " + s.getJobId() + ":" + s.getState()));
      rejected().forEach(d -> out.add("dead-letter " + d.getCode()));
    }
    return out;
  }
}
