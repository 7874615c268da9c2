package io.locus.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.Decision;
import io.locus.schemas.EventRange;
import io.locus.schemas.EventSegment;
import io.locus.schemas.FetchSource;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.PlacementReason;
import io.locus.schemas.ShrinkTask;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The exactly-once check and the event counts of the split demo, on hand-made records. */
class EventRangeLedgerTest {
  private static JobSubmitted job(String id, long start, long end) {
    return JobSubmitted.newBuilder().setJobId(id).setPool("p").setSubmitTimeMs(1_000)
        .setInputs(new ArrayList<>()).setSplittable(true)
        .setEvents(new EventRange("d", start, end)).build();
  }

  private static Decision place(String task, int attempt, long start, long end,
      EventSegment... segs) {
    PlaceTask p = PlaceTask.newBuilder().setTaskId(task).setJobId(task.split("/")[0])
        .setAttempt(attempt).setInputs(new ArrayList<>()).setComputeSeconds(1)
        .setReason(PlacementReason.newBuilder().setPolicy("OUT_OF_ORDER").setScore(0).build())
        .setEvents(new EventRange("d", start, end)).setEventSegments(List.of(segs)).build();
    return Decision.newBuilder().setDecisionId(task + "/" + attempt).setEpoch(1).setPool("p")
        .setNode("n").setTimeMs(0).setAction(p).build();
  }

  private static EventSegment seg(long start, long end, FetchSource src) {
    return EventSegment.newBuilder().setStart(start).setEnd(end).setSource(src)
        .setSecondsPerEvent(1).build();
  }

  private static TaskEvent ended(String task, int attempt, TaskEventType type, long start,
      long end, long at) {
    return TaskEvent.newBuilder().setPool("p").setTaskId(task).setJobId(task.split("/")[0])
        .setAttempt(attempt).setNode("n").setType(type).setTimeMs(at).setEndTimeMs(at)
        .setEvents(new EventRange("d", start, end)).build();
  }

  @Test
  void rangesThatTileEachJobPassAndCountHitsBySegment() {
    EventRangeLedger l = new EventRangeLedger();
    l.decision(place("a/0", 0, 0, 100, seg(0, 40, FetchSource.LOCAL),
        seg(40, 100, FetchSource.STORAGE)));
    l.decision(Decision.newBuilder().setDecisionId("s").setEpoch(1).setPool("p").setNode("n")
        .setTimeMs(0).setAction(ShrinkTask.newBuilder().setTaskId("a/0").setJobId("a")
            .setAttempt(0).setNewEnd(70).build()).build());
    l.taskEvent(ended("a/0", 0, TaskEventType.COMPLETED, 0, 70, 3_000));
    l.decision(place("a/1", 0, 70, 100, seg(70, 100, FetchSource.STORAGE)));
    // a SUSPENDED attempt's range counts; its re-placement continues at stopAt
    l.taskEvent(ended("a/1", 0, TaskEventType.SUSPENDED, 70, 80, 3_500));
    l.decision(place("a/1", 1, 80, 100, seg(80, 100, FetchSource.LOCAL)));
    l.taskEvent(ended("a/1", 1, TaskEventType.COMPLETED, 80, 100, 5_000));
    // SHRUNK and STARTED carry no processed range
    l.taskEvent(TaskEvent.newBuilder().setPool("p").setTaskId("a/0").setJobId("a").setAttempt(0)
        .setNode("n").setType(TaskEventType.SHRUNK).setTimeMs(2_000).setStopAt(70L).build());

    EventRangeLedger.Check c = l.check(List.of(job("a", 0, 100)));
    assertThat(c.exactlyOnce()).isTrue();
    assertThat(c.problems()).isEmpty();
    assertThat(c.completedJobs()).isEqualTo(1);
    assertThat(c.processedEvents()).isEqualTo(100);
    assertThat(c.placementsPerJob()).containsEntry("a", 3);
    assertThat(c.meanResponseSeconds()).isEqualTo(4.0);
    EventRangeLedger.Counts n = l.counts();
    assertThat(n.placements()).isEqualTo(3);
    assertThat(n.shrinks()).isEqualTo(1);
    assertThat(n.localEvents()).isEqualTo(40 + 20);
    assertThat(n.storageEvents()).isEqualTo(30 + 10);
    assertThat(n.unplacedEvents()).isZero();
    assertThat(n.hitRatio()).isEqualTo(0.6);
  }

  @Test
  void anOverlapAGapAndAStrangerAreEachAProblem() {
    EventRangeLedger l = new EventRangeLedger();
    l.taskEvent(ended("a/0", 0, TaskEventType.COMPLETED, 0, 60, 2_000));
    l.taskEvent(ended("a/1", 0, TaskEventType.COMPLETED, 50, 100, 2_000));
    l.taskEvent(ended("b/0", 0, TaskEventType.COMPLETED, 0, 30, 2_000));
    l.taskEvent(ended("b/1", 0, TaskEventType.FAILED, 40, 50, 2_000));
    l.taskEvent(ended("x/0", 0, TaskEventType.COMPLETED, 0, 5, 2_000));
    EventRangeLedger.Check c = l.check(List.of(job("a", 0, 100), job("b", 0, 50)));
    assertThat(c.exactlyOnce()).isFalse();
    assertThat(c.completedJobs()).isEqualTo(1); // a is covered (twice in part), b is not
    assertThat(c.processedEvents()).isEqualTo(110 + 40);
    assertThat(c.problems()).containsExactly(
        "job a: events [50,60) processed more than once (again by a/1#0)",
        "job b: events [30,40) not processed",
        "job x: processed events but was not submitted");
    assertThat(l.completedJobs(List.of(job("a", 0, 100), job("b", 0, 50)))).isEqualTo(1);
    // placements not seen yet: their events are counted, their source is unknown
    assertThat(l.counts().unplacedEvents()).isEqualTo(155);
    assertThat(l.counts().hitRatio()).isZero();
  }

  @Test
  void aJobWithNothingProcessedIsNotExactlyOnce() {
    EventRangeLedger.Check c = new EventRangeLedger().check(List.of(job("a", 10, 20)));
    assertThat(c.exactlyOnce()).isFalse();
    assertThat(c.problems()).containsExactly("job a: events [10,20) not processed");
    assertThat(c.placementsPerJob()).containsEntry("a", 0);
  }
}
