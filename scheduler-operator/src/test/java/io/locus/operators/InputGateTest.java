package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.DataUnit;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.Decision;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.ResyncNode;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.auth.NodeKeys;
import io.locus.schemas.auth.RecordSigner;
import io.locus.schemas.codec.DeadLetterCodes;
import io.locus.schemas.internal.SchedulerInput;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The scheduler's input gate and decision stamp, through the operator in Flink's test harness on
 * RocksDB (and through snapshot and restore): every rule refuses what it must, with its code.
 */
@Timeout(60)
class InputGateTest {
  private static final String POOL = "pool-a";
  private static final long MB = 1_000_000L;
  private static final byte[] CLUSTER = "cluster-secret".getBytes(StandardCharsets.UTF_8);
  private static final byte[] DECISIONS = "decision-secret".getBytes(StandardCharsets.UTF_8);
  private static final long TIMEOUT = SchedulerConfig.DEFAULT_NODE_TIMEOUT_MS;

  private KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> harness;
  private SchedulerOperator operator;

  private void open(SchedulerConfig config, OperatorSubtaskState from) throws Exception {
    operator = new SchedulerOperator(config);
    harness = OperatorHarness.open(operator, from);
  }

  private OperatorSubtaskState restart(SchedulerConfig config) throws Exception {
    OperatorSubtaskState snap = harness.snapshot(1, 1);
    harness.close();
    open(config, snap);
    return snap;
  }

  @AfterEach
  void close() throws Exception {
    if (harness != null) {
      harness.close();
    }
  }

  private static SchedulerConfig fa() {
    return SchedulerConfig.defaults("FA");
  }

  // ------------------------------------------------------------------ records

  private static SchedulerInput in(String pool, Object event) {
    return SchedulerInput.newBuilder().setPool(pool).setEvent(event).build();
  }

  private static SchedulerInput in(Object event) {
    return in(POOL, event);
  }

  private static NodeReport.Builder report(String node, NodeReportType type, long t,
      String instance) {
    return NodeReport.newBuilder().setPool(POOL).setNode(node).setType(type).setTimeMs(t)
        .setInstanceId(instance);
  }

  private static NodeReport register(String node, long t, String instance) {
    return report(node, NodeReportType.REGISTER, t, instance).setSlots(1)
        .setCacheCapacityBytes(1000 * MB).build();
  }

  private static NodeReport heartbeat(String node, long t, String instance) {
    return report(node, NodeReportType.HEARTBEAT, t, instance).build();
  }

  private static JobSubmitted job(String id, long t) {
    return JobSubmitted.newBuilder().setJobId(id).setPool(POOL).setSubmitTimeMs(t)
        .setInputs(List.of(DataUnit.newBuilder().setId("f-" + id).setBytes(10 * MB).build()))
        .setComputeSeconds(1.0).build();
  }

  private static TaskEvent.Builder taskEvent(String task, int attempt, String node,
      TaskEventType type, long t, String instance) {
    return TaskEvent.newBuilder().setPool(POOL).setTaskId(task).setJobId(task).setAttempt(attempt)
        .setNode(node).setType(type).setTimeMs(t).setInstanceId(instance)
        .setDecisionId(Decisions.placementId(POOL, task, attempt));
  }

  private static <T extends org.apache.avro.specific.SpecificRecord> T signed(String node,
      T record) {
    return new NodeKeys(CLUSTER).signer(node).sign(record);
  }

  private void send(Object event, long t) throws Exception {
    harness.processElement(in(event), t);
  }

  private List<Decision> decisions() {
    List<Decision> out = harness.extractOutputValues();
    harness.getOutput().clear();
    return out;
  }

  private List<DeadLetter> deadLetters() {
    List<DeadLetter> out = new ArrayList<>();
    var q = harness.getSideOutput(SchedulerOperator.REJECTED);
    if (q != null) {
      q.forEach(r -> out.add(r.getValue()));
      q.clear();
    }
    return out;
  }

  private DeadLetter oneDeadLetter(String code) {
    List<DeadLetter> d = deadLetters();
    assertThat(d).as("dead letters").hasSize(1);
    assertThat(d.get(0).getCode()).as(d.get(0).getReason()).isEqualTo(code);
    return d.get(0);
  }

