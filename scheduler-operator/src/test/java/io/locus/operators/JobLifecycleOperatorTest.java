package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.CancelTask;
import io.locus.schemas.DataUnit;
import io.locus.schemas.DeadLetter;
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
import io.locus.schemas.codec.DeadLetterCodes;
import io.locus.schemas.internal.SchedulerInput;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A file pool's job lifecycle through the scheduler operator (Flink's harness on RocksDB): the
 * job-status transitions of a normal, a failed-then-retried and a cancelled job; CANCEL of a
 * queued, a placed, a running and a locally queued job, a completion racing the cancel, the two
 * refusals (job-finished, unknown-job), and a cancel in flight across a snapshot and restore.
 */
@Timeout(60)
class JobLifecycleOperatorTest {
  private static final String POOL = "p";
  private static final long MB = 1_000_000L;
  private KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> harness;
  private long offset;

  private void operator(int maxRetries, OperatorSubtaskState restoreFrom) throws Exception {
    SchedulerConfig config = new SchedulerConfig(new SchedulerConfig.PolicySpec("FA", Map.of()),
        Map.of(), 1000, maxRetries);
    harness = OperatorHarness.open(config, restoreFrom);
    harness.setProcessingTime(0);
  }

  @AfterEach
  void close() throws Exception {
    if (harness != null) {
      harness.close();
    }
  }

  private void send(Object event, long t) throws Exception {
    String topic = event instanceof JobCommand ? "job-commands" : "other";
    harness.processElement(new StreamRecord<>(SchedulerInput.newBuilder().setPool(POOL)
        .setEvent(event).setSourceTopic(topic).setSourcePartition(0)
        .setSourceOffset(offset++).build(), t));
  }

  private static NodeReport register(String node, int slots, int queueDepth, long t) {
    return NodeReport.newBuilder().setPool(POOL).setNode(node).setType(NodeReportType.REGISTER)
        .setTimeMs(t).setSlots(slots).setQueueDepth(queueDepth)
        .setCacheCapacityBytes(1000 * MB).build();
  }

  private static JobSubmitted job(String id, long t) {
    return JobSubmitted.newBuilder().setJobId(id).setPool(POOL).setSubmitTimeMs(t)
        .setPriority(3).setWorkflow("wf")
        .setInputs(List.of(DataUnit.newBuilder().setId("f-" + id).setBytes(10 * MB).build()))
        .setComputeSeconds(1.0).build();
  }

  private static TaskEvent event(TaskEventType type, String task, int attempt, String node,
      long t) {
    return TaskEvent.newBuilder().setPool(POOL).setTaskId(task).setJobId(task)
        .setAttempt(attempt).setNode(node).setType(type)
        .setDecisionId(POOL + "/" + task + "/" + attempt).setEpoch(1).setTimeMs(t)
        .setStartTimeMs(t)
        .setMessage(type == TaskEventType.FAILED ? "exit 3" : null).build();
  }

  private static JobCommand cancel(String job, String requestId, long t) {
    return JobCommand.newBuilder().setPool(POOL).setJobId(job).setType(JobCommandType.CANCEL)
        .setTimeMs(t).setReason("not needed any more").setRequestId(requestId).build();
  }

  private List<Decision> drain() {
    List<Decision> out = harness.extractOutputValues();
    harness.getOutput().clear();
    return out;
  }

  private List<JobStatus> statuses() {
    return OperatorHarness.take(harness, SchedulerOperator.JOB_STATUS);
  }

  private List<DeadLetter> rejected() {
    return OperatorHarness.take(harness, SchedulerOperator.REJECTED);
  }

  private SchedulerMetrics metricsAt(long processingTime) throws Exception {
    harness.setProcessingTime(processingTime);
    SchedulerMetrics last = null;
    for (StreamRecord<SchedulerMetrics> r : harness.getSideOutput(SchedulerOperator.METRICS)) {
      last = r.getValue();
    }
    return last;
  }

  private static List<String> states(List<JobStatus> s) {
    return s.stream().map(x -> x.getJobId() + ":" + x.getState() + "#" + x.getAttempt()).toList();
  }

  private static CancelTask cancelTask(Decision d) {
    assertThat(d.getDecisionId()).startsWith(POOL + "/cancel/");
    CancelTask c = (CancelTask) d.getAction();
    assertThat(c.getOnlyIfQueued()).as("a cancel, not a withdraw").isFalse();
    return c;
  }

