package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.CancelTask;
import io.locus.schemas.Control;
import io.locus.schemas.ControlType;
import io.locus.schemas.DataUnit;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.Decision;
import io.locus.schemas.JobState;
import io.locus.schemas.JobStatus;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.QueueConfig;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.codec.DeadLetterCodes;
import io.locus.schemas.internal.SchedulerInput;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Preemption through the scheduler operator in Flink's harness on RocksDB (issue 24): queue a
 * fills the pool, queue b arrives below its guarantee; the pool sends CancelTask(preempt) with the
 * grace period to exactly b's deficit, once; a PREEMPTED re-queues the task (job PREEMPTED, then
 * QUEUED) and the freed slot goes to b; a PREEMPTED the pool did not ask for is a dead letter
 * {@code not-preempting}; and a restore in the middle of the preemption decides identically.
 */
@Timeout(60)
class PreemptionOperatorTest {
  private static final String POOL = "p";
  private KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> harness;

  @AfterEach
  void close() throws Exception {
    if (harness != null) {
      harness.close();
    }
  }

  private static KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> open(
      OperatorSubtaskState from) throws Exception {
    var h = OperatorHarness.open(SchedulerConfig.defaults("FA"), from);
    h.setProcessingTime(0);
    return h;
  }

  private static void send(KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision>
      h, Object event, long t) throws Exception {
    h.processElement(new StreamRecord<>(
        SchedulerInput.newBuilder().setPool(POOL).setEvent(event).build(), t));
  }

  private void send(Object event, long t) throws Exception {
    send(harness, event, t);
  }

  private static <T> List<T> side(
      KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> h,
      OutputTag<T> tag) {
    List<T> out = new ArrayList<>();
    var q = h.getSideOutput(tag);
    if (q != null) {
      q.forEach(r -> out.add(r.getValue()));
      q.clear();
    }
    return out;
  }

  private static List<Decision> decisions(
      KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> h) {
    List<Decision> out = new ArrayList<>(h.extractOutputValues());
    h.getOutput().clear();
    return out;
  }

  private static QueueConfig queue(String name, int guaranteed) {
    return QueueConfig.newBuilder().setName(name).setParent(null).setWeight(1)
        .setGuaranteedSlots(guaranteed).setLimitSlots(null).build();
  }

  private static JobSubmitted job(String id, String queue, long t) {
    return JobSubmitted.newBuilder().setJobId(id).setPool(POOL).setSubmitTimeMs(t)
        .setInputs(List.of(DataUnit.newBuilder().setId("f-" + id).setBytes(1000).build()))
        .setComputeSeconds(1000.0).setQueue(queue).build();
  }

  private static NodeReport register(String node, int slots, long t) {
    return NodeReport.newBuilder().setPool(POOL).setNode(node).setType(NodeReportType.REGISTER)
        .setTimeMs(t).setSlots(slots).setCacheCapacityBytes(1_000_000).setSeq(1).build();
  }

  private static NodeReport heartbeat(String node, long t) {
    return NodeReport.newBuilder().setPool(POOL).setNode(node).setType(NodeReportType.HEARTBEAT)
        .setTimeMs(t).build();
  }

  private static TaskEvent event(TaskEventType type, String task, int attempt, String node,
      long t) {
    return TaskEvent.newBuilder().setPool(POOL).setTaskId(task).setJobId(task)
        .setAttempt(attempt).setNode(node).setType(type).setTimeMs(t)
        .setDecisionId(POOL + "/" + task + "/" + attempt).build();
  }

  private static List<CancelTask> preemptions(List<Decision> ds) {
    List<CancelTask> out = new ArrayList<>();
    for (Decision d : ds) {
      if (d.getAction() instanceof CancelTask c) {
        assertThat(c.getPreempt()).as("a preemption, not a cancel").isTrue();
        assertThat(c.getOnlyIfQueued()).isFalse();
        out.add(c);
      }
    }
    return out;
  }

  private static String nodeOf(List<Decision> placements, String task) {
    return placements.stream().filter(d -> d.getAction() instanceof PlaceTask p
        && p.getTaskId().equals(task)).map(Decision::getNode).findFirst().orElseThrow();
  }

  /** Queue a holds all 4 slots; b's 2 jobs arrive at t = 1000 ms. Returns a's placements. */
  private List<Decision> aFillsThePoolAndBArrives() throws Exception {
    send(Control.newBuilder().setPool(POOL).setType(ControlType.SET_QUEUES).setTimeMs(1)
        .setRequestId("q1").setQueues(List.of(queue("a", 2), queue("b", 2))).build(), 1);
    send(register("n1", 2, 2), 2);
    send(register("n2", 2, 3), 3);
    for (int i = 0; i < 4; i++) {
      send(job("a" + i, "a", 10 + i), 10 + i);
    }
    List<Decision> placed = decisions(harness);
    assertThat(placed).hasSize(4).allMatch(d -> d.getAction() instanceof PlaceTask);
    for (int i = 0; i < 4; i++) {
      send(event(TaskEventType.STARTED, "a" + i, 0, nodeOf(placed, "a" + i), 20 + i), 20 + i);
    }
    send(job("b0", "b", 1000), 1000);
    send(job("b1", "b", 1001), 1001);
    return placed;
  }