  // ------------------------------------------------------------------ authentication

  @Test
  void forgedCompletionsAndFailuresAreDeadLetteredWhenNodesMustSign() throws Exception {
    open(fa().withNodeSecret(CLUSTER), null);
    send(register("n1", 1, "i1"), 1);
    oneDeadLetter(DeadLetterCodes.FORGED); // unsigned REGISTER: no node joins
    send(job("j0", 2), 2);
    assertThat(decisions()).isEmpty();

    send(signed("n1", register("n1", 3, "i1")), 3);
    assertThat(decisions()).extracting(Decision::getDecisionId).containsExactly(POOL + "/j0/0");
    send(job("j1", 4), 4); // waits: n1's one slot is taken

    // unsigned COMPLETED, a FAILED with a null decision id, a COMPLETED signed with another key
    send(taskEvent("j0", 0, "n1", TaskEventType.COMPLETED, 5, "i1").build(), 5);
    oneDeadLetter(DeadLetterCodes.FORGED);
    send(taskEvent("j0", 0, "n1", TaskEventType.FAILED, 6, "i1").setDecisionId(null).build(), 6);
    oneDeadLetter(DeadLetterCodes.FORGED);
    TaskEvent wrongKey = new NodeKeys("other".getBytes(StandardCharsets.UTF_8)).signer("n1")
        .sign(taskEvent("j0", 0, "n1", TaskEventType.COMPLETED, 7, "i1").build());
    send(wrongKey, 7);
    oneDeadLetter(DeadLetterCodes.FORGED);
    // n2's agent signing a record for n1
    send(new NodeKeys(CLUSTER).signer("n2")
        .sign(taskEvent("j0", 0, "n1", TaskEventType.COMPLETED, 8, "i1").build()), 8);
    oneDeadLetter(DeadLetterCodes.FORGED);
    // a forged record far ahead does not move the clock (else n1 would be lost below)
    send(taskEvent("j0", 0, "n1", TaskEventType.COMPLETED, 8 + 3 * TIMEOUT, "i1").build(), 9);
    oneDeadLetter(DeadLetterCodes.FORGED);
    assertThat(decisions()).as("j0 still runs, nothing re-placed").isEmpty();

    send(signed("n1", taskEvent("j0", 0, "n1", TaskEventType.COMPLETED, 10, "i1")
        .setPlacementProof(new io.locus.schemas.auth.PlacementProof(CLUSTER)
            .proof(POOL + "/j0/0", "n1", "j0", 0)).build()), 10);
    assertThat(deadLetters()).isEmpty();
    assertThat(decisions()).extracting(Decision::getDecisionId).containsExactly(POOL + "/j1/0");
    assertThat(operator.gateMetrics().deadLetters(DeadLetterCodes.FORGED)).isEqualTo(6);
  }

  @Test
  void signedDecisionsCarryTheOwnerInstanceAndVerify() throws Exception {
    open(fa().withDecisionSecret(DECISIONS), null);
    send(register("n1", 1, "inst-1"), 1);
    send(job("j1", 2), 2);
    send(heartbeat("n9", 3, "inst-9"), 3); // unknown: a ResyncNode, signed too
    List<Decision> d = decisions();
    assertThat(d).hasSize(2);
    RecordSigner signer = new RecordSigner(DECISIONS);
    assertThat(d.get(0).getInstanceId()).isEqualTo("inst-1");
    assertThat(d.get(1).getInstanceId()).isEqualTo("inst-9");
    for (Decision x : d) {
      assertThat(x.getSignature()).hasSize(RecordSigner.LENGTH);
      assertThat(signer.verify(x)).isTrue();
      Decision tampered = Decision.newBuilder(x).setNode("n2").build();
      assertThat(signer.verify(tampered)).isFalse();
      assertThat(RecordSigner.of("another").verify(x)).isFalse();
    }
  }

  @Test
  void withoutADecisionSecretDecisionsAreUnsignedButAddressed() throws Exception {
    open(fa(), null);
    send(register("n1", 1, "inst-1"), 1);
    send(job("j1", 2), 2);
    Decision d = decisions().get(0);
    assertThat(d.getSignature()).isNull();
    assertThat(d.getInstanceId()).isEqualTo("inst-1");
  }

