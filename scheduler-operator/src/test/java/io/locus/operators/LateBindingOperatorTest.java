package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.CancelTask;
import io.locus.schemas.DataUnit;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.Decision;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.SchedulerMetrics;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
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
 * Late binding (issue 13 protocol) through the scheduler operator in Flink's harness on RocksDB:
 * nodes advertise a local-queue depth, the pool places beyond their slots up to it (capped by
 * the pool parameter maxQueueDepth), persists STARTED and the depth, withdraws an unstarted
 * attempt for a slot left free, and handles the node's WITHDRAWN and REFUSED answers.
 */
@Timeout(60)
class LateBindingOperatorTest {
  private static final String POOL = "p";
  private static final long MB = 1_000_000L;
  private KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> harness;

  private void operator(String policy, Map<String, String> params,
      OperatorSubtaskState restoreFrom) throws Exception {
    SchedulerConfig config = new SchedulerConfig(new SchedulerConfig.PolicySpec(policy, params),
        Map.of(), 1000, 3);
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
    harness.processElement(new StreamRecord<>(
        SchedulerInput.newBuilder().setPool(POOL).setEvent(event).build(), t));
  }

  private static NodeReport register(String node, int slots, int queueDepth, long t) {
    return NodeReport.newBuilder().setPool(POOL).setNode(node).setType(NodeReportType.REGISTER)
        .setTimeMs(t).setSlots(slots).setQueueDepth(queueDepth)
        .setCacheCapacityBytes(1000 * MB).build();
  }

  private static NodeReport heartbeat(String node, int queueDepth, long t) {
    return NodeReport.newBuilder().setPool(POOL).setNode(node).setType(NodeReportType.HEARTBEAT)
        .setTimeMs(t).setQueueDepth(queueDepth).build();
  }

  private static JobSubmitted job(String id, long t) {
    return JobSubmitted.newBuilder().setJobId(id).setPool(POOL).setSubmitTimeMs(t)
        .setInputs(List.of(DataUnit.newBuilder().setId("f-" + id).setBytes(10 * MB).build()))
        .setComputeSeconds(1.0).build();
  }

  private static TaskEvent event(TaskEventType type, String task, int attempt, String node,
      String decisionId, long t) {
    return TaskEvent.newBuilder().setPool(POOL).setTaskId(task).setJobId(task)
        .setAttempt(attempt).setNode(node).setType(type).setDecisionId(decisionId).setTimeMs(t)
        .build();
  }

  private static String id(String task, int attempt) {
    return POOL + "/" + task + "/" + attempt;
  }