  @Test
  void bReclaimsItsGuaranteeAndAPreemptedTaskIsQueuedAgainNotFailed() throws Exception {
    harness = open(null);
    List<Decision> placed = aFillsThePoolAndBArrives();
    List<Decision> ds = decisions(harness);
    List<CancelTask> stops = preemptions(ds);
    assertThat(stops).hasSize(2).allSatisfy(c -> {
      assertThat(c.getGraceMs()).isEqualTo(30_000);
      assertThat(c.getAttempt()).isZero();
      assertThat(c.getReason()).contains("queue 'b' is below its guarantee");
    });
    assertThat(ds).extracting(Decision::getDecisionId).allMatch(id -> id.startsWith(POOL
        + "/cancel/"));
    // a heartbeat later: nothing more is asked while the grace runs
    send(heartbeat("n1", 2000), 2000);
    assertThat(preemptions(decisions(harness))).isEmpty();
    side(harness, SchedulerOperator.JOB_STATUS);

    CancelTask first = stops.get(0);
    String victimNode = nodeOf(placed, first.getTaskId());
    send(event(TaskEventType.PREEMPTED, first.getTaskId(), 0, victimNode, 3000), 3000);
    List<JobStatus> statuses = side(harness, SchedulerOperator.JOB_STATUS).stream()
        .filter(s -> s.getJobId().equals(first.getTaskId())).toList();
    assertThat(statuses).extracting(JobStatus::getState)
        .containsExactly(JobState.PREEMPTED, JobState.QUEUED);
    assertThat(statuses.get(0).getNode()).isEqualTo(victimNode);
    assertThat(statuses.get(1).getReason()).contains("attempt 0 preempted on node " + victimNode);
    // the freed slot goes to b, on the victim's node
    List<Decision> next = decisions(harness);
    assertThat(next).hasSize(1);
    PlaceTask p = (PlaceTask) next.get(0).getAction();
    assertThat(p.getTaskId()).startsWith("b");
    assertThat(next.get(0).getNode()).isEqualTo(victimNode);
    assertThat(side(harness, SchedulerOperator.REJECTED)).isEmpty();

    // PREEMPTED the pool did not ask for: a duplicate, a running attempt, another node
    send(event(TaskEventType.PREEMPTED, first.getTaskId(), 0, victimNode, 3100), 3100);
    String running = placed.stream().map(d -> ((PlaceTask) d.getAction()).getTaskId())
        .filter(t -> stops.stream().noneMatch(c -> c.getTaskId().equals(t))).findFirst()
        .orElseThrow();
    send(event(TaskEventType.PREEMPTED, running, 0, nodeOf(placed, running), 3200), 3200);
    CancelTask second = stops.get(1);
    String other = nodeOf(placed, second.getTaskId()).equals("n1") ? "n2" : "n1";
    send(event(TaskEventType.PREEMPTED, second.getTaskId(), 0, other, 3300), 3300);
    List<DeadLetter> dead = side(harness, SchedulerOperator.REJECTED);
    assertThat(dead).hasSize(3).allSatisfy(d ->
        assertThat(d.getCode()).isEqualTo(DeadLetterCodes.NOT_PREEMPTING));
    assertThat(dead.get(1).getReason()).contains("did not ask node");
    assertThat(dead.get(2).getReason()).contains("runs on node");
    assertThat(decisions(harness)).as("nothing changed").isEmpty();
    assertThat(side(harness, SchedulerOperator.JOB_STATUS)).isEmpty();
  }

  /**
   * A restore between the preemption and its answer: the restored pool does not preempt again,
   * and from there decides exactly as the pool that never stopped.
   */
  @Test
  void aRestoreInTheMiddleOfAPreemptionDecidesIdentically() throws Exception {
    harness = open(null);
    List<Decision> placed = aFillsThePoolAndBArrives();
    List<CancelTask> stops = preemptions(decisions(harness));
    assertThat(stops).hasSize(2);
    OperatorSubtaskState snap = harness.snapshot(1, 1002);
    var restored = open(snap);
    try {
      List<Object> rest = new ArrayList<>();
      rest.add(heartbeat("n2", 2000));
      for (CancelTask c : stops) {
        rest.add(event(TaskEventType.PREEMPTED, c.getTaskId(), 0, nodeOf(placed, c.getTaskId()),
            3000));
      }
      rest.add(heartbeat("n1", 4000));
      List<String> a = new ArrayList<>();
      List<String> b = new ArrayList<>();
      long t = 2000;
      for (Object e : rest) {
        send(harness, e, t);
        send(restored, e, t);
        t += 10;
        for (Decision d : decisions(harness)) {
          a.add(d.getDecisionId() + "@" + d.getNode() + ":" + d.getAction());
        }
        for (Decision d : decisions(restored)) {
          b.add(d.getDecisionId() + "@" + d.getNode() + ":" + d.getAction());
        }
      }
      assertThat(b).isEqualTo(a);
      // the two freed slots go to b's two jobs; nothing is preempted again
      assertThat(a).hasSize(2).allMatch(s -> s.startsWith(POOL + "/b"));
      assertThat(side(restored, SchedulerOperator.REJECTED)).isEmpty();
      assertThat(side(restored, SchedulerOperator.JOB_STATUS)).extracting(JobStatus::getState)
          .containsSubsequence(JobState.PREEMPTED, JobState.QUEUED, JobState.PREEMPTED,
              JobState.QUEUED);
    } finally {
      restored.close();
    }
  }
}
