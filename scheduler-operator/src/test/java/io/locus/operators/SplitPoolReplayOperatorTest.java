package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.CancelTask;
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
 * Issue 22, finding 6: split pools reconcile replays like file pools (PROTOCOL-12, "At-least-once
 * safety"), in the scheduler operator on RocksDB, with real snapshots and restores. Each test
 * plays what happens after a restore in at-least-once mode: the placements made after the
 * checkpoint were sent and run; the restored operator gets their nodes' STARTED / COMPLETED and
 * the replayed inputs in another order. Before the change every such event was an {@code
 * unknown-task} and the subjob was placed (and run) again.
 */
@Timeout(120)
class SplitPoolReplayOperatorTest {
  private static final String POOL = "cern";
  private static final long T0 = 1_000_000L;
  private static final Map<String, String> FARM = Map.of("dataset", "lhcb");
  private static final Map<String, String> OOO = Map.of("cacheEvents", "1000", "dataset", "lhcb");
  private KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> harness;
  private SchedulerConfig cfg;

  private void open(String policy, Map<String, String> params, OperatorSubtaskState from)
      throws Exception {
    cfg = new SchedulerConfig(new SchedulerConfig.PolicySpec("MCH", Map.of()),
        Map.of(POOL, new SchedulerConfig.PolicySpec(policy, params)), 1000, 3)
        .withNodeTimeoutMs(Long.MAX_VALUE);
    harness = OperatorHarness.open(cfg, from);
  }

  /** Snapshot, close, and open again from the snapshot (the pool starts a new epoch). */
  private OperatorSubtaskState checkpoint(long id) throws Exception {
    return harness.snapshot(id, id);
  }

  private void restore(OperatorSubtaskState snap) throws Exception {
    harness.close();
    harness = OperatorHarness.open(cfg, snap);
  }

  @AfterEach
  void close() throws Exception {
    if (harness != null) {
      harness.close();
    }
  }

  private void send(Object event) throws Exception {
    harness.processElement(SchedulerInput.newBuilder().setPool(POOL).setEvent(event).build(), 0);
  }

  private static NodeReport register(String node, long t) {
    return NodeReport.newBuilder().setPool(POOL).setNode(node).setType(NodeReportType.REGISTER)
        .setTimeMs(t).setSlots(1).build();
  }

  private static JobSubmitted job(String id, long start, long end, long t) {
    return JobSubmitted.newBuilder().setJobId(id).setPool(POOL).setSubmitTimeMs(t)
        .setInputs(List.of()).setSplittable(true).setEvents(new EventRange("lhcb", start, end))
        .build();
  }

  /** A task event answering placement {@code d}, stamped with the placement's epoch. */
  private static TaskEvent answer(TaskEventType type, Decision d, String node, long[] events,
      long t) {
    PlaceTask p = (PlaceTask) d.getAction();
    TaskEvent.Builder b = TaskEvent.newBuilder().setPool(POOL).setTaskId(p.getTaskId())
        .setJobId(p.getJobId()).setAttempt(p.getAttempt()).setNode(node).setType(type)
        .setDecisionId(d.getDecisionId()).setEpoch(d.getEpoch()).setTimeMs(t);
    if (events != null) {
      b.setEvents(new EventRange("lhcb", events[0], events[1]));
    }
    return b.build();
  }

  private static TaskEvent done(Decision d, long t) {
    PlaceTask p = (PlaceTask) d.getAction();
    return answer(TaskEventType.COMPLETED, d, d.getNode(),
        new long[] {p.getEvents().getStart(), p.getEvents().getEnd()}, t);
  }

  private List<Decision> drain() {
    List<Decision> out = new ArrayList<>(harness.extractOutputValues());
    harness.getOutput().clear();
    return out;
  }

  private List<DeadLetter> rejected() {
    List<DeadLetter> out = new ArrayList<>();
    var q = harness.getSideOutput(SchedulerOperator.REJECTED);
    if (q != null) {
      for (StreamRecord<DeadLetter> r : q) {
        out.add(r.getValue());
      }
      q.clear();
    }
    return out;
  }

  private SchedulerMetrics metrics(long processingTime) throws Exception {
    harness.setProcessingTime(processingTime);
    SchedulerMetrics last = null;
    var q = harness.getSideOutput(SchedulerOperator.METRICS);
    if (q != null) {
      for (StreamRecord<SchedulerMetrics> r : q) {
        last = r.getValue();
      }
    }
    return last;
  }

  private static List<Decision> placements(List<Decision> ds) {
    return ds.stream().filter(d -> d.getAction() instanceof PlaceTask).toList();
  }

  private static List<Decision> cancels(List<Decision> ds) {
    return ds.stream().filter(d -> d.getAction() instanceof CancelTask).toList();
  }

  // ------------------------------------------------------------------ early completions

  @Test
  void aCompletionReadBeforeItsJobIsReplayedCountsWhenTheReplayPlacesItOnThatNode()
      throws Exception {
    open("FARM", FARM, null);
    send(register("n1", T0));
    send(register("n2", T0));
    OperatorSubtaskState chk = checkpoint(1);
    // the first run, after the checkpoint: j1 is placed on n1, which runs it
    send(job("j1", 0, 100, T0 + 1000));
    Decision first = drain().get(0);
    assertThat(first.getNode()).isEqualTo("n1");

    restore(chk);
    // the replay reads n1's completion before j1's arrival
    send(done(first, T0 + 2000));
    List<DeadLetter> kept = rejected();
    assertThat(kept).extracting(DeadLetter::getCode)
        .containsExactly(DeadLetterCodes.EARLY_COMPLETION);
    assertThat(kept.get(0).getReason()).contains("remembered", "node n1");
    // the kept completion is in keyed state: it survives another restore
    restore(checkpoint(2));
    send(job("j1", 0, 100, T0 + 1000));
    assertThat(drain()).as("j1's subjob completed already: not placed again").isEmpty();
    assertThat(rejected()).isEmpty();
    SchedulerMetrics m = metrics(60_000);
    assertThat(m.getCompletions()).isEqualTo(1);
    assertThat(m.getRunningTasks()).isZero();
    assertThat(m.getQueueLength()).isZero();
    // n1 is free: the next job goes there at once
    send(job("j2", 0, 50, T0 + 3000));
    assertThat(drain()).extracting(Decision::getNode).containsExactly("n1");
  }

  @Test
  void anEarlyCompletionFromANodeThePlacementDoesNotGoToIsDroppedAndThePlacementGoesOut()
      throws Exception {
    open("FARM", FARM, null);
    send(register("n1", T0));
    send(register("n2", T0));
    OperatorSubtaskState chk = checkpoint(1);
    send(job("j1", 0, 100, T0 + 1000));
    Decision first = drain().get(0);
    restore(chk);
    // n2 claims j1's subjob (never given to it): kept, but only n1 can settle it
    send(answer(TaskEventType.COMPLETED, first, "n2", new long[] {0, 100}, T0 + 2000));
    assertThat(rejected()).extracting(DeadLetter::getCode)
        .containsExactly(DeadLetterCodes.EARLY_COMPLETION);
    send(job("j1", 0, 100, T0 + 1000));
    assertThat(placements(drain())).singleElement().satisfies(d -> {
      assertThat(d.getNode()).isEqualTo("n1");
      assertThat(d.getDecisionId()).isEqualTo(first.getDecisionId());
    });
    assertThat(rejected()).singleElement().satisfies(d -> {
      assertThat(d.getCode()).isEqualTo(DeadLetterCodes.EARLY_COMPLETION);
      assertThat(d.getReason()).contains("dropped", "from node n2", "placed on node n1");
    });
    assertThat(metrics(60_000).getCompletions()).isZero();
    // a completion stamped with the current epoch answers nothing placed before the restore
    send(TaskEvent.newBuilder(answer(TaskEventType.COMPLETED, first, "n1", new long[] {0, 10},
        T0 + 3000)).setTaskId("j9/1").setJobId("j9").setDecisionId(POOL + "/j9/1/0")
        .setEpoch(2).build());
    assertThat(rejected()).singleElement().satisfies(d -> {
      assertThat(d.getCode()).isEqualTo(DeadLetterCodes.UNKNOWN_TASK);
      assertThat(d.getReason()).contains("not remembered");
    });
  }

  // ------------------------------------------------------------------ placed twice

  @Test
  void anAttemptPlacedTwiceIsCancelledOnTheOtherNodeAndItsFirstCompletionCounts()
      throws Exception {
    open("FARM", FARM, null);
    send(register("n1", T0));
    send(register("n2", T0));
    send(job("j1", 0, 100, T0 + 1000));
    Decision d = drain().get(0);
    assertThat(d.getNode()).isEqualTo("n1");
    // before a restore the same attempt went to n2, which started it: n2 is told to cancel
    send(answer(TaskEventType.STARTED, d, "n2", null, T0 + 2000));
    assertThat(rejected()).isEmpty();
    assertThat(drain()).singleElement().satisfies(c -> {
      assertThat(c.getNode()).isEqualTo("n2");
      assertThat(c.getDecisionId()).startsWith(POOL + "/cancel/");
      CancelTask ct = (CancelTask) c.getAction();
      assertThat(ct.getTaskId()).isEqualTo(((PlaceTask) d.getAction()).getTaskId());
      assertThat(ct.getAttempt()).isZero();
    });
    // n2 finished first anyway: its completion counts, and n1's run is cancelled
    send(answer(TaskEventType.COMPLETED, d, "n2", new long[] {0, 100}, T0 + 3000));
    assertThat(rejected()).isEmpty();
    assertThat(cancels(drain())).singleElement().extracting(Decision::getNode).isEqualTo("n1");
    SchedulerMetrics m = metrics(60_000);
    assertThat(m.getCompletions()).isEqualTo(1);
    assertThat(m.getRunningTasks()).isZero();
    // n1's own completion is the second: refused
    send(done(d, T0 + 4000));
    assertThat(rejected()).extracting(DeadLetter::getCode)
        .containsExactly(DeadLetterCodes.UNKNOWN_TASK);
    assertThat(metrics(120_000).getCompletions()).isEqualTo(1);
  }

  // ------------------------------------------------------------------ spared attempts

  @Test
  void aCompletionReadAfterItsNodeRegisteredAgainCountsAndCancelsTheReplacement()
      throws Exception {
    // The agent completed j1's subjob, was killed and restarted; its REGISTER (node-reports) is
    // read before that completion (task-events): the work is done, it must not run again.
    open("FARM", FARM, null);
    send(register("n1", T0));
    send(job("j1", 0, 100, T0 + 1000));
    Decision first = drain().get(0);
    send(register("n1", T0 + 2000));
    Decision again = placements(drain()).get(0);
    assertThat(((PlaceTask) again.getAction()).getAttempt()).isEqualTo(1);
    send(done(first, T0 + 3000));
    assertThat(rejected()).isEmpty();
    assertThat(drain()).singleElement().satisfies(c -> {
      assertThat(c.getNode()).isEqualTo("n1");
      assertThat(((CancelTask) c.getAction()).getAttempt()).isEqualTo(1);
    });
    assertThat(metrics(60_000).getRunningTasks()).isZero();
    // the replacement's own completion, if it ran before the cancel, is not a second one
    send(done(again, T0 + 4000));
    assertThat(rejected()).extracting(DeadLetter::getCode)
        .containsExactly(DeadLetterCodes.UNKNOWN_TASK);
    assertThat(metrics(120_000).getCompletions()).isEqualTo(1);
  }

  // ------------------------------------------------------------------ queued subjobs

  @Test
  void aQueuedSubjobsCompletionIsKeptAndCountsWhereThePolicyPlacesItWithoutRunningAgain()
      throws Exception {
    open("out-of-order", OOO, null);
    send(register("n1", T0));
    send(job("j1", 0, 100, T0));
    send(job("j2", 200, 300, T0));
    Decision j1 = drain().get(0);
    assertThat(((PlaceTask) j1.getAction()).getJobId()).isEqualTo("j1");
    OperatorSubtaskState chk = checkpoint(1);
    // the first run, after the checkpoint: j1 ends, j2's queued subjob runs on n1 and ends
    send(done(j1, T0 + 1000));
    Decision j2 = placements(drain()).get(0);
    assertThat(((PlaceTask) j2.getAction()).getJobId()).isEqualTo("j2");

    restore(chk);
    // replay: n1's STARTED then COMPLETED of j2's subjob come before j1's completion
    send(answer(TaskEventType.STARTED, j2, "n1", null, T0 + 1001));
    assertThat(rejected()).isEmpty();
    send(done(j2, T0 + 1100));
    assertThat(rejected()).extracting(DeadLetter::getCode)
        .containsExactly(DeadLetterCodes.EARLY_COMPLETION);
    assertThat(drain()).isEmpty();
    // j1's completion frees n1: the policy places j2's subjob there, where it is done already
    send(done(j1, T0 + 1000));
    assertThat(placements(drain())).as("j2's subjob is not placed again").isEmpty();
    assertThat(rejected()).isEmpty();
    SchedulerMetrics m = metrics(60_000);
    assertThat(m.getCompletions()).isEqualTo(2);
    assertThat(m.getRunningTasks()).isZero();
    assertThat(m.getQueueLength()).isZero();
  }

  @Test
  void aQueuedSubjobStartedOnANodeThePolicyDoesNotPlaceItOnIsCancelledThere() throws Exception {
    // min 1000 events: no job is cut for the idle node, nor is a tail stolen
    open("out-of-order", Map.of("cacheEvents", "1000", "dataset", "lhcb", "min", "1000"), null);
    send(register("n1", T0));
    send(register("n2", T0));
    send(job("j1", 0, 100, T0));
    send(job("j2", 200, 300, T0));
    send(job("j3", 400, 500, T0));
    List<Decision> placed = placements(drain());
    assertThat(placed).hasSize(2);
    OperatorSubtaskState chk = checkpoint(1);
    // first run: n2 ends its subjob and starts j3's
    Decision onN2 = placed.stream().filter(d -> d.getNode().equals("n2")).findFirst().get();
    Decision onN1 = placed.stream().filter(d -> d.getNode().equals("n1")).findFirst().get();
    send(done(onN2, T0 + 1000));
    Decision j3 = placements(drain()).get(0);
    assertThat(j3.getNode()).isEqualTo("n2");

    restore(chk);
    // replay: j3's STARTED on n2 is kept; n1 ends first this time, so j3 goes to n1
    send(answer(TaskEventType.STARTED, j3, "n2", null, T0 + 1001));
    assertThat(rejected()).isEmpty();
    send(done(onN1, T0 + 1000));
    List<Decision> out = drain();
    assertThat(placements(out)).singleElement().satisfies(d -> {
      assertThat(d.getNode()).isEqualTo("n1");
      assertThat(d.getDecisionId()).isEqualTo(j3.getDecisionId());
    });
    assertThat(cancels(out)).singleElement().satisfies(c -> {
      assertThat(c.getNode()).isEqualTo("n2");
      assertThat(((CancelTask) c.getAction()).getTaskId())
          .isEqualTo(((PlaceTask) j3.getAction()).getTaskId());
    });
  }

  // ------------------------------------------------------------------ ranges

  @Test
  void aCompletionOfALongerRangeThanTheSubjobHoldsCreditsNothingAndTheRangeRunsAgain()
      throws Exception {
    // The replayed placement kept its decision id but the subjob is shorter than the one the
    // agent ran (re-split): the agent answers the duplicate with its old range.
    open("FARM", FARM, null);
    send(register("n1", T0));
    OperatorSubtaskState chk = checkpoint(1);
    send(job("j1", 0, 100, T0));
    Decision before = drain().get(0);
    restore(chk);
    send(job("j1", 0, 100, T0));
    Decision d = drain().get(0);
    assertThat(d.getDecisionId()).isEqualTo(before.getDecisionId());
    // n1 ran the placement of epoch 1, [0,150) in this play, and answers the replay with it
    send(answer(TaskEventType.COMPLETED, before, "n1", new long[] {0, 150}, T0 + 1000));
    assertThat(rejected()).singleElement().satisfies(r -> {
      assertThat(r.getCode()).isEqualTo(DeadLetterCodes.UNKNOWN_TASK);
      assertThat(r.getReason()).contains("[0,150)", "nothing credited", "placed again");
    });
    // the attempt is over: its range is a new subjob, placed at once on the free node
    Decision again = placements(drain()).get(0);
    PlaceTask p = (PlaceTask) again.getAction();
    assertThat(p.getTaskId()).isNotEqualTo(((PlaceTask) d.getAction()).getTaskId());
    assertThat(p.getEvents().getStart()).isZero();
    assertThat(p.getEvents().getEnd()).isEqualTo(100);
    send(done(again, T0 + 2000));
    assertThat(rejected()).isEmpty();
    SchedulerMetrics m = metrics(60_000);
    assertThat(m.getRunningTasks()).isZero();
    assertThat(m.getQueueLength()).isZero();
  }

  @Test
  void aCompletionOfARangeStartingElsewhereFromBeforeTheRestoreEndsTheAttemptAndTheRangeRunsAgain()
      throws Exception {
    // Seen in the split scheduler-kill test: the subjob's replayed placement (same decision id)
    // starts earlier than the one the agent ran; the agent answers with the range it ran. The
    // attempt was left "running" on a node that had finished it, and its job never ended.
    open("FARM", FARM, null);
    send(register("n1", T0));
    OperatorSubtaskState chk = checkpoint(1);
    send(job("j1", 0, 100, T0));
    Decision before = drain().get(0);
    restore(chk);
    send(job("j1", 0, 100, T0));
    Decision d = drain().get(0);
    send(answer(TaskEventType.COMPLETED, before, "n1", new long[] {40, 100}, T0 + 1000));
    assertThat(rejected()).singleElement().satisfies(r -> {
      assertThat(r.getCode()).isEqualTo(DeadLetterCodes.UNKNOWN_TASK);
      assertThat(r.getReason()).contains("[40,100)", "nothing credited");
    });
    Decision again = placements(drain()).get(0);
    assertThat(((PlaceTask) again.getAction()).getTaskId())
        .isNotEqualTo(((PlaceTask) d.getAction()).getTaskId());
    send(done(again, T0 + 2000));
    assertThat(rejected()).isEmpty();
    SchedulerMetrics m = metrics(60_000);
    assertThat(m.getRunningTasks()).isZero();
    assertThat(m.getQueueLength()).isZero();
  }
  @Test
  void aSuspensionFromBeforeTheRestoreOutsideTheReplayedRangeEndsTheAttemptAndTheRangeRunsAgain()
      throws Exception {
    // Seen in CI (SchedulerKillSystemTest, split, at-least-once): the replay placed the subjob
    // again on the same node under the same decision id but cut otherwise, so the agent kept the
    // range it had and suspended it, for a stop of epoch 1, at a point outside the replayed range.
    // The core refused that acknowledgement (outside its range), the attempt stayed "running" for
    // good and the job's events were never credited. In this play n1 ran [0,150) in epoch 1.
    open("FARM", FARM, null);
    send(register("n1", T0));
    OperatorSubtaskState chk = checkpoint(1);
    send(job("j1", 0, 100, T0));
    Decision before = drain().get(0);
    restore(chk);
    send(job("j1", 0, 100, T0));
    Decision d = drain().get(0);
    assertThat(d.getDecisionId()).isEqualTo(before.getDecisionId());
    PlaceTask p = (PlaceTask) before.getAction();
    send(TaskEvent.newBuilder().setPool(POOL).setTaskId(p.getTaskId()).setJobId(p.getJobId())
        .setAttempt(p.getAttempt()).setNode("n1").setType(TaskEventType.SUSPENDED)
        .setDecisionId(POOL + "/suspend/7").setEpoch(before.getEpoch()).setStopAt(120L)
        .setEvents(new EventRange("lhcb", 0L, 120L)).setTimeMs(T0 + 1000).build());
    assertThat(rejected()).singleElement().satisfies(r -> {
      assertThat(r.getCode()).isEqualTo(DeadLetterCodes.UNKNOWN_TASK);
      assertThat(r.getReason()).contains("at 120", "outside", "nothing credited", "placed again");
    });
    List<Decision> out = drain();
    assertThat(cancels(out)).as("the run already stopped: nothing to cancel").isEmpty();
    Decision again = placements(out).get(0);
    PlaceTask a = (PlaceTask) again.getAction();
    assertThat(a.getTaskId()).isNotEqualTo(p.getTaskId());
    assertThat(a.getEvents().getStart()).isZero();
    assertThat(a.getEvents().getEnd()).isEqualTo(100);
    send(done(again, T0 + 2000));
    assertThat(rejected()).isEmpty();
    SchedulerMetrics m = metrics(60_000);
    assertThat(m.getRunningTasks()).isZero();
    assertThat(m.getQueueLength()).isZero();
  }

  @Test
  void anAnswerToThePendingStopOutsideTheSubjobCancelsTheRunAndTheRangeRunsAgain()
      throws Exception {
    // The same after a restore when the stop is one of this epoch: the agent answers it from the
    // range it runs (not the core's). Played here without a restore: a node whose SHRUNK lies
    // outside the subjob's range runs something else under the attempt's id, whatever the cause.
    open("OUT_OF_ORDER", OOO, null);
    send(register("n1", T0));
    send(job("j1", 0, 200, T0));
    Decision d1 = drain().get(0);
    send(register("n2", T0 + 40_000));
    Decision shrink = drain().get(0);
    assertThat(shrink.getAction()).isInstanceOf(io.locus.schemas.ShrinkTask.class);
    PlaceTask p = (PlaceTask) d1.getAction();
    send(TaskEvent.newBuilder().setPool(POOL).setTaskId(p.getTaskId()).setJobId(p.getJobId())
        .setAttempt(0).setNode("n1").setType(TaskEventType.SHRUNK)
        .setDecisionId(shrink.getDecisionId()).setEpoch(shrink.getEpoch()).setStopAt(260L)
        .setTimeMs(T0 + 41_000).build());
    assertThat(rejected()).singleElement().satisfies(r -> {
      assertThat(r.getCode()).isEqualTo(DeadLetterCodes.UNKNOWN_TASK);
      assertThat(r.getReason()).contains("SHRUNK at 260", "outside", "nothing credited");
    });
    List<Decision> out = drain();
    assertThat(cancels(out)).singleElement().satisfies(c -> {
      assertThat(c.getNode()).isEqualTo("n1");
      assertThat(((CancelTask) c.getAction()).getTaskId()).isEqualTo(p.getTaskId());
    });
    // the whole range is queued again as new subjobs, on the two idle nodes; their completions
    // end the job
    List<Decision> again = placements(out);
    assertThat(again).isNotEmpty().allSatisfy(a ->
        assertThat(((PlaceTask) a.getAction()).getTaskId()).isNotEqualTo(p.getTaskId()));
    assertThat(again.stream().mapToLong(a -> ((PlaceTask) a.getAction()).getEvents().getEnd()
        - ((PlaceTask) a.getAction()).getEvents().getStart()).sum()).isEqualTo(200);
    long t = T0 + 200_000;
    for (Decision a : again) {
      send(done(a, t++));
    }
    assertThat(rejected()).isEmpty();
    SchedulerMetrics m = metrics(60_000);
    assertThat(m.getRunningTasks()).isZero();
    assertThat(m.getQueueLength()).isZero();
  }
}