  private List<Decision> drain() {
    List<Decision> out = harness.extractOutputValues();
    harness.getOutput().clear();
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

  private SchedulerMetrics metricsNow(long processingTime) throws Exception {
    harness.setProcessingTime(processingTime);
    SchedulerMetrics last = null;
    for (StreamRecord<SchedulerMetrics> r : harness.getSideOutput(SchedulerOperator.METRICS)) {
      last = r.getValue();
    }
    return last;
  }

  private static CancelTask withdraw(Decision d) {
    assertThat(d.getDecisionId()).startsWith(POOL + "/cancel/");
    assertThat(d.getAction()).isInstanceOf(CancelTask.class);
    CancelTask c = (CancelTask) d.getAction();
    assertThat(c.getOnlyIfQueued()).as("a withdraw, not a cancel").isTrue();
    return c;
  }

  @Test
  void aRegisteredQueueDepthTakesPlacementsBeyondTheSlotsAndBusySlotsStayRunning()
      throws Exception {
    operator("FA", Map.of(), null);
    send(register("n1", 1, 2, 1), 1);
    for (int i = 1; i <= 4; i++) {
      send(job("j" + i, 1 + i), 1 + i);
    }
    assertThat(drain()).extracting(Decision::getDecisionId)
        .containsExactly(id("j1", 0), id("j2", 0), id("j3", 0));
    SchedulerMetrics m = metricsNow(60_000);
    assertThat(m.getRunningTasks()).isEqualTo(3);
    assertThat(m.getBusySlots()).as("queued positions are not busy slots").isEqualTo(1);
    assertThat(m.getQueueLength()).isEqualTo(1);
    assertThat(rejected()).isEmpty();
  }

  @Test
  void maxQueueDepthCapsWhatTheAgentAdvertises() throws Exception {
    operator("FA", Map.of("maxQueueDepth", "1"), null);
    send(register("n1", 1, 4, 1), 1);
    for (int i = 1; i <= 4; i++) {
      send(job("j" + i, 1 + i), 1 + i);
    }
    assertThat(drain()).extracting(Decision::getDecisionId)
        .containsExactly(id("j1", 0), id("j2", 0));
    // a heartbeat advertising 0 takes the queue position away: a completion frees nothing
    send(heartbeat("n1", 0, 10), 10);
    send(event(TaskEventType.COMPLETED, "j1", 0, "n1", id("j1", 0), 11), 11);
    assertThat(drain()).isEmpty();
    send(event(TaskEventType.COMPLETED, "j2", 0, "n1", id("j2", 0), 12), 12);
    assertThat(drain()).extracting(Decision::getDecisionId).containsExactly(id("j3", 0));
  }

  @Test
  void startedAndTheQueueDepthSurviveARestore() throws Exception {
    operator("FA", Map.of(), null);
    send(register("n1", 1, 1, 1), 1);
    send(job("j1", 2), 2);
    send(job("j2", 3), 3);
    assertThat(drain()).hasSize(2);
    send(event(TaskEventType.STARTED, "j1", 0, "n1", id("j1", 0), 4), 4);
    send(event(TaskEventType.STARTED, "j2", 0, "n1", id("j2", 0), 5), 5);
    assertThat(rejected()).isEmpty();
    OperatorSubtaskState checkpoint = harness.snapshot(1, 6);
    harness.close();
    operator("FA", Map.of(), checkpoint);

    // a free slot on n2, but both of n1's attempts started: nothing to withdraw
    send(register("n2", 1, 0, 10), 10);
    assertThat(drain()).isEmpty();
    send(job("j3", 11), 11); // n2's slot
    send(job("j4", 12), 12); // waits: n1 and n2 are full
    assertThat(drain()).extracting(Decision::getDecisionId, Decision::getNode)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(id("j3", 0), "n2"));
    // j1 ends: n1 has its queue position again (depth 1 restored), j4 takes it
    send(event(TaskEventType.COMPLETED, "j1", 0, "n1", id("j1", 0), 13), 13);
    assertThat(drain()).extracting(Decision::getDecisionId, Decision::getNode)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(id("j4", 0), "n1"));
    assertThat(rejected()).isEmpty();
  }

  /** n1 (1 slot, depth 2) holds j1 running and j3, j4 queued; n2 (1 slot) ran j2. */
  private void overfullN1AndAFreeSlotOnN2() throws Exception {
    operator("FA", Map.of(), null);
    send(register("n1", 1, 2, 1), 1);
    send(register("n2", 1, 0, 2), 2);
    for (int i = 1; i <= 4; i++) {
      send(job("j" + i, 2 + i), 2 + i);
    }
    assertThat(drain()).extracting(Decision::getDecisionId, Decision::getNode).containsExactly(
        org.assertj.core.groups.Tuple.tuple(id("j1", 0), "n1"),
        org.assertj.core.groups.Tuple.tuple(id("j2", 0), "n2"),
        org.assertj.core.groups.Tuple.tuple(id("j3", 0), "n1"),
        org.assertj.core.groups.Tuple.tuple(id("j4", 0), "n1"));
    send(event(TaskEventType.STARTED, "j1", 0, "n1", id("j1", 0), 10), 10);
    send(event(TaskEventType.STARTED, "j2", 0, "n2", id("j2", 0), 11), 11);
    assertThat(drain()).isEmpty();
  }

  @Test
  void aSlotFreedWhileAnotherNodeHoldsAnUnstartedAttemptWithdrawsItAndWithdrawnReplacesIt()
      throws Exception {
    overfullN1AndAFreeSlotOnN2();
    send(event(TaskEventType.COMPLETED, "j2", 0, "n2", id("j2", 0), 12), 12);
    Decision w = drain().stream().filter(d -> d.getAction() instanceof CancelTask).findFirst()
        .orElseThrow();
    assertThat(w.getNode()).isEqualTo("n1");
    CancelTask c = withdraw(w);
    assertThat(c.getTaskId()).isEqualTo("j4"); // the most recently placed unstarted attempt
    assertThat(c.getAttempt()).isZero();

    // n1 took it out of its queue: j4 goes back at its position and onto n2's free slot
    TaskEvent withdrawn = event(TaskEventType.WITHDRAWN, "j4", 0, "n1", id("j4", 0), 13);
    withdrawn.setMessage(c.getReason());
    send(withdrawn, 13);
    assertThat(rejected()).isEmpty();
    List<Decision> after = drain();
    assertThat(after).extracting(Decision::getDecisionId, Decision::getNode).containsExactly(
        org.assertj.core.groups.Tuple.tuple(id("j4", 1), "n2"));
    assertThat(((PlaceTask) after.get(0).getAction()).getAttempt()).isEqualTo(1);
    // a withdrawn attempt is no failure: the task still has every retry
    SchedulerMetrics m = metricsNow(60_000);
    assertThat(m.getFailures()).isZero();
    assertThat(m.getRunningTasks()).isEqualTo(3);
  }

  @Test
  void aRefusedWithdrawOnlyClearsTheMarkSoAnotherAttemptIsAsked() throws Exception {
    overfullN1AndAFreeSlotOnN2();
    send(event(TaskEventType.COMPLETED, "j2", 0, "n2", id("j2", 0), 12), 12);
    Decision w = drain().get(0);
    assertThat(withdraw(w).getTaskId()).isEqualTo("j4");
    // while it is in flight, nothing more is asked for the same slot
    send(heartbeat("n1", 2, 13), 13);
    assertThat(drain()).isEmpty();

    // j4 had started (its STARTED comes first), so n1 refuses with the withdraw's own id
    send(event(TaskEventType.STARTED, "j4", 0, "n1", id("j4", 0), 14), 14);
    TaskEvent refused = event(TaskEventType.REFUSED, "j4", 0, "n1", w.getDecisionId(), 15);
    refused.setMessage("started");
    send(refused, 15);
    assertThat(rejected()).isEmpty();
    List<Decision> next = drain();
    assertThat(next).hasSize(1);
    assertThat(next.get(0).getDecisionId()).isNotEqualTo(w.getDecisionId());
    assertThat(withdraw(next.get(0)).getTaskId()).isEqualTo("j3");
    // j4 still runs on n1: not re-queued, not failed
    SchedulerMetrics m = metricsNow(60_000);
    assertThat(m.getRunningTasks()).isEqualTo(3);
    assertThat(m.getQueueLength()).isZero();
    assertThat(m.getFailures()).isZero();
  }
}