  @Test
  void aNormalJobIsQueuedPlacedRunningAndCompletedOnThePoolClock() throws Exception {
    operator(3, null);
    send(register("n1", 1, 0, 10), 10);
    send(job("a", 20), 20);
    send(event(TaskEventType.STARTED, "a", 0, "n1", 30), 30);
    send(event(TaskEventType.COMPLETED, "a", 0, "n1", 40), 40);

    List<JobStatus> s = statuses();
    assertThat(states(s)).containsExactly("a:QUEUED#0", "a:PLACED#0", "a:RUNNING#0",
        "a:COMPLETED#0");
    JobStatus queued = s.get(0);
    assertThat(queued.getReason()).isEqualTo("accepted");
    assertThat(queued.getWorkflow()).isEqualTo("wf");
    assertThat(queued.getPriority()).isEqualTo(3);
    assertThat(queued.getSubmitTimeMs()).isEqualTo(20);
    assertThat(queued.getPendingCode()).isEqualTo("no-free-slot");
    assertThat(s.get(1).getNode()).isEqualTo("n1");
    assertThat(s.get(1).getReason()).startsWith("FA:");
    assertThat(s.get(2).getStartTimeMs()).isEqualTo(30);
    JobStatus done = s.get(3);
    assertThat(done.getNode()).isEqualTo("n1");
    assertThat(done.getTasks()).isEqualTo(1);
    assertThat(done.getTasksDone()).isEqualTo(1);
    assertThat(done.getEndTimeMs()).isEqualTo(40);
    assertThat(s).extracting(JobStatus::getTimeMs).containsExactly(20L, 20L, 30L, 40L);
    assertThat(s).allSatisfy(x -> {
      assertThat(x.getPool()).isEqualTo(POOL);
      assertThat(x.getEpoch()).isEqualTo(1);
    });
    assertThat(rejected()).isEmpty();
  }

  /**
   * The workflow runner keys job-status by workflow: every transition of a workflow job names it,
   * not only the QUEUED one the arrival carries it on, also after a restore.
   */
  @Test
  void everyStatusOfAWorkflowJobNamesItsWorkflowAlsoAfterARestore() throws Exception {
    operator(3, null);
    send(register("n1", 1, 0, 10), 10);
    send(job("a", 20), 20);
    send(JobSubmitted.newBuilder(job("solo", 21)).setWorkflow(null).build(), 21);
    send(event(TaskEventType.STARTED, "a", 0, "n1", 30), 30);
    assertThat(statuses()).filteredOn(x -> x.getJobId().equals("a"))
        .extracting(JobStatus::getWorkflow).containsExactly("wf", "wf", "wf");
    OperatorSubtaskState snap = harness.snapshot(1, 100);
    harness.close();
    operator(3, snap);
    send(event(TaskEventType.COMPLETED, "a", 0, "n1", 40), 40);
    List<JobStatus> s = statuses();
    assertThat(s).filteredOn(x -> x.getJobId().equals("a")).singleElement().satisfies(x -> {
      assertThat(x.getState()).isEqualTo(JobState.COMPLETED);
      assertThat(x.getWorkflow()).isEqualTo("wf");
    });
    assertThat(s).filteredOn(x -> x.getJobId().equals("solo"))
        .allSatisfy(x -> assertThat(x.getWorkflow()).isNull());
  }

  @Test
  void aFailedAttemptIsQueuedAgainWithWhyAndTheLastFailureIsFinal() throws Exception {
    operator(1, null);
    send(register("n1", 1, 0, 10), 10);
    send(job("a", 20), 20);
    send(event(TaskEventType.FAILED, "a", 0, "n1", 30), 30);
    send(event(TaskEventType.FAILED, "a", 1, "n1", 40), 40);

    List<JobStatus> s = statuses();
    assertThat(states(s)).containsExactly("a:QUEUED#0", "a:PLACED#0", "a:QUEUED#1",
        "a:PLACED#1", "a:FAILED#1");
    assertThat(s.get(2).getReason()).isEqualTo("attempt 0 FAILED on node n1: exit 3");
    assertThat(s.get(2).getPendingCode()).isEqualTo("no-free-slot");
    assertThat(s.get(4).getReason()).isEqualTo("attempt 1 FAILED on node n1: exit 3 (no retry "
        + "left)");
    assertThat(s.get(4).getEndTimeMs()).isEqualTo(40);
    assertThat(s.get(4).getNode()).isEqualTo("n1");
  }