  // ------------------------------------------------------------------ identity

  @Test
  void aCopiedAgentCanNeitherRegisterNorLeaveWhileTheOwnerIsLive() throws Exception {
    open(fa(), null);
    send(register("n1", 1, "real"), 1);
    send(register("n1", 2, "copy"), 2);
    assertThat(oneDeadLetter(DeadLetterCodes.FORGED).getReason()).contains("real", "copy");
    send(report("n1", NodeReportType.LEAVE, 3, "copy").build(), 3);
    oneDeadLetter(DeadLetterCodes.FORGED);
    send(taskEvent("j1", 0, "n1", TaskEventType.STARTED, 4, "copy").build(), 4);
    oneDeadLetter(DeadLetterCodes.FORGED);
    // the real node is still scheduled, and its decisions are addressed to the real instance
    send(job("j1", 5), 5);
    List<Decision> d = decisions();
    assertThat(d).singleElement().extracting(Decision::getNode).isEqualTo("n1");
    assertThat(d.get(0).getInstanceId()).isEqualTo("real");
    assertThat(operator.gateMetrics().instanceConflicts.getCount()).isEqualTo(3);
    // the real LEAVE is accepted: the node leaves, then its records are unknown
    send(report("n1", NodeReportType.LEAVE, 6, "real").build(), 6);
    assertThat(deadLetters()).isEmpty();
    send(heartbeat("n1", 7, "real"), 7);
    oneDeadLetter(DeadLetterCodes.UNKNOWN_NODE);
  }

  @Test
  void anotherInstanceMayTakeTheNodeOnceTheOwnerIsLost() throws Exception {
    open(fa(), null);
    send(register("n1", 1000, "old"), 1000);
    send(register("n1", 1000 + TIMEOUT, "new"), 1000 + TIMEOUT); // owner still live (=timeout)
    oneDeadLetter(DeadLetterCodes.FORGED);
    send(register("n1", 1001 + TIMEOUT, "new"), 1001 + TIMEOUT); // now lost: taken over
    assertThat(deadLetters()).isEmpty();
    assertThat(operator.poolMetrics(POOL).lostNodes()).isEqualTo(1);
    send(job("j1", 1002 + TIMEOUT), 1002 + TIMEOUT);
    assertThat(decisions()).singleElement().extracting(Decision::getInstanceId).isEqualTo("new");
  }

  // ------------------------------------------------------------------ liveness

  @Test
  void aSilentNodeIsLostAndItsTaskReplacedOnAnotherNode() throws Exception {
    open(fa(), null);
    send(register("n1", 1000, "i1"), 1000);
    send(job("j1", 1001), 1001);
    assertThat(decisions()).extracting(Decision::getNode).containsExactly("n1");
    send(register("n2", 1002, "i2"), 1002);
    for (long t = 2000; t <= 1000 + TIMEOUT; t += 1000) {
      send(heartbeat("n2", t, "i2"), t);
    }
    assertThat(decisions()).as("n1 heard exactly the timeout ago: not lost yet").isEmpty();
    send(heartbeat("n2", 1001 + TIMEOUT, "i2"), 1001 + TIMEOUT);
    List<Decision> d = decisions();
    assertThat(d).extracting(Decision::getDecisionId).containsExactly(POOL + "/j1/1");
    assertThat(d.get(0).getNode()).isEqualTo("n2");
    assertThat(d.get(0).getInstanceId()).isEqualTo("i2");
    assertThat(operator.poolMetrics(POOL).lostNodes()).isEqualTo(1);
    // the lost node's late completion is refused, and it is asked to register again
    send(taskEvent("j1", 0, "n1", TaskEventType.COMPLETED, 1002 + TIMEOUT, "i1").build(),
        1002 + TIMEOUT);
    oneDeadLetter(DeadLetterCodes.UNKNOWN_NODE);
    assertThat(decisions()).singleElement().satisfies(x -> {
      assertThat(x.getNode()).isEqualTo("n1");
      assertThat(x.getAction()).isInstanceOf(ResyncNode.class);
    });
  }

