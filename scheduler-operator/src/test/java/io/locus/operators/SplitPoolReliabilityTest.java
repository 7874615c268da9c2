package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.Decision;
import io.locus.schemas.EventRange;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.codec.DeadLetterCodes;
import io.locus.schemas.state.PoolMeta;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 12 in a split pool (the driver alone, state in memory): a lost or re-registered node's
 * subjob is placed again as a new attempt, and task events must be about the attempt the pool
 * has there, naming its decision.
 */
class SplitPoolReliabilityTest {
  private static final String POOL = "cern";
  private SplitPoolDriver d;
  private PoolMeta meta;

  @BeforeEach
  void create() throws Exception {
    Map<String, String> params = Map.of("dataset", "ds");
    d = SplitPoolDriver.create(POOL, "FARM", params, List.of()).attach(SplitStore.inMemory(),
        null);
    d.save();
    meta = PoolMeta.newBuilder().setEpoch(1).setNextSeq(1).setPolicy("FARM").setParams(params)
        .build();
  }

  private PoolOutput report(String node, NodeReportType type, long t) throws Exception {
    meta.setClockMs(Math.max(meta.getClockMs(), t));
    return d.onNodeReport(NodeReport.newBuilder().setPool(POOL).setNode(node).setType(type)
        .setTimeMs(t).setSlots(1).build(), meta);
  }

  private PoolOutput job(String id, long start, long end, long t) throws Exception {
    meta.setClockMs(Math.max(meta.getClockMs(), t));
    return d.onJob(JobSubmitted.newBuilder().setJobId(id).setPool(POOL).setSubmitTimeMs(t)
        .setInputs(List.of()).setSplittable(true).setEvents(new EventRange("ds", start, end))
        .build(), meta);
  }

  private PoolOutput event(TaskEventType type, PlaceTask p, String node, String decisionId,
      long t) throws Exception {
    meta.setClockMs(Math.max(meta.getClockMs(), t));
    return d.onTaskEvent(TaskEvent.newBuilder().setPool(POOL).setTaskId(p.getTaskId())
        .setJobId(p.getJobId()).setAttempt(p.getAttempt()).setNode(node).setType(type)
        .setDecisionId(decisionId).setTimeMs(t).build(), meta);
  }

  private PoolOutput suspended(PlaceTask p, String node, String decisionId, long t)
      throws Exception {
    meta.setClockMs(Math.max(meta.getClockMs(), t));
    return d.onTaskEvent(TaskEvent.newBuilder().setPool(POOL).setTaskId(p.getTaskId())
        .setJobId(p.getJobId()).setAttempt(p.getAttempt()).setNode(node)
        .setType(TaskEventType.SUSPENDED).setStopAt(500L).setDecisionId(decisionId).setTimeMs(t)
        .build(), meta);
  }

  private static PlaceTask placed(Decision dec) {
    return (PlaceTask) dec.getAction();
  }

  /** One node, one job: placed there as attempt 0. */
  private Decision onePlacement() throws Exception {
    report("n1", NodeReportType.REGISTER, 1000);
    List<Decision> out = job("j1", 0, 1000, 2000).decisions();
    assertThat(out).hasSize(1);
    assertThat(placed(out.get(0)).getAttempt()).isZero();
    return out.get(0);
  }

  @Test
  void aLostNodesSubjobIsPlacedAgainElsewhereAsANewAttempt() throws Exception {
    Decision first = onePlacement();
    report("n2", NodeReportType.REGISTER, 3000);
    PoolOutput o = d.onNodeLost("n1", meta);
    assertThat(o.rejections()).isEmpty();
    assertThat(o.decisions()).hasSize(1);
    Decision again = o.decisions().get(0);
    assertThat(again.getNode()).isEqualTo("n2");
    assertThat(placed(again).getTaskId()).isEqualTo(placed(first).getTaskId());
    assertThat(placed(again).getAttempt()).isEqualTo(1);
    assertThat(again.getDecisionId()).isNotEqualTo(first.getDecisionId());
    assertThat(d.nodeIds()).containsExactly("n2");
  }

  @Test
  void aRegisterOfANodeThatRunsASubjobPlacesItAgainAsANewAttempt() throws Exception {
    Decision first = onePlacement();
    PoolOutput o = report("n1", NodeReportType.REGISTER, 3000);
    assertThat(o.decisions()).hasSize(1);
    Decision again = o.decisions().get(0);
    assertThat(placed(again).getTaskId()).isEqualTo(placed(first).getTaskId());
    assertThat(placed(again).getAttempt()).isEqualTo(1);
    assertThat(d.running()).isEqualTo(1);
    // the new attempt's completion finishes the job
    assertThat(event(TaskEventType.COMPLETED, placed(again), "n1", again.getDecisionId(), 5000)
        .rejections()).isEmpty();
    assertThat(d.activeJobs()).isZero();
  }

  @Test
  void theOldAttemptsCompletionReadAfterTheRegisterCountsAndCancelsTheNewAttempt()
      throws Exception {
    // Issue 22, finding 6: n1 completed attempt 0, then registered again; the REGISTER was read
    // first. The work is done: it counts, and the replacement is cancelled (it was refused).
    Decision first = onePlacement();
    Decision again = report("n1", NodeReportType.REGISTER, 3000).decisions().get(0);
    PoolOutput o = event(TaskEventType.COMPLETED, placed(first), "n1", first.getDecisionId(), 4000);
    assertThat(o.rejections()).isEmpty();
    assertThat(o.decisions()).singleElement().satisfies(c -> {
      assertThat(c.getNode()).isEqualTo("n1");
      assertThat(c.getAction()).isInstanceOf(io.locus.schemas.CancelTask.class);
      assertThat(((io.locus.schemas.CancelTask) c.getAction()).getAttempt()).isEqualTo(1);
    });
    assertThat(d.activeJobs()).isZero();
    assertThat(meta.getCompletions()).isEqualTo(1);
    // the replacement's completion, had it run before the cancel, is not a second one
    assertThat(event(TaskEventType.COMPLETED, placed(again), "n1", again.getDecisionId(), 5000)
        .rejections()).extracting(PoolOutput.Rejection::code)
        .containsExactly(DeadLetterCodes.UNKNOWN_TASK);
    assertThat(meta.getCompletions()).isEqualTo(1);
  }