  @Test
  void aLostNodesAttemptIsQueuedAgainNamingTheNode() throws Exception {
    operator(3, null);
    send(register("n1", 1, 0, 10), 10);
    send(job("a", 20), 20);
    statuses();
    send(NodeReport.newBuilder().setPool(POOL).setNode("n1").setType(NodeReportType.LEAVE)
        .setTimeMs(30).build(), 30);
    List<JobStatus> s = statuses();
    assertThat(states(s)).containsExactly("a:QUEUED#1");
    assertThat(s.get(0).getReason()).isEqualTo("node n1 left; attempt 0 is placed again");
    assertThat(s.get(0).getPendingCode()).as("the pool has no node left").isEqualTo("no-node");
  }

  @Test
  void cancellingAQueuedJobRemovesItForGood() throws Exception {
    operator(3, null);
    send(job("a", 20), 20);
    assertThat(statuses()).singleElement().satisfies(x -> {
      assertThat(x.getState()).isEqualTo(JobState.QUEUED);
      assertThat(x.getPendingCode()).isEqualTo("no-node");
    });
    send(cancel("a", "r-1", 25), 25);
    List<JobStatus> s = statuses();
    assertThat(states(s)).containsExactly("a:CANCELLED#0");
    assertThat(s.get(0).getRequestId()).isEqualTo("r-1");
    assertThat(s.get(0).getReason()).isEqualTo("not needed any more");
    assertThat(s.get(0).getEndTimeMs()).isEqualTo(25);
    assertThat(s.get(0).getNode()).isNull();

    send(register("n1", 1, 0, 30), 30);
    assertThat(drain()).as("nothing left to place").isEmpty();
    assertThat(statuses()).isEmpty();
    SchedulerMetrics m = metricsAt(60_000);
    assertThat(m.getQueueLength()).isZero();
    assertThat(m.getFailures()).as("a cancel is not a failure").isZero();

    send(cancel("a", "r-2", 35), 35);
    assertThat(rejected()).singleElement().satisfies(d -> {
      assertThat(d.getCode()).isEqualTo(DeadLetterCodes.JOB_FINISHED);
      assertThat(d.getSourceTopic()).isEqualTo("job-commands");
      assertThat(d.getOffset()).isEqualTo(offset - 1);
      assertThat(d.getReason()).contains("job 'a'", "already completed, failed for good or was "
          + "cancelled");
    });
  }

  @Test
  void cancellingARunningJobStopsItsAttemptAndKeepsTheSlotUntilTheNodeAnswers()
      throws Exception {
    operator(3, null);
    send(register("n1", 1, 0, 10), 10);
    send(job("a", 20), 20);
    send(event(TaskEventType.STARTED, "a", 0, "n1", 30), 30);
    send(job("b", 35), 35);
    drain();
    statuses();

    send(cancel("a", "r-1", 40), 40);
    List<Decision> d = drain();
    assertThat(d).singleElement().satisfies(x -> {
      assertThat(x.getNode()).isEqualTo("n1");
      CancelTask c = cancelTask(x);
      assertThat(c.getTaskId()).isEqualTo("a");
      assertThat(c.getAttempt()).isZero();
      assertThat(c.getReason()).isEqualTo("job cancelled: not needed any more");
    });
    assertThat(statuses()).singleElement().satisfies(x -> {
      assertThat(x.getState()).isEqualTo(JobState.CANCELLED);
      assertThat(x.getNode()).isEqualTo("n1");
      assertThat(x.getRequestId()).isEqualTo("r-1");
    });

    // the process may still be dying: b waits for the node's answer
    send(NodeReport.newBuilder().setPool(POOL).setNode("n1").setType(NodeReportType.HEARTBEAT)
        .setTimeMs(45).build(), 45);
    assertThat(drain()).isEmpty();
    // the agent's answer to a cancel of a running attempt: FAILED (aborted)
    send(event(TaskEventType.FAILED, "a", 0, "n1", 50), 50);
    assertThat(drain()).singleElement().satisfies(x ->
        assertThat(((PlaceTask) x.getAction()).getTaskId()).isEqualTo("b"));
    assertThat(states(statuses())).as("no retry, no failure of a").containsExactly("b:PLACED#0");
    SchedulerMetrics m = metricsAt(60_000);
    assertThat(m.getFailures()).isZero();
    assertThat(m.getCompletions()).isZero();
    assertThat(rejected()).isEmpty();
  }