  @Test
  void aConfiguredTimeoutIsUsed() throws Exception {
    open(fa().withNodeTimeoutMs(5000), null);
    send(register("n1", 1000, "i1"), 1000);
    send(register("n2", 1000, "i2"), 1000);
    send(heartbeat("n2", 5000, "i2"), 5000);
    assertThat(operator.poolMetrics(POOL).lostNodes()).isZero();
    send(heartbeat("n2", 6001, "i2"), 6001);
    assertThat(operator.poolMetrics(POOL).lostNodes()).isEqualTo(1);
    send(heartbeat("n1", 6002, "i1"), 6002);
    oneDeadLetter(DeadLetterCodes.UNKNOWN_NODE);
  }

  @Test
  void aSplitPoolLosesASilentNodeToo() throws Exception {
    String cern = "cern";
    open(new SchedulerConfig(new SchedulerConfig.PolicySpec("MCH", java.util.Map.of()),
        java.util.Map.of(cern, new SchedulerConfig.PolicySpec("out-of-order",
            java.util.Map.of("cacheEvents", "1000", "dataset", "lhcb"))), 1000, 3), null);
    harness.processElement(in(cern, NodeReport.newBuilder().setPool(cern).setNode("n1")
        .setType(NodeReportType.REGISTER).setTimeMs(1000).setSlots(1).setInstanceId("i1")
        .build()), 0);
    harness.processElement(in(cern, JobSubmitted.newBuilder().setJobId("j1").setPool(cern)
        .setSubmitTimeMs(1000).setInputs(List.of()).setSplittable(true).setTemplate("t")
        .setEvents(new io.locus.schemas.EventRange("lhcb", 0L, 200L)).build()), 0);
    assertThat(decisions()).extracting(Decision::getNode).containsExactly("n1");
    for (long t = 2000; t <= 1001 + TIMEOUT; t += 1000) {
      harness.processElement(in(cern, NodeReport.newBuilder().setPool(cern).setNode("n2")
          .setType(t == 2000 ? NodeReportType.REGISTER : NodeReportType.HEARTBEAT).setTimeMs(t)
          .setSlots(1).setInstanceId("i2").build()), 0);
    }
    decisions(); // n2's arrival: the policy asks n1 to shrink its subjob
    harness.processElement(in(cern, NodeReport.newBuilder().setPool(cern).setNode("n2")
        .setType(NodeReportType.HEARTBEAT).setTimeMs(1001 + TIMEOUT).setInstanceId("i2")
        .build()), 0);
    List<Decision> after = decisions();
    assertThat(operator.poolMetrics(cern).lostNodes()).isEqualTo(1);
    // without the loss the stolen tail would wait for n1 to acknowledge the shrink
    assertThat(after).as("n1's work moves to n2").anySatisfy(d -> {
      assertThat(d.getNode()).isEqualTo("n2");
      assertThat(d.getAction()).isInstanceOf(io.locus.schemas.PlaceTask.class);
    });
    assertThat(deadLetters()).isEmpty();
  }

  // ------------------------------------------------------------------ unknown nodes

  @Test
  void aHeartbeatFromAnUnknownNodeYieldsOneResyncPerHalfTimeout() throws Exception {
    open(fa(), null);
    send(register("n1", 1000, "i1"), 1000);
    send(heartbeat("ghost", 1001, "g1"), 1001);
    DeadLetter dl = oneDeadLetter(DeadLetterCodes.UNKNOWN_NODE);
    assertThat(dl.getReason()).contains("ghost", "not registered");
    List<Decision> first = decisions();
    assertThat(first).singleElement().satisfies(d -> {
      assertThat(d.getNode()).isEqualTo("ghost");
      assertThat(d.getInstanceId()).isEqualTo("g1");
      assertThat(d.getDecisionId()).isEqualTo(POOL + "/resync/1");
      assertThat(d.getAction()).isInstanceOf(ResyncNode.class);
    });
    for (long t = 2000; t < 1001 + TIMEOUT / 2; t += 1000) {
      send(heartbeat("n1", t, "i1"), t);
      send(heartbeat("ghost", t, "g1"), t);
      oneDeadLetter(DeadLetterCodes.UNKNOWN_NODE);
    }
    assertThat(decisions()).as("rate-limited").isEmpty();
    send(heartbeat("ghost", 1001 + TIMEOUT / 2, "g1"), 1001 + TIMEOUT / 2);
    oneDeadLetter(DeadLetterCodes.UNKNOWN_NODE);
    assertThat(decisions()).extracting(Decision::getDecisionId)
        .containsExactly(POOL + "/resync/2");
    assertThat(operator.gateMetrics().resyncsSent.getCount()).isEqualTo(2);
    // it registers again: known from now on
    send(register("ghost", 1002 + TIMEOUT / 2, "g1"), 1002 + TIMEOUT / 2);
    send(heartbeat("ghost", 1003 + TIMEOUT / 2, "g1"), 1003 + TIMEOUT / 2);
    assertThat(deadLetters()).isEmpty();
  }

