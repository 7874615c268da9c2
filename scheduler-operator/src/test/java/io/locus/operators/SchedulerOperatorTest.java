package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.CachedFile;
import io.locus.schemas.Control;
import io.locus.schemas.ControlType;
import io.locus.schemas.DataUnit;
import io.locus.schemas.Decision;
import io.locus.schemas.FetchSource;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.core.provision.ProvisioningConfig;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.ScaleAction;
import io.locus.schemas.ScaleRequest;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.internal.SchedulerInput;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Tier 1: the operator alone in Flink's test harness, on RocksDB, through snapshot and restore. */
@Timeout(60)
class SchedulerOperatorTest {
  private static final String POOL = "pool-a";
  private static final long MB = 1_000_000L;
  private KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> harness;

  private static KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> harness(
      String policy, OperatorSubtaskState restoreFrom) throws Exception {
    return harness(SchedulerConfig.defaults(policy), restoreFrom);
  }

  private static KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> harness(
      SchedulerConfig config, OperatorSubtaskState restoreFrom) throws Exception {
    var h = OperatorHarness.open(config, restoreFrom);
    return h;
  }

  @AfterEach
  void close() throws Exception {
    if (harness != null) {
      harness.close();
    }
  }

  private static SchedulerInput in(Object event) {
    return SchedulerInput.newBuilder().setPool(POOL).setEvent(event).build();
  }

  private static SchedulerInput register(String node, int slots, long t) {
    return in(NodeReport.newBuilder().setPool(POOL).setNode(node).setType(NodeReportType.REGISTER)
        .setTimeMs(t).setSlots(slots).setCacheCapacityBytes(1000 * MB).build());
  }

  private static SchedulerInput cached(String node, long seq, String file, long t) {
    return in(NodeReport.newBuilder().setPool(POOL).setNode(node).setType(NodeReportType.CACHE_DELTA)
        .setTimeMs(t).setSeq(seq).setAdded(List.of(new CachedFile(file, 10 * MB))).build());
  }

  private static SchedulerInput job(String id, String file, long t) {
    return in(JobSubmitted.newBuilder().setJobId(id).setPool(POOL).setSubmitTimeMs(t)
        .setInputs(List.of(DataUnit.newBuilder().setId(file).setBytes(10 * MB).build()))
        .setComputeSeconds(1.0).build());
  }

  private static SchedulerInput completed(String task, String node, long t) {
    return in(TaskEvent.newBuilder().setPool(POOL).setTaskId(task).setJobId(task).setAttempt(0)
        .setNode(node).setType(TaskEventType.COMPLETED).setTimeMs(t).setBytesStorage(10 * MB)
        .setDecisionId(POOL + "/" + task + "/0").build());
  }

  private List<Decision> drain() {
    List<Decision> out = harness.extractOutputValues();
    harness.getOutput().clear();
    return out;
  }

  @Test
  void placesWhereTheDataIsAndCarriesIdsEpochAndReason() throws Exception {
    harness = harness("MCH", null);
    harness.processElement(register("n1", 1, 1), 1);
    harness.processElement(register("n2", 1, 2), 2);
    harness.processElement(cached("n2", 1, "f-hot", 3), 3);
    harness.processElement(job("j1", "f-hot", 10), 10);

    List<Decision> d = drain();
    assertThat(d).hasSize(1);
    Decision dec = d.get(0);
    assertThat(dec.getNode()).isEqualTo("n2");
    assertThat(dec.getDecisionId()).isEqualTo(POOL + "/j1/0");
    assertThat(dec.getEpoch()).isEqualTo(1);
    PlaceTask p = (PlaceTask) dec.getAction();
    assertThat(p.getReason().getPolicy()).isEqualTo("MCH");
    assertThat(p.getReason().getLocalBytes()).isEqualTo(10 * MB);
    assertThat(p.getInputs().get(0).getSource()).isEqualTo(FetchSource.LOCAL);
  }

  @Test
  void aCompletionFreesTheSlotForTheNextTask() throws Exception {
    harness = harness("FA", null);
    harness.processElement(register("n1", 1, 1), 1);
    harness.processElement(job("j1", "f1", 10), 10);
    harness.processElement(job("j2", "f2", 11), 11);
    assertThat(drain()).extracting(Decision::getDecisionId).containsExactly(POOL + "/j1/0");
    harness.processElement(completed("j1", "n1", 20), 20);
    assertThat(drain()).extracting(Decision::getDecisionId).containsExactly(POOL + "/j2/0");
    harness.processElement(completed("j1", "n1", 21), 21); // duplicate: nothing happens
    assertThat(drain()).isEmpty();
  }