  @Test
  void aCompletionRacingTheCancelFreesTheSlotButDoesNotResurrectTheJob() throws Exception {
    operator(3, null);
    send(register("n1", 1, 0, 10), 10);
    send(job("a", 20), 20);
    drain();
    statuses();
    send(cancel("a", null, 30), 30);
    assertThat(drain()).singleElement().satisfies(x -> cancelTask(x));
    assertThat(states(statuses())).containsExactly("a:CANCELLED#0");

    send(cancel("a", null, 32), 32);
    assertThat(rejected()).as("a second cancel while the node has not answered")
        .extracting(DeadLetter::getCode).containsExactly(DeadLetterCodes.JOB_FINISHED);

    send(event(TaskEventType.COMPLETED, "a", 0, "n1", 35), 35);
    assertThat(statuses()).as("still cancelled").isEmpty();
    assertThat(rejected()).isEmpty();
    // a duplicate of the answer is about an attempt the pool no longer has
    send(event(TaskEventType.COMPLETED, "a", 0, "n1", 36), 36);
    assertThat(statuses()).isEmpty();
    assertThat(rejected()).extracting(DeadLetter::getCode)
        .containsExactly(DeadLetterCodes.UNKNOWN_TASK);
    SchedulerMetrics m = metricsAt(60_000);
    assertThat(m.getCompletions()).as("the cancelled job is not counted").isZero();
    assertThat(m.getBusySlots()).isZero();
    assertThat(m.getRunningTasks()).isZero();
  }

  @Test
  void cancellingAnAttemptInTheNodesLocalQueueIsACancelNotAWithdraw() throws Exception {
    operator(3, null);
    send(register("n1", 1, 1, 10), 10);
    send(job("a", 20), 20);
    send(job("b", 21), 21);
    send(event(TaskEventType.STARTED, "a", 0, "n1", 22), 22);
    assertThat(drain()).hasSize(2);
    statuses();
    send(cancel("b", null, 30), 30);
    assertThat(drain()).singleElement().satisfies(x ->
        assertThat(cancelTask(x).getTaskId()).isEqualTo("b"));
    assertThat(states(statuses())).containsExactly("b:CANCELLED#0");
    // the agent ends the queued attempt FAILED; the position is free again
    send(event(TaskEventType.FAILED, "b", 0, "n1", 31), 31);
    send(job("c", 32), 32);
    assertThat(drain()).singleElement().satisfies(x ->
        assertThat(((PlaceTask) x.getAction()).getTaskId()).isEqualTo("c"));
    assertThat(states(statuses())).containsExactly("c:QUEUED#0", "c:PLACED#0");
  }

  /**
   * A refused workflow job fails for good on job-status (its runner reads nothing else), except a
   * repeated delivery of the same submission: the same id in the same workflow is a dead letter
   * only, the same id from another workflow while the first is unfinished fails.
   */
  @Test
  void aRefusedWorkflowJobFailsButTheSameSubmissionDeliveredTwiceDoesNot() throws Exception {
    operator(3, null);
    send(register("n1", 1, 0, 10), 10);
    send(job("a", 20), 20);
    statuses();
    send(job("a", 21), 21); // the runner's release delivered again: same workflow "wf"
    assertThat(rejected()).extracting(DeadLetter::getCode)
        .containsExactly(DeadLetterCodes.DUPLICATE_JOB);
    assertThat(statuses()).as("a repeat changes nothing").isEmpty();

    send(JobSubmitted.newBuilder(job("a", 22)).setWorkflow("wf-rerun").build(), 22);
    assertThat(rejected()).extracting(DeadLetter::getCode)
        .containsExactly(DeadLetterCodes.DUPLICATE_JOB);
    assertThat(statuses()).singleElement().satisfies(x -> {
      assertThat(x.getJobId()).isEqualTo("a");
      assertThat(x.getWorkflow()).isEqualTo("wf-rerun");
      assertThat(x.getState()).isEqualTo(JobState.FAILED);
      assertThat(x.getReason()).startsWith("refused by the scheduler (duplicate-job)");
    });

    // an event-range job in a file pool: the driver refuses it
    send(JobSubmitted.newBuilder(job("bad", 23)).setSplittable(true)
        .setEvents(new io.locus.schemas.EventRange("d", 0L, 10L)).build(), 23);
    assertThat(rejected()).hasSize(1);
    List<JobStatus> s = statuses();
    assertThat(s).singleElement().satisfies(x -> {
      assertThat(x.getJobId()).isEqualTo("bad");
      assertThat(x.getWorkflow()).isEqualTo("wf");
      assertThat(x.getState()).isEqualTo(JobState.FAILED);
    });
    send(JobSubmitted.newBuilder(job("solo", 24)).setWorkflow(null).setSplittable(true)
        .setEvents(new io.locus.schemas.EventRange("d", 0L, 10L)).build(), 24);
    assertThat(rejected()).hasSize(1);
    assertThat(statuses()).as("a job outside workflows: its dead letter only").isEmpty();
  }