  // ------------------------------------------------------------------ pools and clock

  @Test
  void anUndeclaredPoolIsRefusedBeforeAnyStateIsCreated() throws Exception {
    open(fa().withPools(Set.of(POOL)), null);
    harness.processElement(in("elsewhere", NodeReport.newBuilder().setPool("elsewhere")
        .setNode("n1").setType(NodeReportType.REGISTER).setTimeMs(1).setSlots(1).build()), 1);
    DeadLetter dl = oneDeadLetter(DeadLetterCodes.UNKNOWN_POOL);
    assertThat(dl.getReason()).contains("elsewhere", POOL);
    assertThat(harness.numProcessingTimeTimers()).as("no pool opened").isZero();
    assertThat(operator.gateMetrics().deadLetters(DeadLetterCodes.UNKNOWN_POOL)).isEqualTo(1);
    send(register("n1", 2, "i1"), 2);
    assertThat(deadLetters()).isEmpty();
    assertThat(harness.numProcessingTimeTimers()).isEqualTo(1);
  }

  @Test
  void absurdTimesAreRefusedAndDoNotMoveTheClock() throws Exception {
    open(fa(), null);
    send(register("n1", 1000, "i1"), 1000);
    send(heartbeat("n1", Long.MAX_VALUE, "i1"), 1001);
    assertThat(oneDeadLetter(DeadLetterCodes.INVALID).getReason()).contains("out of range");
    send(heartbeat("n1", -1, "i1"), 1002);
    oneDeadLetter(DeadLetterCodes.INVALID);
    long jump = 1000 + SchedulerConfig.DEFAULT_MAX_CLOCK_JUMP_MS + 1;
    harness.processElement(SchedulerInput.newBuilder(in(job("j-far", jump)))
        .setSourceTimestampMs(1000).build(), 1003);
    assertThat(oneDeadLetter(DeadLetterCodes.CLOCK).getReason()).contains("clock ahead");
    send(job("j1", 1500), 1004);
    List<Decision> d = decisions();
    assertThat(d).singleElement().extracting(Decision::getTimeMs).isEqualTo(1500L);
    assertThat(operator.poolMetrics(POOL).lostNodes()).as("the clock never jumped").isZero();
    // exactly the max jump is allowed
    send(heartbeat("n1", 1500 + SchedulerConfig.DEFAULT_MAX_CLOCK_JUMP_MS, "i1"), 1005);
    // without a record timestamp the event time moves the liveness clock: n1 was lost first
    oneDeadLetter(DeadLetterCodes.UNKNOWN_NODE);
  }

  // ------------------------------------------------------------------ job ids


