package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.provision.ProvisioningConfig;
import io.locus.schemas.CachedFile;
import io.locus.schemas.CancelTask;
import io.locus.schemas.Control;
import io.locus.schemas.ControlType;
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
import io.locus.schemas.codec.DeadLetterCodes;
import io.locus.schemas.internal.SchedulerInput;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 12 in a file pool, in Flink's harness on RocksDB: a lost or re-registered node's work,
 * task events checked against the attempt the pool has, and reconciliation of inputs replayed in
 * another order after a restore.
 */
@Timeout(60)
class FilePoolReliabilityTest {
  private static final String POOL = "p";
  private static final long MB = 1_000_000L;
  private KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> harness;
  private OutputTag<DeadLetter> rejectedTag;

  private void start(KeyedProcessFunction<String, SchedulerInput, Decision> f,
      OutputTag<DeadLetter> rejected, OperatorSubtaskState restoreFrom) throws Exception {
    harness = OperatorHarness.open(f, restoreFrom);
    harness.setProcessingTime(0);
    rejectedTag = rejected;
  }

  private void operator(String policy, OperatorSubtaskState restoreFrom) throws Exception {
    start(new SchedulerOperator(SchedulerConfig.defaults(policy)), SchedulerOperator.REJECTED,
        restoreFrom);
  }