  @Test
  void stateSurvivesSnapshotAndRestoreAndTheEpochGrows() throws Exception {
    harness = harness("MCH", null);
    harness.processElement(register("n1", 1, 1), 1);
    harness.processElement(register("n2", 1, 2), 2);
    harness.processElement(cached("n1", 1, "fa", 3), 3);
    harness.processElement(job("j1", "fa", 10), 10); // → n1
    harness.processElement(job("j2", "fa", 11), 11); // waits for n1 (MCH)
    harness.processElement(job("j3", "fb", 12), 12); // → n2
    assertThat(drain()).extracting(Decision::getNode).containsExactly("n1", "n2");
    OperatorSubtaskState snapshot = harness.snapshot(1, 100);
    harness.close();

    harness = harness("MCH", snapshot);
    // j1 completes on n1: the restored queue's j2 must now go to n1, under a new epoch
    harness.processElement(completed("j1", "n1", 20), 20);
    List<Decision> after = drain();
    assertThat(after).hasSize(1);
    assertThat(after.get(0).getDecisionId()).isEqualTo(POOL + "/j2/0");
    assertThat(after.get(0).getNode()).isEqualTo("n1");
    assertThat(after.get(0).getEpoch()).isEqualTo(2);
  }

  @Test
  void aPolicyChangedAtRunTimeIsKeptAcrossRestore() throws Exception {
    harness = harness("FA", null);
    harness.processElement(in(Control.newBuilder().setPool(POOL).setType(ControlType.SET_POLICY)
        .setTimeMs(1).setPolicy("MCH").setParams(Map.of("window", "100")).build()), 1);
    OperatorSubtaskState snapshot = harness.snapshot(1, 2);
    harness.close();
    harness = harness("FA", snapshot);
    harness.processElement(register("n1", 1, 3), 3);
    harness.processElement(job("j1", "f", 4), 4);
    PlaceTask p = (PlaceTask) drain().get(0).getAction();
    assertThat(p.getReason().getPolicy()).isEqualTo("MCH");
  }

  @Test
  void anUnknownPolicyIsRejectedWithAReasonAndTheJobGoesOn() throws Exception {
    harness = harness("FA", null);
    harness.processElement(in(Control.newBuilder().setPool(POOL).setType(ControlType.SET_POLICY)
        .setTimeMs(1).setPolicy("NOPE").build()), 1);
    var rejected = harness.getSideOutput(SchedulerOperator.REJECTED);
    assertThat(rejected).hasSize(1);
    assertThat(rejected.peek().getValue().getReason()).contains("unknown policy 'NOPE'");
    harness.processElement(register("n1", 1, 2), 2);
    harness.processElement(job("j1", "f", 3), 3);
    assertThat(drain()).hasSize(1);
  }

  @Test
  void metricsAreEmittedPerPoolOnProcessingTime() throws Exception {
    harness = harness("FA", null);
    harness.setProcessingTime(0);
    harness.processElement(register("n1", 2, 1), 1);
    harness.processElement(job("j1", "f", 2), 2);
    harness.processElement(job("j2", "g", 3), 3);
    harness.processElement(job("j3", "h", 4), 4);
    harness.setProcessingTime(1000);
    var metrics = harness.getSideOutput(SchedulerOperator.METRICS);
    assertThat(metrics).hasSize(1);
    var m = metrics.peek().getValue();
    assertThat(m.getQueueLength()).isEqualTo(1);
    assertThat(m.getBusySlots()).isEqualTo(2);
    assertThat(m.getPlacements()).isEqualTo(2);
    assertThat(m.getPolicy()).isEqualTo("FA");
  }

  private static SchedulerInput heartbeat(String node, long t) {
    return in(NodeReport.newBuilder().setPool(POOL).setNode(node).setType(NodeReportType.HEARTBEAT)
        .setTimeMs(t).build());
  }

  private List<ScaleRequest> scaleRequests() {
    List<ScaleRequest> out = new java.util.ArrayList<>();
    var q = harness.getSideOutput(SchedulerOperator.SCALE_REQUESTS);
    if (q != null) {
      q.forEach(r -> out.add(r.getValue()));
      q.clear();
    }
    return out;
  }

