package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.CancelTask;
import io.locus.schemas.Control;
import io.locus.schemas.ControlType;
import io.locus.schemas.DataUnit;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.Decision;
import io.locus.schemas.EventRange;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.SchedulerMetrics;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.auth.NodeKeys;
import io.locus.schemas.auth.PlacementProof;
import io.locus.schemas.auth.RecordSigner;
import io.locus.schemas.codec.DeadLetterCodes;
import io.locus.schemas.internal.SchedulerInput;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 22, finding 2, through the operator in Flink's harness on RocksDB: with a cluster node
 * secret every placement carries the scheduler's proof of placement for its node, and a task event
 * about an attempt acts only with the proof for its own node. Node B, validly signed as itself,
 * can neither finish nor fail node A's attempt nor complete a task before it exists; the genuine
 * after-restore reconciliation (one decision id placed on two nodes) still works.
 */
@Timeout(60)
class PlacementProofOperatorTest {
  private static final String POOL = "p";
  private static final long MB = 1_000_000L;
  private static final byte[] CLUSTER = "cluster-secret".getBytes(StandardCharsets.UTF_8);
  private static final NodeKeys KEYS = new NodeKeys(CLUSTER);
  private static final PlacementProof PROOFS = new PlacementProof(CLUSTER);

  private KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> harness;

  private static SchedulerConfig fa() {
    return SchedulerConfig.defaults("FA").withNodeSecret(CLUSTER)
        .withNodeTimeoutMs(Long.MAX_VALUE);
  }

  private void open(SchedulerConfig config, OperatorSubtaskState from) throws Exception {
    harness = OperatorHarness.open(config, from);
    harness.setProcessingTime(0);
  }

  @AfterEach
  void close() throws Exception {
    if (harness != null) {
      harness.close();
    }
  }

  // ------------------------------------------------------------------ records

  private static <T extends SpecificRecord> T signed(String node, T record) {
    return KEYS.signer(node).sign(record);
  }

  private static NodeReport register(String node, long t) {
    return signed(node, NodeReport.newBuilder().setPool(POOL).setNode(node)
        .setType(NodeReportType.REGISTER).setTimeMs(t).setSlots(1)
        .setCacheCapacityBytes(1000 * MB).setInstanceId("i-" + node).build());
  }

  private static JobSubmitted job(String id, long t) {
    return JobSubmitted.newBuilder().setJobId(id).setPool(POOL).setSubmitTimeMs(t)
        .setInputs(List.of(DataUnit.newBuilder().setId("f-" + id).setBytes(10 * MB).build()))
        .setComputeSeconds(1.0).build();
  }

  /** An event of {@code node} about attempt 0 of {@code task}, answering its placement. */
  private static TaskEvent.Builder event(TaskEventType type, String task, String node, long t) {
    return TaskEvent.newBuilder().setPool(POOL).setTaskId(task).setJobId(task).setAttempt(0)
        .setNode(node).setType(type).setTimeMs(t).setInstanceId("i-" + node)
        .setDecisionId(Decisions.placementId(POOL, task, 0));
  }

  private static String proof(Decision placement) {
    return ((PlaceTask) placement.getAction()).getProof();
  }

  private void send(Object event, long t) throws Exception {
    harness.processElement(new StreamRecord<>(
        SchedulerInput.newBuilder().setPool(POOL).setEvent(event).build(), t));
  }