  /** The drivers behind a function that can declare a node lost; {@code maxRetries} given. */
  private void drivers(String policy, int maxRetries) throws Exception {
    start(new DriverHarnessFunction(new SchedulerConfig(new SchedulerConfig.PolicySpec(policy,
        Map.of()), Map.of(), 1000, maxRetries, ProvisioningConfig.staticPool(), Map.of())),
        DriverHarnessFunction.REJECTED, null);
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

  private static NodeReport register(String node, int slots, long t) {
    return NodeReport.newBuilder().setPool(POOL).setNode(node).setType(NodeReportType.REGISTER)
        .setTimeMs(t).setSlots(slots).setCacheCapacityBytes(1000 * MB).build();
  }

  private static NodeReport cached(String node, String file, long t) {
    return NodeReport.newBuilder().setPool(POOL).setNode(node).setType(NodeReportType.CACHE_DELTA)
        .setTimeMs(t).setSeq(1).setAdded(List.of(new CachedFile(file, 10 * MB))).build();
  }

  private static JobSubmitted job(String id, String file, long t) {
    return JobSubmitted.newBuilder().setJobId(id).setPool(POOL).setSubmitTimeMs(t)
        .setInputs(List.of(DataUnit.newBuilder().setId(file).setBytes(10 * MB).build()))
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

  private static Control lost(String node, long t) {
    return Control.newBuilder().setPool(POOL).setType(ControlType.DRAIN_NODE)
        .setPolicy(DriverHarnessFunction.LOST).setNode(node).setTimeMs(t).build();
  }

  private List<Decision> drain() {
    List<Decision> out = harness.extractOutputValues();
    harness.getOutput().clear();
    return out;
  }

  private List<DeadLetter> rejected() {
    List<DeadLetter> out = new ArrayList<>();
    var q = harness.getSideOutput(rejectedTag);
    if (q != null) {
      q.forEach(r -> out.add(r.getValue()));
      q.clear();
    }
    return out;
  }

  private SchedulerMetrics metricsNow(long processingTime) throws Exception {
    harness.setProcessingTime(processingTime);
    var q = harness.getSideOutput(SchedulerOperator.METRICS);
    SchedulerMetrics last = null;
    for (StreamRecord<SchedulerMetrics> r : q) {
      last = r.getValue();
    }
    return last;
  }

  // ------------------------------------------------------------------ node loss

  @Test
  void mchPlacesTheLostNodesTasksElsewhereAsNewAttemptsNotCountedAsFailures() throws Exception {
    drivers("MCH", 0); // no retry at all: a loss counted as a failure would drop j1
    send(register("n1", 1, 1), 1);
    send(register("n2", 2, 2), 2);
    send(cached("n1", "f", 3), 3);
    send(job("j1", "f", 10), 10);
    send(job("j2", "f", 11), 11);
    // j1 where f is; j2 waits for n1 (MCH) although n2 is free
    assertThat(drain()).extracting(Decision::getDecisionId, Decision::getNode)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(id("j1", 0), "n1"));

    send(lost("n1", 20), 20);
    List<Decision> after = drain();
    assertThat(after).extracting(Decision::getDecisionId).containsExactly(id("j1", 1), id("j2", 0));
    assertThat(after).extracting(Decision::getNode).containsOnly("n2");
    // n1's cache left the index: j2 reads f from storage, not from the lost node
    PlaceTask j2 = (PlaceTask) after.get(1).getAction();
    assertThat(j2.getInputs().get(0).getSource().name()).isEqualTo("STORAGE");

    // the lost node's late completion of the old attempt changes nothing
    send(event(TaskEventType.COMPLETED, "j1", 0, "n1", id("j1", 0), 21), 21);
    assertThat(rejected()).extracting(DeadLetter::getCode)
        .containsExactly(DeadLetterCodes.UNKNOWN_TASK);
    assertThat(drain()).isEmpty();
  }

  @Test
  void aRegisterOfANodeBelievedBusyRequeuesItsTasksAndFreesItsSlots() throws Exception {
    drivers("FA", 0);
    send(register("n1", 2, 1), 1);
    send(job("j1", "f", 2), 2);
    send(job("j2", "g", 3), 3);
    send(job("j3", "h", 4), 4);
    assertThat(drain()).extracting(Decision::getDecisionId).containsExactly(id("j1", 0),
        id("j2", 0));
    // the agent restarted: nothing of the pool runs there; j1 and j2 go again, after... FA
    // takes the queue in order: j1, j2 (old positions) on the two freed slots, j3 still waits
    send(register("n1", 2, 5), 5);
    assertThat(drain()).extracting(Decision::getDecisionId).containsExactly(id("j1", 1),
        id("j2", 1));
    // the slots are the two new attempts', no more: completing them places j3
    send(event(TaskEventType.COMPLETED, "j1", 1, "n1", id("j1", 1), 6), 6);
    assertThat(drain()).extracting(Decision::getDecisionId).containsExactly(id("j3", 0));
    assertThat(rejected()).isEmpty();
  }

  @Test
  void aCompletionReadAfterItsNodeRegisteredAgainCountsAndCancelsTheReplacement()
      throws Exception {
    // The agent completed j1 and j2, was killed and restarted; its REGISTER (node-reports) is
    // read before those completions (task-events): the work is done, it must not run again.
    drivers("FA", 0);
    send(register("n1", 2, 1), 1);
    send(job("j1", "f", 2), 2);
    send(job("j2", "g", 3), 3);
    assertThat(drain()).hasSize(2);
    send(register("n1", 2, 5), 5);
    assertThat(drain()).extracting(Decision::getDecisionId).containsExactly(id("j1", 1),
        id("j2", 1));
    send(event(TaskEventType.COMPLETED, "j1", 0, "n1", id("j1", 0), 6), 6);
    assertThat(rejected()).isEmpty();
    assertThat(drain()).singleElement().satisfies(d -> {
      assertThat(d.getAction()).isInstanceOf(CancelTask.class);
      assertThat(((CancelTask) d.getAction()).getAttempt()).isEqualTo(1);
    });
    // the replacement's own completion, if it ran anyway before the cancel, is not a second one
    send(event(TaskEventType.COMPLETED, "j1", 1, "n1", id("j1", 1), 7), 7);
    assertThat(rejected()).extracting(DeadLetter::getCode)
        .containsExactly(DeadLetterCodes.EARLY_COMPLETION);
  }

  // ------------------------------------------------------------------ task events checked

  @Test
  void aForgedCompletedWithoutDecisionIdDoesNotFinishARunningTask() throws Exception {
    operator("FA", null);
    send(register("n1", 1, 1), 1);
    send(job("j1", "f", 2), 2);
    send(job("j2", "g", 3), 3);
    assertThat(drain()).extracting(Decision::getDecisionId).containsExactly(id("j1", 0));
    send(event(TaskEventType.COMPLETED, "j1", 0, "n1", null, 4), 4);
    List<DeadLetter> dl = rejected();
    assertThat(dl).extracting(DeadLetter::getCode).containsExactly(DeadLetterCodes.UNKNOWN_TASK);
    assertThat(dl.get(0).getReason()).contains("no decision id").contains(id("j1", 0));
    assertThat(drain()).as("j1 still holds the slot: j2 waits").isEmpty();
  }

  @Test
  void aFailedWithANullDecisionIdDoesNotReplaceARunningTask() throws Exception {
    operator("FA", null);
    send(register("n1", 1, 1), 1);
    send(register("n2", 1, 1), 1);
    send(job("j1", "f", 2), 2);
    assertThat(drain()).hasSize(1);
    send(event(TaskEventType.FAILED, "j1", 0, "n1", null, 3), 3);
    assertThat(rejected()).extracting(DeadLetter::getCode)
        .containsExactly(DeadLetterCodes.UNKNOWN_TASK);
    assertThat(drain()).as("not re-placed: it would run twice at once").isEmpty();
  }

  @Test
  void eventsOfAnotherAttemptNodeOrTaskAreRejectedWithTheReason() throws Exception {
    operator("FA", null);
    send(register("n1", 1, 1), 1);
    send(register("n2", 1, 1), 1);
    send(job("j1", "f", 2), 2);
    assertThat(drain()).extracting(Decision::getNode).containsExactly("n1");
    send(event(TaskEventType.COMPLETED, "j1", 0, "n2", id("j1", 0), 3), 3); // handled below
    drain(); // (placed twice after a restore: reconciled, tested below) - reset the scene
    rejected();

    send(job("j2", "g", 4), 4);
    Decision j2 = drain().get(0);
    String other = j2.getNode().equals("n1") ? "n2" : "n1";
    send(event(TaskEventType.FAILED, "j2", 0, other, id("j2", 0), 5), 5);
    send(event(TaskEventType.FAILED, "j2", 3, j2.getNode(), id("j2", 3), 6), 6);
    send(event(TaskEventType.COMPLETED, "j2", 0, j2.getNode(), id("j2", 1), 7), 7);
    send(event(TaskEventType.FAILED, "nope", 0, j2.getNode(), id("nope", 0), 8), 8);
    send(event(TaskEventType.SHRUNK, "j2", 0, j2.getNode(), id("j2", 0), 9), 9);
    send(event(TaskEventType.COMPLETED, "j2", 0, "ghost", id("j2", 0), 10), 10);
    List<DeadLetter> dl = rejected();
    // The gate answers for a node the pool does not know, before the driver sees the event.
    assertThat(dl).extracting(DeadLetter::getCode).containsExactly(DeadLetterCodes.UNKNOWN_TASK,
        DeadLetterCodes.UNKNOWN_TASK, DeadLetterCodes.UNKNOWN_TASK, DeadLetterCodes.UNKNOWN_TASK,
        DeadLetterCodes.UNKNOWN_TASK, DeadLetterCodes.UNKNOWN_NODE);
    assertThat(dl).extracting(DeadLetter::getReason).satisfiesExactly(
        r -> assertThat(r).contains("runs on " + j2.getNode()),
        r -> assertThat(r).contains("attempt 0 of the task runs on"),
        r -> assertThat(r).contains("is not the placement of that attempt"),
        r -> assertThat(r).contains("does not know the task"),
        r -> assertThat(r).contains("never shrink"),
        r -> assertThat(r).contains("ghost"));
    assertThat(drain()).extracting(d -> d.getAction().getClass().getSimpleName())
        .containsExactly("ResyncNode");
  }

  // ------------------------------------------------------------------ reconciliation

  @Test
  void inputsReplayedInAnotherOrderAfterARestoreLeaveNoSlotHeldAndCompleteEveryTaskOnce()
      throws Exception {
    operator("FA", null);
    send(register("n1", 1, 1), 1);
    send(register("n2", 1, 2), 2);
    OperatorSubtaskState checkpoint = harness.snapshot(1, 3);
    // What ran after the checkpoint (the first run): j1 on n1, j2 on n1, j3 on n1, j4 on n1;
    // all completed. After the failover, its inputs come back in another order:
    harness.close();
    operator("FA", checkpoint);

    send(event(TaskEventType.COMPLETED, "j1", 0, "n1", id("j1", 0), 20), 20);
    List<DeadLetter> kept = rejected();
    assertThat(kept).extracting(DeadLetter::getReason)
        .singleElement().asString().contains("remembered");
    assertThat(kept).extracting(DeadLetter::getCode)
        .containsExactly(DeadLetterCodes.EARLY_COMPLETION);
    // the replay places j1 on n1 again (same decision id): the completion answers that
    // placement, so j1 is finished and the placement is not sent again
    send(job("j1", "f1", 10), 21);
    assertThat(drain()).as("j1 completed already: never placed").isEmpty();

    send(job("j2", "f2", 11), 22); // → n2 now (n1 in the first run)
    send(job("j3", "f3", 12), 23); // → n1
    send(job("j4", "f4", 13), 24); // queued: no free slot
    assertThat(drain()).extracting(Decision::getDecisionId, Decision::getNode).containsExactly(
        org.assertj.core.groups.Tuple.tuple(id("j2", 0), "n2"),
        org.assertj.core.groups.Tuple.tuple(id("j3", 0), "n1"));

    // j4 started on n1 in the first run: adopted there, never placed again
    send(event(TaskEventType.STARTED, "j4", 0, "n1", id("j4", 0), 25), 25);
    // j3 has started on n1 (no longer withdrawn when n2 frees)
    send(event(TaskEventType.STARTED, "j3", 0, "n1", id("j3", 0), 25), 25);
    assertThat(drain()).isEmpty();
    // j2 completed on n1 in the first run, but runs on n2 now: finished, n2 told to cancel it
    send(event(TaskEventType.COMPLETED, "j2", 0, "n1", id("j2", 0), 26), 26);
    List<Decision> cancel = drain();
    assertThat(cancel).hasSize(1);
    assertThat(cancel.get(0).getNode()).isEqualTo("n2");
    assertThat(cancel.get(0).getDecisionId()).startsWith(POOL + "/cancel/");
    CancelTask c = (CancelTask) cancel.get(0).getAction();
    assertThat(c.getTaskId()).isEqualTo("j2");
    assertThat(c.getAttempt()).isEqualTo(0);
    send(event(TaskEventType.COMPLETED, "j4", 0, "n1", id("j4", 0), 27), 27);
    // j3 runs on n1 in both runs; a STARTED from n2 would be a duplicate: cancelled there
    send(event(TaskEventType.STARTED, "j3", 0, "n2", id("j3", 0), 28), 28);
    assertThat(drain()).extracting(Decision::getNode).containsExactly("n2");
    send(event(TaskEventType.COMPLETED, "j3", 0, "n1", id("j3", 0), 29), 29);
    // duplicates of completions already applied change nothing
    send(event(TaskEventType.COMPLETED, "j2", 0, "n1", id("j2", 0), 30), 30);
    send(event(TaskEventType.COMPLETED, "j3", 0, "n1", id("j3", 0), 31), 31);
    assertThat(drain()).isEmpty();

    SchedulerMetrics m = metricsNow(60_000);
    assertThat(m.getBusySlots()).isZero();
    assertThat(m.getRunningTasks()).isZero();
    assertThat(m.getQueueLength()).isZero();
    assertThat(m.getCompletions()).isEqualTo(4);
    // and the pool still works: a new job is placed at once
    send(job("j5", "f5", 40), 40);
    assertThat(drain()).extracting(Decision::getDecisionId).containsExactly(id("j5", 0));
  }

  @Test
  void aCompletionSentBeforeItsTaskExistsFinishesNothingTheTaskIsPlacedWhenItArrives()
      throws Exception {
    // Issue 22, finding 3: a registered node completes a job id not submitted yet. Before, the
    // completion was remembered and the job, on arrival, was never placed and counted complete.
    operator("FA", null);
    send(register("n1", 1, 1), 1);
    send(register("n2", 1, 2), 2);
    send(job("j0", "f0", 3), 3);
    assertThat(drain()).extracting(Decision::getNode).containsExactly("n1");
    // epoch 0: it claims to answer a placement made before a restore, so it is remembered...
    send(event(TaskEventType.COMPLETED, "j9", 0, "n1", id("j9", 0), 4), 4);
    assertThat(rejected()).extracting(DeadLetter::getCode)
        .containsExactly(DeadLetterCodes.EARLY_COMPLETION);
    // ...but j9 goes to n2 (n1's slot is busy): n1 was never given it, so n1's word is dropped
    send(job("j9", "f9", 5), 5);
    assertThat(drain()).singleElement().satisfies(d -> {
      assertThat(d.getAction()).isInstanceOf(PlaceTask.class);
      assertThat(d.getNode()).isEqualTo("n2");
      assertThat(d.getDecisionId()).isEqualTo(id("j9", 0));
    });
    assertThat(rejected()).singleElement().satisfies(d -> {
      assertThat(d.getCode()).isEqualTo(DeadLetterCodes.EARLY_COMPLETION);
      assertThat(d.getReason()).contains("dropped", "from node n1", "placed on node n2");
    });
    SchedulerMetrics m = metricsNow(60_000);
    assertThat(m.getCompletions()).isZero();
    assertThat(m.getRunningTasks()).isEqualTo(2);
    // the node that was given j9 finishes it
    send(event(TaskEventType.COMPLETED, "j9", 0, "n2", id("j9", 0), 6), 6);
    assertThat(rejected()).isEmpty();
    assertThat(metricsNow(120_000).getCompletions()).isEqualTo(1);
  }

  @Test
  void aCompletionOfThisEpochForATaskThePoolDoesNotKnowIsNotRemembered() throws Exception {
    // A placement of the current epoch was made after the task's arrival, so a completion that
    // answers one can never precede the arrival: it is a late duplicate, or forged.
    operator("FA", null);
    send(register("n1", 1, 1), 1);
    send(TaskEvent.newBuilder(event(TaskEventType.COMPLETED, "j9", 0, "n1", id("j9", 0), 2))
        .setEpoch(1).build(), 2);
    assertThat(rejected()).singleElement().satisfies(d -> {
      assertThat(d.getCode()).isEqualTo(DeadLetterCodes.UNKNOWN_TASK);
      assertThat(d.getReason()).contains("not remembered");
    });
    send(job("j9", "f9", 3), 3);
    assertThat(drain()).extracting(Decision::getDecisionId, Decision::getNode).containsExactly(
        org.assertj.core.groups.Tuple.tuple(id("j9", 0), "n1"));
    assertThat(metricsNow(60_000).getCompletions()).isZero();
  }

  @Test
  void aCompletionOfAQueuedAttemptFinishesItWithoutPlacement() throws Exception {
    operator("FA", null);
    send(register("n1", 1, 1), 1);
    send(job("j1", "f", 2), 2);
    send(job("j2", "g", 3), 3);
    assertThat(drain()).hasSize(1);
    send(event(TaskEventType.COMPLETED, "j2", 0, "n1", id("j2", 0), 4), 4);
    assertThat(rejected()).isEmpty();
    send(event(TaskEventType.COMPLETED, "j1", 0, "n1", id("j1", 0), 5), 5);
    assertThat(drain()).as("j2 is done: nothing left to place").isEmpty();
    SchedulerMetrics m = metricsNow(60_000);
    assertThat(m.getCompletions()).isEqualTo(2);
    assertThat(m.getBusySlots()).isZero();
  }
}