  @Test
  void dynamicProvisioningAsksForNodesAsTheQueueGrows() throws Exception {
    SchedulerConfig cfg = new SchedulerConfig(new SchedulerConfig.PolicySpec("FA", Map.of()),
        Map.of(), 1000, 3, ProvisioningConfig.dynamic(0, 8, 2), Map.of());
    harness = harness(cfg, null);
    for (int i = 0; i < 10; i++) {
      harness.processElement(job("j" + i, "f" + i, 1000 + i), 1000 + i);
    }
    // polled once a second of event time: the first poll saw one queued task → one node
    List<ScaleRequest> first = scaleRequests();
    assertThat(first).extracting(ScaleRequest::getAction).containsExactly(ScaleAction.ACQUIRE);
    assertThat(first.get(0).getNodes()).isEqualTo(1);
    assertThat(first.get(0).getRequestId()).isEqualTo(POOL + "/scale/1");

    // a second later 11 are queued: 2 slots per node, k = 1 → 6 wanted, 1 pending → ask for 5
    harness.processElement(job("j10", "f10", 2000), 2000);
    List<ScaleRequest> second = scaleRequests();
    assertThat(second).hasSize(1);
    assertThat(second.get(0).getNodes()).isEqualTo(5);

    // nodes arriving count against the pending requests: nothing more is asked for
    harness.processElement(register("n1", 2, 3000), 3000);
    harness.processElement(register("n2", 2, 3001), 3001);
    harness.processElement(heartbeat("n1", 4000), 4000);
    assertThat(scaleRequests()).isEmpty();
    assertThat(drain()).hasSize(4);
  }

  @Test
  void anIdleNodeIsReleasedAfterTheIdleTimeAndDrained() throws Exception {
    SchedulerConfig cfg = new SchedulerConfig(new SchedulerConfig.PolicySpec("FA", Map.of()),
        Map.of(), 1000, 3, ProvisioningConfig.dynamic(0, 8, 2), Map.of());
    harness = harness(cfg, null);
    harness.processElement(register("n1", 2, 1000), 1000);
    harness.processElement(register("n2", 2, 1000), 1000);
    harness.processElement(job("j1", "f", 1500), 1500); // → n1, busy until completed
    assertThat(drain()).extracting(Decision::getNode).containsExactly("n1");
    for (long t = 2000; t <= 40_000; t += 1000) {
      harness.processElement(heartbeat("n1", t), t); // busy, but alive
      harness.processElement(heartbeat("n2", t), t);
    }
    List<ScaleRequest> reqs = scaleRequests();
    assertThat(reqs).extracting(ScaleRequest::getAction).containsOnly(ScaleAction.RELEASE);
    assertThat(reqs).extracting(ScaleRequest::getNode).containsExactly("n2");
    // a drained node gets no new work
    harness.processElement(completed("j1", "n1", 41_000), 41_000);
    harness.processElement(job("j2", "g", 41_001), 41_001);
    harness.processElement(job("j3", "h", 41_002), 41_002);
    harness.processElement(job("j4", "i", 41_003), 41_003);
    assertThat(drain()).extracting(Decision::getNode).containsExactly("n1", "n1");
  }

  @Test
  void aRefusalOfAnotherDecisionDoesNotRequeueTheRunningAttempt() throws Exception {
    harness = harness("FA", null);
    harness.processElement(register("n1", 1, 1), 1);
    harness.processElement(job("j1", "f", 2), 2);
    assertThat(drain()).hasSize(1);
    TaskEvent forged = TaskEvent.newBuilder().setPool(POOL).setTaskId("j1").setJobId("j1")
        .setAttempt(0).setNode("n1").setType(TaskEventType.REFUSED).setTimeMs(3)
        .setDecisionId("forged").setMessage("bad signature").build();
    harness.processElement(in(forged), 3);
    // still running: a second job waits, nothing is re-placed
    harness.processElement(job("j2", "g", 4), 4);
    assertThat(drain()).isEmpty();
    TaskEvent real = TaskEvent.newBuilder(forged).setDecisionId(POOL + "/j1/0")
        .setType(TaskEventType.FAILED).setTimeMs(5).build();
    harness.processElement(in(real), 5);
    // the real failure requeues j1 (attempt 1) at its old position, ahead of j2
    assertThat(drain()).extracting(Decision::getDecisionId).containsExactly(POOL + "/j1/1");
  }
}