  private List<Decision> decisions() {
    List<Decision> out = new ArrayList<>(harness.extractOutputValues());
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

  private SchedulerMetrics metricsNow(long processingTime) throws Exception {
    harness.setProcessingTime(processingTime);
    SchedulerMetrics last = null;
    for (StreamRecord<SchedulerMetrics> r : harness.getSideOutput(SchedulerOperator.METRICS)) {
      last = r.getValue();
    }
    return last;
  }

  // ------------------------------------------------------------------ tests

  @Test
  void placementsCarryAProofForTheirNodeOnlyWithANodeSecretAndTheSignatureCoversIt()
      throws Exception {
    open(fa().withDecisionSecret("d".getBytes(StandardCharsets.UTF_8)), null);
    send(register("n1", 1), 1);
    send(job("j0", 2), 2);
    Decision d = decisions().get(0);
    assertThat(proof(d)).hasSize(PlacementProof.LENGTH);
    assertThat(PROOFS.verify(proof(d), POOL + "/j0/0", "n1", "j0", 0)).isTrue();
    assertThat(PROOFS.verify(proof(d), POOL + "/j0/0", "n2", "j0", 0)).isFalse();
    RecordSigner decisionSigner = RecordSigner.of("d");
    assertThat(decisionSigner.verify(d)).isTrue();
    Decision tampered = Decision.newBuilder(d).build();
    ((PlaceTask) tampered.getAction()).setProof(PROOFS.proof(POOL + "/j0/0", "n2", "j0", 0));
    assertThat(decisionSigner.verify(tampered)).as("the proof is signed with the decision")
        .isFalse();
    harness.close();

    open(SchedulerConfig.defaults("FA"), null);
    send(NodeReport.newBuilder(register("n1", 1)).setSignature(null).build(), 1);
    send(job("j0", 2), 2);
    assertThat(proof(decisions().get(0))).as("no node secret: no proof").isNull();
  }

  @Test
  void anotherNodeSignedAsItselfCannotFinishOrFailANodesAttempt() throws Exception {
    open(fa(), null);
    send(register("n1", 1), 1);
    send(register("n2", 2), 2);
    send(job("j0", 3), 3);
    List<Decision> placed = decisions();
    assertThat(placed).extracting(Decision::getNode).containsExactly("n1");
    String n1Proof = proof(placed.get(0));

    // n2 reads j0's decision (id, epoch, n1's instance and proof) and claims the attempt:
    // without a proof, with n1's proof, with a made-up one; COMPLETED, FAILED and STARTED.
    send(signed("n2", event(TaskEventType.COMPLETED, "j0", "n2", 4).build()), 4);
    assertThat(oneDeadLetter(DeadLetterCodes.NO_PROOF).getReason())
        .contains("no proof of placement", "task 'j0'", "node 'n2'", POOL + "/j0/0");
    send(signed("n2", event(TaskEventType.COMPLETED, "j0", "n2", 5)
        .setPlacementProof(n1Proof).build()), 5);
    assertThat(oneDeadLetter(DeadLetterCodes.NO_PROOF).getReason())
        .contains("not the scheduler's", "node 'n2'");
    send(signed("n2", event(TaskEventType.COMPLETED, "j0", "n2", 6)
        .setPlacementProof("ab".repeat(32)).build()), 6);
    oneDeadLetter(DeadLetterCodes.NO_PROOF);
    send(signed("n2", event(TaskEventType.FAILED, "j0", "n2", 7)
        .setPlacementProof(n1Proof).build()), 7);
    oneDeadLetter(DeadLetterCodes.NO_PROOF);
    send(signed("n2", event(TaskEventType.STARTED, "j0", "n2", 8).build()), 8);
    oneDeadLetter(DeadLetterCodes.NO_PROOF);
    // and n1 itself without its proof (or signing n2's events as n1 would be forged anyway)
    send(signed("n1", event(TaskEventType.FAILED, "j0", "n1", 9).build()), 9);
    oneDeadLetter(DeadLetterCodes.NO_PROOF);
    assertThat(decisions()).as("n1 is not told to cancel j0, nothing is re-placed").isEmpty();
    SchedulerMetrics m = metricsNow(60_000);
    assertThat(m.getCompletions()).isZero();
    assertThat(m.getFailures()).isZero();
    assertThat(m.getRunningTasks()).isEqualTo(1);

    // n1 finishes j0 with its proof: accepted
    send(signed("n1", event(TaskEventType.COMPLETED, "j0", "n1", 10)
        .setPlacementProof(n1Proof).build()), 10);
    assertThat(deadLetters()).isEmpty();
    assertThat(metricsNow(120_000).getCompletions()).isEqualTo(1);
  }

  @Test
  void aRefusedCancelNeedsNoProofButARefusedPlacementDoes() throws Exception {
    open(fa(), null);
    send(register("n1", 1), 1);
    send(job("j0", 2), 2);
    decisions();
    // A REFUSED of a decision that is not the placement (a cancel the node may not hold the
    // attempt of) carries no proof: it passes the gate, and the driver takes it as an answer.
    send(signed("n1", event(TaskEventType.REFUSED, "j0", "n1", 3)
        .setDecisionId(POOL + "/cancel/1").build()), 3);
    assertThat(deadLetters()).isEmpty();
    // A REFUSED of the placement itself must prove the placement.
    send(signed("n1", event(TaskEventType.REFUSED, "j0", "n1", 4).build()), 4);
    oneDeadLetter(DeadLetterCodes.NO_PROOF);
    assertThat(metricsNow(60_000).getRunningTasks()).isEqualTo(1);
  }

  @Test
  void aCompletionWithoutProofOfATaskNotYetSubmittedIsNotRemembered() throws Exception {
    open(fa(), null);
    send(register("n1", 1), 1);
    // epoch 0 (before any restore), as a replayed completion would be: before the fix it was
    // remembered, and j9, placed on n1 at attempt 0 on arrival, counted complete unplaced
    send(signed("n1", event(TaskEventType.COMPLETED, "j9", "n1", 2).setEpoch(0).build()), 2);
    assertThat(oneDeadLetter(DeadLetterCodes.NO_PROOF).getReason()).contains("task 'j9'");
    send(job("j9", 3), 3);
    List<Decision> placed = decisions();
    assertThat(placed).extracting(Decision::getDecisionId, Decision::getNode).containsExactly(
        org.assertj.core.groups.Tuple.tuple(POOL + "/j9/0", "n1"));
    assertThat(deadLetters()).isEmpty();
    SchedulerMetrics m = metricsNow(60_000);
    assertThat(m.getCompletions()).isZero();
    assertThat(m.getRunningTasks()).isEqualTo(1);
  }

  @Test
  void afterARestoreTheSameAttemptPlacedOnTwoNodesStillReconcilesWithEachNodesProof()
      throws Exception {
    open(fa(), null);
    send(register("n1", 1), 1);
    send(register("n2", 2), 2);
    OperatorSubtaskState checkpoint = harness.snapshot(1, 3);
    // The first run, after the checkpoint: j1 on n1 (n1 completes it), then j2 on some node.
    send(job("j1", 10), 10);
    Decision j1First = decisions().get(0);
    assertThat(j1First.getNode()).isEqualTo("n1");
    send(signed("n1", event(TaskEventType.COMPLETED, "j1", "n1", 11)
        .setEpoch(j1First.getEpoch()).setPlacementProof(proof(j1First)).build()), 11);
    send(job("j2", 12), 12);
    Decision j2First = decisions().get(0);
    String first = j2First.getNode();
    String other = first.equals("n1") ? "n2" : "n1";
    harness.close();

    // Failover: the inputs since the checkpoint come back in another order.
    open(fa(), checkpoint);
    // n1's completion of j1 before j1's arrival: a genuine early completion, with its proof
    send(signed("n1", event(TaskEventType.COMPLETED, "j1", "n1", 11)
        .setEpoch(j1First.getEpoch()).setPlacementProof(proof(j1First)).build()), 20);
    assertThat(oneDeadLetter(DeadLetterCodes.EARLY_COMPLETION).getReason())
        .contains("remembered");
    send(job("j1", 10), 21);
    assertThat(decisions()).as("j1 completed already on n1: not placed again").isEmpty();
    // This time j2's first node is draining, so j2 goes to the other: the same decision id, the
    // other node's proof
    send(Control.newBuilder().setPool(POOL).setType(ControlType.DRAIN_NODE).setNode(first)
        .setTimeMs(22).build(), 22);
    send(job("j2", 12), 23);
    List<Decision> replayed = decisions();
    assertThat(replayed).extracting(Decision::getDecisionId, Decision::getNode).containsExactly(
        org.assertj.core.groups.Tuple.tuple(POOL + "/j2/0", other));
    assertThat(proof(replayed.get(0))).isNotEqualTo(proof(j2First));
    // j2's first node finished it in the first run (with its own proof): it counts, and the
    // other node is told to cancel its copy
    send(signed(first, event(TaskEventType.COMPLETED, "j2", first, 24)
        .setEpoch(j2First.getEpoch()).setPlacementProof(proof(j2First)).build()), 24);
    assertThat(deadLetters()).isEmpty();
    List<Decision> cancel = decisions();
    assertThat(cancel).singleElement().satisfies(c -> {
      assertThat(c.getNode()).isEqualTo(other);
      assertThat(((CancelTask) c.getAction()).getTaskId()).isEqualTo("j2");
    });
    // while the other node's claim with the first node's proof would not have counted
    send(signed(other, event(TaskEventType.COMPLETED, "j2", other, 25)
        .setPlacementProof(proof(j2First)).build()), 25);
    oneDeadLetter(DeadLetterCodes.NO_PROOF);
    SchedulerMetrics m = metricsNow(60_000);
    assertThat(m.getCompletions()).isEqualTo(2);
    assertThat(m.getRunningTasks()).isZero();
  }

  @Test
  void splitPoolPlacementsCarryProofsAndAnotherNodeCannotAnswerForThem() throws Exception {
    SchedulerConfig split = new SchedulerConfig(new SchedulerConfig.PolicySpec("MCH", Map.of()),
        Map.of(POOL, new SchedulerConfig.PolicySpec("out-of-order",
            Map.of("cacheEvents", "1000", "dataset", "lhcb"))), 1000, 3)
        .withNodeSecret(CLUSTER).withNodeTimeoutMs(Long.MAX_VALUE);
    open(split, null);
    long t0 = 1_000_000L;
    send(register("n1", t0), t0);
    send(JobSubmitted.newBuilder().setJobId("j1").setPool(POOL).setSubmitTimeMs(t0)
        .setInputs(List.of()).setSplittable(true).setTemplate("analyse")
        .setEvents(new EventRange("lhcb", 0L, 200L)).build(), t0);
    Decision d1 = decisions().get(0);
    assertThat(d1.getNode()).isEqualTo("n1");
    assertThat(PROOFS.verify(proof(d1), d1.getDecisionId(), "n1", "j1/1", 0)).isTrue();
    send(register("n2", t0 + 40_000), t0 + 40_000);
    Decision shrink = decisions().get(0);
    assertThat(shrink.getDecisionId()).isEqualTo(POOL + "/shrink/1");

    // n2 acknowledges n1's shrink, then completes n1's subjob: neither has n2's proof
    TaskEvent.Builder ack = TaskEvent.newBuilder().setPool(POOL).setTaskId("j1/1").setJobId("j1")
        .setAttempt(0).setNode("n2").setInstanceId("i-n2").setType(TaskEventType.SHRUNK)
        .setDecisionId(shrink.getDecisionId()).setTimeMs(t0 + 40_500).setStopAt(130L)
        .setPlacementProof(proof(d1));
    send(signed("n2", ack.build()), t0 + 40_500);
    oneDeadLetter(DeadLetterCodes.NO_PROOF);
    send(signed("n2", TaskEvent.newBuilder(ack.build()).setSignature(null)
        .setType(TaskEventType.COMPLETED).setStopAt(null).setDecisionId(d1.getDecisionId())
        .setEvents(new EventRange("lhcb", 0L, 200L)).build()), t0 + 40_600);
    oneDeadLetter(DeadLetterCodes.NO_PROOF);
    assertThat(decisions()).as("the tail still waits for n1's acknowledgement").isEmpty();

    // n1's acknowledgement of the shrink carries its placement's proof: the tail goes to n2
    send(signed("n1", TaskEvent.newBuilder(ack.build()).setSignature(null).setNode("n1")
        .setInstanceId("i-n1").build()), t0 + 41_000);
    assertThat(deadLetters()).isEmpty();
    Decision tail = decisions().get(0);
    assertThat(tail.getNode()).isEqualTo("n2");
    assertThat(PROOFS.verify(proof(tail), tail.getDecisionId(), "n2", "j1/2", 0)).isTrue();
  }
}