  @Test
  void aSuspendedAnsweringAStopOfAnEarlierEpochEndsTheAttemptWhereItStopped() throws Exception {
    // Seen in the split scheduler-kill test: before the restore the agent suspended the attempt
    // for cern/suspend/3; the replay does not suspend it (or suspends it under an id the agent
    // takes for a duplicate), so no other answer comes: the attempt ends at its stopAt.
    Decision first = onePlacement();
    PoolOutput o = d.onTaskEvent(TaskEvent.newBuilder().setPool(POOL)
        .setTaskId(placed(first).getTaskId()).setJobId("j1").setAttempt(0).setNode("n1")
        .setType(TaskEventType.SUSPENDED).setStopAt(500L).setEvents(new EventRange("ds", 0L, 500L))
        .setDecisionId(POOL + "/suspend/3").setEpoch(0).setTimeMs(3000).build(), meta);
    assertThat(o.rejections()).isEmpty();
    // [0,500) is credited; the rest is a new subjob, placed on the free node
    assertThat(o.decisions()).singleElement().satisfies(p -> {
      assertThat(placed(p).getTaskId()).isNotEqualTo(placed(first).getTaskId());
      assertThat(placed(p).getEvents().getStart()).isEqualTo(500);
      assertThat(placed(p).getEvents().getEnd()).isEqualTo(1000);
    });
    // of the current epoch, the same answer is a stale one: refused
    Decision rest = o.decisions().get(0);
    PoolOutput stale = d.onTaskEvent(TaskEvent.newBuilder().setPool(POOL)
        .setTaskId(placed(rest).getTaskId()).setJobId("j1").setAttempt(0).setNode("n1")
        .setType(TaskEventType.SUSPENDED).setStopAt(600L).setDecisionId(POOL + "/suspend/4")
        .setEpoch(1).setTimeMs(4000).build(), meta);
    assertThat(stale.rejections()).extracting(PoolOutput.Rejection::code)
        .containsExactly(DeadLetterCodes.UNKNOWN_TASK);
    assertThat(d.running()).isEqualTo(1);
  }

  @Test
  void aForgedCompletedWithoutDecisionIdDoesNotFinishTheSubjob() throws Exception {
    Decision first = onePlacement();
    PoolOutput o = event(TaskEventType.COMPLETED, placed(first), "n1", null, 3000);
    assertThat(o.rejections()).extracting(PoolOutput.Rejection::code)
        .containsExactly(DeadLetterCodes.UNKNOWN_TASK);
    assertThat(o.rejection()).contains("no decision id").contains(first.getDecisionId());
    assertThat(d.activeJobs()).isEqualTo(1);
    assertThat(d.running()).isEqualTo(1);
  }

  @Test
  void aFailedWithANullDecisionIdDoesNotReplaceTheRunningSubjob() throws Exception {
    Decision first = onePlacement();
    PoolOutput o = event(TaskEventType.FAILED, placed(first), "n1", null, 3000);
    assertThat(o.rejections()).extracting(PoolOutput.Rejection::code)
        .containsExactly(DeadLetterCodes.UNKNOWN_TASK);
    assertThat(o.decisions()).as("not placed a second time").isEmpty();
    assertThat(d.running()).isEqualTo(1);
  }

  @Test
  void eventsOfAnotherNodeAttemptOrSubjobAreRejectedWithTheReason() throws Exception {
    Decision first = onePlacement();
    report("n2", NodeReportType.REGISTER, 2500);
    PlaceTask p = placed(first);
    PlaceTask otherAttempt = PlaceTask.newBuilder(p).setAttempt(4).build();
    PlaceTask otherTask = PlaceTask.newBuilder(p).setTaskId("j9/1").build();
    // (a COMPLETED of that attempt from n2 is the same attempt placed twice after a restore:
    // it counts, SplitPoolReplayOperatorTest; a FAILED from n2 is refused)
    List<PoolOutput> outs = List.of(
        event(TaskEventType.FAILED, p, "n2", first.getDecisionId(), 3000),
        event(TaskEventType.FAILED, otherAttempt, "n1", POOL + "/" + p.getTaskId() + "/4", 3001),
        event(TaskEventType.REFUSED, otherTask, "n1", POOL + "/j9/1/0", 3002),
        event(TaskEventType.COMPLETED, p, "n1", POOL + "/shrink/7", 3003),
        suspended(p, "n1", first.getDecisionId(), 3004));
    assertThat(outs).allSatisfy(o -> assertThat(o.rejections())
        .extracting(PoolOutput.Rejection::code).containsExactly(DeadLetterCodes.UNKNOWN_TASK));
    assertThat(outs.get(0).rejection()).contains("placed on n1");
    assertThat(outs.get(1).rejection()).contains("attempt 0 is the placed one");
    assertThat(outs.get(2).rejection()).contains("no such subjob");
    assertThat(outs.get(3).rejection()).contains("not the placement of that attempt");
    assertThat(outs.get(4).rejection()).contains("not the pending stop");
    assertThat(d.running()).isEqualTo(1);
    assertThat(d.activeJobs()).isEqualTo(1);
  }
}
