package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.CachedFile;
import io.locus.schemas.Control;
import io.locus.schemas.ControlAck;
import io.locus.schemas.ControlType;
import io.locus.schemas.DataUnit;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.Decision;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.internal.SchedulerInput;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Run-time control through the scheduler operator in Flink's harness on RocksDB: every control is
 * acknowledged once (applied or refused, a refusal also a dead letter), SET_POLICY re-evaluates
 * the queue under the new policy at the control's point in the input order, and a paused pool
 * queues without placing, keeps being paused across a snapshot and restore, and dispatches its
 * queue at once on RESUME_POOL.
 */
@Timeout(60)
class PoolControlOperatorTest {
  private static final String POOL = "p";
  private static final long MB = 1_000_000L;
  private KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> harness;

  private void operator(SchedulerConfig config, OperatorSubtaskState restoreFrom)
      throws Exception {
    harness = OperatorHarness.open(config, restoreFrom);
    harness.setProcessingTime(0);
  }

  @AfterEach
  void close() throws Exception {
    if (harness != null) {
      harness.close();
    }
  }

  private void send(String pool, Object event, long t) throws Exception {
    harness.processElement(new StreamRecord<>(
        SchedulerInput.newBuilder().setPool(pool).setEvent(event).build(), t));
  }

  private void send(Object event, long t) throws Exception {
    send(POOL, event, t);
  }

  private static NodeReport register(String node, int slots, long t, String... cached) {
    List<CachedFile> files = new ArrayList<>();
    for (String f : cached) {
      files.add(new CachedFile(f, 10 * MB));
    }
    return NodeReport.newBuilder().setPool(POOL).setNode(node).setType(NodeReportType.REGISTER)
        .setTimeMs(t).setSlots(slots).setCacheCapacityBytes(1000 * MB).setSeq(1)
        .setAdded(files).build();
  }

  private static JobSubmitted job(String id, String file, long t) {
    return JobSubmitted.newBuilder().setJobId(id).setPool(POOL).setSubmitTimeMs(t)
        .setInputs(List.of(DataUnit.newBuilder().setId(file).setBytes(10 * MB).build()))
        .setComputeSeconds(1.0).build();
  }

  private static TaskEvent completed(String task, String node, long t) {
    return TaskEvent.newBuilder().setPool(POOL).setTaskId(task).setJobId(task).setAttempt(0)
        .setNode(node).setType(TaskEventType.COMPLETED).setTimeMs(t)
        .setDecisionId(POOL + "/" + task + "/0").build();
  }

  private static Control control(ControlType type, String requestId, long t) {
    return Control.newBuilder().setPool(POOL).setType(type).setTimeMs(t)
        .setRequestId(requestId).build();
  }

  private static Control setPolicy(String policy, Map<String, String> params, String requestId,
      long t) {
    return Control.newBuilder().setPool(POOL).setType(ControlType.SET_POLICY).setTimeMs(t)
        .setPolicy(policy).setParams(params).setRequestId(requestId).build();
  }

  private List<Decision> drain() {
    List<Decision> out = harness.extractOutputValues();
    harness.getOutput().clear();
    return out;
  }