  @Test
  void aPoolClockSetEarlyNeverMakesLaterRecordsLookLikeJumps() throws Exception {
    open(fa(), null);
    // One record stamped at time 1 (a control written by hand, a trace replayed from 0)...
    harness.processElement(SchedulerInput.newBuilder(in(register("n1", 1, "i1")))
        .setSourceTimestampMs(1).build(), 1);
    // ...then the live stream, days later by the pool clock but on time by its Kafka timestamps.
    long now = 1_700_000_000_000L;
    harness.processElement(SchedulerInput.newBuilder(in(register("n2", now, "i2")))
        .setSourceTimestampMs(now - 50).build(), 2);
    harness.processElement(SchedulerInput.newBuilder(in(job("j1", now + 10)))
        .setSourceTimestampMs(now).build(), 3);
    assertThat(deadLetters()).extracting(DeadLetter::getCode)
        .doesNotContain(DeadLetterCodes.INVALID);
    assertThat(decisions()).extracting(Decision::getNode).contains("n2");
  }
  @Test
  void aJobIdCannotComeBackWithinTheRetentionWindowEvenAfterItCompleted() throws Exception {
    open(fa().withJobRetentionMs(100_000), null);
    send(register("n1", 1000, "i1"), 1000);
    send(job("j1", 1000), 1000);
    assertThat(decisions()).hasSize(1);
    send(job("j1", 1001), 1001); // while running
    oneDeadLetter(DeadLetterCodes.DUPLICATE_JOB);
    send(taskEvent("j1", 0, "n1", TaskEventType.COMPLETED, 2000, "i1").build(), 2000);
    send(job("j1", 3000), 3000); // after it completed
    assertThat(oneDeadLetter(DeadLetterCodes.DUPLICATE_JOB).getReason())
        .contains("duplicate job id 'j1'", "retention");
    assertThat(decisions()).isEmpty();
    for (long t = 10_000; t < 101_000; t += 10_000) {
      send(heartbeat("n1", t, "i1"), t);
    }
    send(job("j1", 100_999), 100_999);
    oneDeadLetter(DeadLetterCodes.DUPLICATE_JOB);
    send(job("j1", 101_000), 101_000); // the window is over
    assertThat(deadLetters()).isEmpty();
    assertThat(decisions()).extracting(Decision::getDecisionId).containsExactly(POOL + "/j1/0");
  }

  @Test
  void aJobTheDriverRefusedMayBeSubmittedAgain() throws Exception {
    open(fa(), null);
    send(register("n1", 1, "i1"), 1);
    send(JobSubmitted.newBuilder(job("e1", 2))
        .setEvents(new io.locus.schemas.EventRange("lhcb", 0L, 10L)).build(), 2);
    oneDeadLetter(DeadLetterCodes.REJECTED); // an event-range job in a file pool
    send(job("e1", 3), 3);
    assertThat(deadLetters()).isEmpty();
    assertThat(decisions()).hasSize(1);
  }

  // ------------------------------------------------------------------ restore

  @Test
  void registryAndLedgerSurviveSnapshotAndRestore() throws Exception {
    open(fa(), null);
    send(register("n1", 1000, "real"), 1000);
    send(register("n2", 1000, "i2"), 1000);
    send(job("j1", 1001), 1001);
    Decision placed = decisions().get(0);
    send(taskEvent("j1", 0, placed.getNode(), TaskEventType.COMPLETED, 1002,
        placed.getInstanceId()).build(), 1002);
    assertThat(deadLetters()).isEmpty();
    for (long t = 2000; t <= 20_000; t += 1000) {
      send(heartbeat("n2", t, "i2"), t);
    }
    restart(fa());

    send(job("j1", 20_001), 20_001);
    oneDeadLetter(DeadLetterCodes.DUPLICATE_JOB);
    send(register("n1", 20_002, "copy"), 20_002);
    assertThat(oneDeadLetter(DeadLetterCodes.FORGED).getReason()).contains("real");
    // n1 was last heard at 1002, but last-heard times are persisted at most once a second: the
    // state has 1000 (its REGISTER), not the restore's clock, so it is lost at 1000 + timeout + 1
    send(heartbeat("n2", 1000 + TIMEOUT, "i2"), 1000 + TIMEOUT);
    assertThat(operator.poolMetrics(POOL).lostNodes()).isZero();
    send(heartbeat("n2", 1003 + TIMEOUT, "i2"), 1003 + TIMEOUT);
    assertThat(operator.poolMetrics(POOL).lostNodes()).isEqualTo(1);
    send(heartbeat("n1", 1004 + TIMEOUT, "real"), 1004 + TIMEOUT);
    oneDeadLetter(DeadLetterCodes.UNKNOWN_NODE);
    assertThat(decisions()).singleElement().extracting(Decision::getEpoch).isEqualTo(2L);
  }
}