  @Test
  void refusalsNameTheJobAndTheRecord() throws Exception {
    operator(3, null);
    send(register("n1", 1, 0, 10), 10);
    send(job("a", 20), 20);
    send(event(TaskEventType.COMPLETED, "a", 0, "n1", 30), 30);
    statuses();
    drain();
    send(cancel("a", "r-1", 40), 40);
    send(cancel("ghost", "r-2", 41), 41);
    List<DeadLetter> dl = rejected();
    assertThat(dl).extracting(DeadLetter::getCode)
        .containsExactly(DeadLetterCodes.JOB_FINISHED, DeadLetterCodes.UNKNOWN_JOB);
    assertThat(dl.get(1).getReason()).contains("job 'ghost'", "does not know it");
    assertThat(dl).extracting(DeadLetter::getOffset).containsExactly(offset - 2, offset - 1);
    assertThat(dl).allSatisfy(x -> assertThat(x.getSourceTopic()).isEqualTo("job-commands"));
    assertThat(statuses()).isEmpty();
    assertThat(drain()).isEmpty();
  }

  @Test
  void aCancelInFlightSurvivesARestoreAndTheReplayPublishesTheSameStatuses() throws Exception {
    operator(3, null);
    send(register("n1", 1, 0, 10), 10);
    send(job("a", 20), 20);
    send(job("b", 21), 21);
    send(job("c", 22), 22);
    send(cancel("c", "r-0", 23), 23); // queued: gone for good, also after the restore
    send(cancel("a", "r-1", 30), 30);
    drain();
    statuses();
    OperatorSubtaskState snap = harness.snapshot(1, 100);

    // after the checkpoint: the node's answer, then b's run
    List<Object> after = List.of(event(TaskEventType.FAILED, "a", 0, "n1", 40),
        event(TaskEventType.STARTED, "b", 0, "n1", 41),
        event(TaskEventType.COMPLETED, "b", 0, "n1", 42),
        cancel("a", "r-2", 43), cancel("c", "r-3", 44),
        NodeReport.newBuilder().setPool(POOL).setNode("n1").setType(NodeReportType.HEARTBEAT)
            .setTimeMs(45).build());
    List<String> before = replay(after);
    harness.close();

    operator(3, snap);
    List<String> restored = replay(after);
    assertThat(restored).isEqualTo(before);
    assertThat(before).containsExactly("decision p/b/0", "status b:PLACED#0",
        "status b:RUNNING#0", "status b:COMPLETED#0", "dead-letter job-finished",
        "dead-letter job-finished");
  }

  /** What the operator emits for {@code events}: decisions, statuses (no epoch), dead letters. */
  private List<String> replay(List<Object> events) throws Exception {
    List<String> out = new ArrayList<>();
    for (Object e : events) {
      send(e, InputGate.eventTime(e));
      drain().forEach(d -> out.add("decision " + d.getDecisionId()));
      statuses().forEach(s -> out.add("status " + s.getJobId() + ":" + s.getState() + "#"
          + s.getAttempt()));
      rejected().forEach(d -> out.add("dead-letter " + d.getCode()));
    }
    return out;
  }
}