  private List<ControlAck> acks() {
    List<ControlAck> out = new ArrayList<>();
    var q = harness.getSideOutput(SchedulerOperator.CONTROL_ACKS);
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

  private static List<String> placements(List<Decision> ds) {
    List<String> out = new ArrayList<>();
    for (Decision d : ds) {
      if (d.getAction() instanceof PlaceTask p) {
        out.add(p.getTaskId() + "@" + d.getNode());
      }
    }
    return out;
  }

  /**
   * Two one-slot nodes, n2 caches f-hot; both busy; j1 (f-cold) then j2 (f-hot) queue. Returns
   * what is placed when n2 frees, with or without a SET_POLICY to MCH before it.
   */
  private List<Decision> freeN2(boolean changeToMch) throws Exception {
    operator(SchedulerConfig.defaults("FA"), null);
    send(register("n1", 1, 1), 1);
    send(register("n2", 1, 2, "f-hot"), 2);
    send(job("a", "fa", 3), 3);
    send(job("b", "fb", 4), 4);
    List<Decision> first = drain();
    assertThat(placements(first)).containsExactlyInAnyOrder("a@n1", "b@n2");
    send(job("j1", "f-cold", 5), 5);
    send(job("j2", "f-hot", 6), 6);
    assertThat(drain()).isEmpty();
    if (changeToMch) {
      send(setPolicy("MCH", Map.of("window", "100"), "r-1", 7), 7);
      List<ControlAck> acks = acks();
      assertThat(acks).hasSize(1);
      ControlAck a = acks.get(0);
      assertThat(a.getAccepted()).isTrue();
      assertThat(a.getRequestId()).isEqualTo("r-1");
      assertThat(a.getType()).isEqualTo(ControlType.SET_POLICY);
      assertThat(a.getPolicy()).isEqualTo("MCH");
      assertThat(a.getReevaluated()).as("both queued tasks").isEqualTo(2);
      assertThat(a.getMessage()).contains("FA -> MCH").contains("2 queued task(s) re-evaluated");
      assertThat(a.getTimeMs()).isEqualTo(7);
      assertThat(drain()).as("no node is free: nothing to place yet").isEmpty();
    }
    send(completed("b", "n2", 8), 8);
    List<Decision> out = drain();
    close();
    harness = null;
    return out;
  }

  @Test
  void setPolicyReEvaluatesTheQueueAtTheControlsPointAndLaterPlacementsCarryTheNewPolicy()
      throws Exception {
    List<Decision> underFa = freeN2(false);
    assertThat(placements(underFa)).as("FA takes the head of the queue").containsExactly("j1@n2");
    List<Decision> underMch = freeN2(true);
    assertThat(placements(underMch)).as("MCH takes the task whose data n2 holds")
        .containsExactly("j2@n2");
    PlaceTask p = (PlaceTask) underMch.get(0).getAction();
    assertThat(p.getReason().getPolicy()).isEqualTo("MCH");
    assertThat(p.getReason().getLocalBytes()).isEqualTo(10 * MB);
  }

  @Test
  void aPausedPoolQueuesWithoutPlacingStaysPausedAcrossRestoreAndResumeDispatchesAtOnce()
      throws Exception {
    operator(SchedulerConfig.defaults("FA"), null);
    send(register("n1", 2, 1), 1);
    send(job("j0", "f0", 2), 2);
    assertThat(placements(drain())).containsExactly("j0@n1");

    send(control(ControlType.PAUSE_POOL, "pause-1", 3), 3);
    ControlAck paused = acks().get(0);
    assertThat(paused.getAccepted()).isTrue();
    assertThat(paused.getPaused()).isTrue();
    assertThat(paused.getRequestId()).isEqualTo("pause-1");
    for (int i = 1; i <= 3; i++) {
      send(job("j" + i, "f" + i, 3 + i), 3 + i);
    }
    send(completed("j0", "n1", 10), 10); // a completion applies (frees a slot) but places nothing
    assertThat(drain()).as("nothing is placed while paused").isEmpty();
    assertThat(rejected()).isEmpty();

    OperatorSubtaskState snapshot = harness.snapshot(1, 11);
    harness.close();
    operator(SchedulerConfig.defaults("FA"), snapshot);
    send(job("j4", "f4", 12), 12);
    assertThat(drain()).as("still paused after a restore").isEmpty();

    send(control(ControlType.RESUME_POOL, "resume-1", 13), 13);
    ControlAck resumed = acks().get(0);
    assertThat(resumed.getAccepted()).isTrue();
    assertThat(resumed.getPaused()).isFalse();
    assertThat(resumed.getMessage()).contains("resumed").contains("2 task(s) placed now");
    assertThat(placements(drain())).as("the queue dispatches at once, in order, on both slots")
        .containsExactly("j1@n1", "j2@n1");
    send(completed("j1", "n1", 14), 14);
    assertThat(placements(drain())).containsExactly("j3@n1");
  }

  @Test
  void aSetPolicyWhilePausedIsAppliedButPlacesNothingUntilResume() throws Exception {
    operator(SchedulerConfig.defaults("FA"), null);
    send(control(ControlType.PAUSE_POOL, "x", 1), 1);
    send(register("n1", 1, 2, "f-hot"), 2);
    send(job("j1", "f-cold", 3), 3);
    send(job("j2", "f-hot", 4), 4);
    acks();
    send(setPolicy("MCH", Map.of(), "y", 5), 5);
    ControlAck a = acks().get(0);
    assertThat(a.getAccepted()).isTrue();
    assertThat(a.getPaused()).isTrue();
    assertThat(a.getReevaluated()).isEqualTo(2);
    assertThat(a.getMessage()).contains("paused");
    assertThat(drain()).isEmpty();
    send(control(ControlType.RESUME_POOL, "z", 6), 6);
    assertThat(placements(drain())).containsExactly("j2@n1");
  }

  @Test
  void everyRefusedControlIsAckedWithItsReasonAndDeadLettered() throws Exception {
    operator(SchedulerConfig.defaults("FA").withPools(Set.of(POOL)), null);
    send(register("n1", 1, 1), 1);

    send(setPolicy("NOPE", Map.of(), "bad-policy", 2), 2);
    send(setPolicy("MCH", Map.of("windw", "3"), "bad-param", 3), 3);
    send(Control.newBuilder(control(ControlType.DRAIN_NODE, "bad-node", 4)).setNode("ghost")
        .build(), 4);
    send(control(ControlType.UNKNOWN, "bad-type", 5), 5);
    send(control(ControlType.SET_POLICY, "no-policy", 6), 6);
    send(control(ControlType.PAUSE_POOL, "bad-time", -5), 7); // refused by the gate
    send("other", Control.newBuilder(control(ControlType.PAUSE_POOL, "bad-pool", 8))
        .setPool("other").build(), 8);

    List<ControlAck> acks = acks();
    assertThat(acks).extracting(ControlAck::getRequestId).containsExactly("bad-policy",
        "bad-param", "bad-node", "bad-type", "no-policy", "bad-time", "bad-pool");
    assertThat(acks).allSatisfy(a -> assertThat(a.getAccepted()).isFalse());
    assertThat(acks.get(0).getMessage()).contains("unknown policy 'NOPE'");
    assertThat(acks.get(1).getMessage()).contains("unknown parameter 'windw'");
    assertThat(acks.get(2).getMessage()).contains("node 'ghost' is not registered");
    assertThat(acks.get(3).getMessage()).contains("unknown control type UNKNOWN");
    assertThat(acks.get(4).getMessage()).contains("names no policy");
    assertThat(acks.get(5).getMessage()).contains("out of range");
    assertThat(acks.get(6).getMessage()).contains("pool 'other' is not one of the declared");
    assertThat(acks.get(6).getPool()).isEqualTo("other");
    assertThat(acks.subList(0, 6)).allSatisfy(a -> {
      assertThat(a.getPolicy()).isEqualTo("FA");
      assertThat(a.getPaused()).isFalse();
    });
    assertThat(rejected()).as("each refusal is a dead letter too").hasSize(7);

    // an accepted drain: the only node takes no work until RESUME_NODE
    send(Control.newBuilder(control(ControlType.DRAIN_NODE, "ok-drain", 9)).setNode("n1")
        .build(), 9);
    ControlAck ok = acks().get(0);
    assertThat(ok.getAccepted()).isTrue();
    assertThat(ok.getMessage()).contains("node n1 draining");
    send(job("j1", "f", 10), 10);
    assertThat(drain()).isEmpty();
    send(Control.newBuilder(control(ControlType.RESUME_NODE, "ok-resume", 11)).setNode("n1")
        .build(), 11);
    assertThat(acks().get(0).getAccepted()).isTrue();
    assertThat(placements(drain())).containsExactly("j1@n1");
    assertThat(rejected()).isEmpty();
  }

  @Test
  void aSplitPoolRefusesPauseAndABusySplitChangeWithTheReason() throws Exception {
    operator(SchedulerConfig.defaults("FARM"), null);
    send(control(ControlType.PAUSE_POOL, "split-pause", 1), 1);
    ControlAck a = acks().get(0);
    assertThat(a.getAccepted()).isFalse();
    assertThat(a.getPolicy()).isEqualTo("FARM");
    assertThat(a.getMessage()).contains("PAUSE_POOL is not supported by split pools");
    send(setPolicy("DELAYED", Map.of(), "idle-change", 2), 2);
    ControlAck b = acks().get(0);
    assertThat(b.getAccepted()).as(b.getMessage()).isTrue();
    assertThat(b.getPolicy()).isEqualTo("DELAYED");
    assertThat(rejected()).hasSize(1);
  }

  @Test
  void aPausedPoolAsksForNoNodesAndAsksOnResume() throws Exception {
    operator(new SchedulerConfig(new SchedulerConfig.PolicySpec("FA", Map.of()), Map.of(), 1000,
        3, io.locus.core.provision.ProvisioningConfig.dynamic(0, 8, 2), Map.of()), null);
    send(control(ControlType.PAUSE_POOL, "p", 1000), 1000);
    for (int i = 0; i < 6; i++) {
      send(job("j" + i, "f" + i, 1000 + i * 1000), 1000 + i * 1000);
    }
    assertThat(harness.getSideOutput(SchedulerOperator.SCALE_REQUESTS))
        .as("no scale request while paused").isNull();
    send(control(ControlType.RESUME_POOL, "r", 7000), 7000);
    var requests = harness.getSideOutput(SchedulerOperator.SCALE_REQUESTS);
    assertThat(requests).as("the poll resumes with the pool").hasSize(1);
    assertThat(requests.peek().getValue().getNodes()).isGreaterThan(0);
    assertThat(drain()).isEmpty(); // no node registered yet: nothing to place
  }
}
