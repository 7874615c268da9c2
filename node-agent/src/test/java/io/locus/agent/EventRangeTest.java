package io.locus.agent;

import static io.locus.agent.TestDecisions.MB;
import static io.locus.agent.TestDecisions.cancel;
import static io.locus.agent.TestDecisions.decision;
import static io.locus.agent.TestDecisions.rangeTask;
import static io.locus.agent.TestDecisions.segment;
import static io.locus.agent.TestDecisions.shrink;
import static io.locus.agent.TestDecisions.storage;
import static io.locus.agent.TestDecisions.suspend;
import static io.locus.agent.TestDecisions.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.locus.agent.sim.LocalPeerDirectory;
import io.locus.agent.sim.SimulatedAgents;
import io.locus.schemas.Decision;
import io.locus.schemas.EventRange;
import io.locus.schemas.FetchSource;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Event-range tasks on a simulated agent in virtual time (spec cern-job-splitting §1.3, §9): event
 * by event at the planned costs, shrink and suspend at event boundaries, and the acknowledgements
 * the scheduler relies on. Every event is 1 s unless a test says otherwise, so "at t = 10.5" means
 * event 10 is half done.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class EventRangeTest {
  private static final String POOL = "p1";

  private final ManualScheduler clock = new ManualScheduler();
  private final RecordingOutput out = new RecordingOutput();
  private final NodeAgent agent = SimulatedAgents.create(
      AgentConfig.builder(POOL, "n1").heartbeatMs(3_600_000).slots(1).build(), clock, out,
      new LocalPeerDirectory());
  private int ids;

  EventRangeTest() {
    agent.start();
  }

  private Decision send(Object action) {
    Decision d = decision("d" + (ids++), 1, POOL, "n1", action);
    agent.onDecision(d);
    return d;
  }

  private List<TaskEvent> events(String taskId, TaskEventType type) {
    return out.eventsOf(taskId).stream().filter(e -> e.getType() == type).toList();
  }

  private TaskEvent only(String taskId, TaskEventType type) {
    List<TaskEvent> es = events(taskId, type);
    assertThat(es).as("%s events of %s in %s", type, taskId, out.events).hasSize(1);
    return es.get(0);
  }

  private static EventRange range(long start, long end) {
    return new EventRange("lhcb", start, end);
  }

  /** Virtual seconds since the start at which the event was emitted. */
  private static double at(TaskEvent e) {
    return (e.getTimeMs() - ManualScheduler.EPOCH_MS) / 1000.0;
  }

  // ---- running -------------------------------------------------------------------------------

  @Test
  void eachEventCostsItsSegmentsPlannedTime() {
    // 40 cached events at 0.26 s, 60 from tape at 0.8 s: 10.4 + 48 = 58.4 s (spec §1.2).
    send(rangeTask("t1", 0, 1_000, 1_100, 0,
        segment(1_000, 1_040, FetchSource.LOCAL, 0.26),
        segment(1_040, 1_100, FetchSource.STORAGE, 0.8)));
    clock.advanceSeconds(58.3);
    assertThat(events("t1", TaskEventType.COMPLETED)).isEmpty();
    clock.advanceSeconds(0.2);

    TaskEvent done = only("t1", TaskEventType.COMPLETED);
    assertThat(at(done)).isEqualTo(58.4);
    assertThat(done.getEvents()).isEqualTo(range(1_000, 1_100));
    assertThat(done.getStopAt()).isNull();
    assertThat(done.getDecisionId()).isEqualTo("d0");
    assertThat(agent.processedRanges()).containsExactly(new NodeAgent.ProcessedRange("job-t1",
        "t1", 0, "lhcb", 1_000, 1_100, TaskEventType.COMPLETED));
    assertThat(agent.stats().eventsProcessed()).isEqualTo(100);
  }

  @Test
  void withoutSegmentsTheComputeSecondsAreSpreadOverTheRange() {
    send(rangeTask("t1", 0, 0, 100, 10.0));
    clock.runUntilIdle();
    TaskEvent done = only("t1", TaskEventType.COMPLETED);
    assertThat(at(done)).isEqualTo(10.0);
    assertThat(done.getEvents()).isEqualTo(range(0, 100));
  }

  @Test
  void timeScaleAppliesToEvents() {
    NodeAgent fast = SimulatedAgents.create(AgentConfig.builder(POOL, "n2")
        .heartbeatMs(3_600_000).timeScale(0.01).build(), clock, out, new LocalPeerDirectory());
    fast.start();
    fast.onDecision(decision("f0", 1, POOL, "n2", rangeTask("t1", 0, 100, 2.0)));
    clock.runUntilIdle();
    assertThat(at(only("t1", TaskEventType.COMPLETED))).isEqualTo(2.0);
  }

  // ---- shrink --------------------------------------------------------------------------------

  @Test
  void aShrinkAheadOfThePositionStopsAtTheRequestedEnd() {
    send(rangeTask("t1", 0, 100, 1.0));
    clock.advanceSeconds(10.5);
    Decision d = send(shrink("t1", 50));

    TaskEvent ack = only("t1", TaskEventType.SHRUNK);
    assertThat(ack.getStopAt()).isEqualTo(50);
    assertThat(at(ack)).isEqualTo(10.5);
    assertThat(ack.getDecisionId()).isEqualTo(d.getDecisionId());
    assertThat(ack.getAttempt()).isZero();
    assertThat(ack.getJobId()).isEqualTo("job-t1");
    clock.advanceSeconds(39.4);
    assertThat(events("t1", TaskEventType.COMPLETED)).isEmpty();
    clock.runUntilIdle();
    TaskEvent done = only("t1", TaskEventType.COMPLETED);
    assertThat(at(done)).isEqualTo(50.0);
    assertThat(done.getEvents()).isEqualTo(range(0, 50));
    assertThat(agent.runningTasks()).isEmpty();
  }

  @Test
  void aShrinkBehindThePositionFinishesTheEventInProgress() {
    send(rangeTask("t1", 0, 100, 1.0));
    clock.advanceSeconds(10.5);
    send(shrink("t1", 5));

    assertThat(only("t1", TaskEventType.SHRUNK).getStopAt()).isEqualTo(11);
    clock.runUntilIdle();
    TaskEvent done = only("t1", TaskEventType.COMPLETED);
    assertThat(at(done)).isEqualTo(11.0);
    assertThat(done.getEvents()).isEqualTo(range(0, 11));
  }

  @Test
  void atAnEventBoundaryTheNextEventHasStartedAndIsFinished() {
    // pos(10.0) = 10: events 0..9 are done and event 10 has just begun; no work is dropped.
    send(rangeTask("t1", 0, 100, 1.0));
    clock.advanceSeconds(10.0);
    send(shrink("t1", 3));
    assertThat(only("t1", TaskEventType.SHRUNK).getStopAt()).isEqualTo(11);
  }

  @Test
  void aShrinkBeyondTheEndChangesNothing() {
    send(rangeTask("t1", 0, 100, 1.0));
    clock.advanceSeconds(10.5);
    send(shrink("t1", 500));
    assertThat(only("t1", TaskEventType.SHRUNK).getStopAt()).isEqualTo(100);
    clock.runUntilIdle();
    TaskEvent done = only("t1", TaskEventType.COMPLETED);
    assertThat(at(done)).isEqualTo(100.0);
    assertThat(done.getEvents()).isEqualTo(range(0, 100));
  }

  @Test
  void aDuplicateShrinkIsIgnoredAndASecondShrinkCutsFurther() {
    send(rangeTask("t1", 0, 100, 1.0));
    clock.advanceSeconds(10.5);
    Decision first = send(shrink("t1", 60));
    agent.onDecision(first);        // redelivered: same decision id
    clock.advanceSeconds(10);       // t = 20.5
    send(shrink("t1", 30));

    assertThat(events("t1", TaskEventType.SHRUNK)).extracting(TaskEvent::getStopAt)
        .containsExactly(60L, 30L);
    assertThat(agent.stats().duplicateDecisions()).isEqualTo(1);
    clock.runUntilIdle();
    assertThat(only("t1", TaskEventType.COMPLETED).getEvents()).isEqualTo(range(0, 30));
  }

  @Test
  void aShrinkWhileTheInputsStageCutsTheRangeBeforeItStarts() {
    // A calibration file of 100 MB from storage at 125 MB/s: staging takes 0.8 s.
    PlaceTask p = PlaceTask.newBuilder(rangeTask("t1", 0, 100, 1.0))
        .setInputs(List.of(storage("calib", 100 * MB))).build();
    send(p);
    clock.advanceSeconds(0.4);
    send(shrink("t1", 20));
    assertThat(only("t1", TaskEventType.SHRUNK).getStopAt()).isEqualTo(20);
    clock.runUntilIdle();
    TaskEvent done = only("t1", TaskEventType.COMPLETED);
    assertThat(at(done)).isEqualTo(20.8);
    assertThat(done.getEvents()).isEqualTo(range(0, 20));
    assertThat(done.getBytesStorage()).isEqualTo(100 * MB);
  }

  // ---- suspend -------------------------------------------------------------------------------

  @Test
  void aSuspendStopsAtOnceAndLosesThePartialEvent() {
    send(rangeTask("t1", 0, 100, 1.0));
    clock.advanceSeconds(10.5);
    Decision d = send(suspend("t1"));

    TaskEvent s = only("t1", TaskEventType.SUSPENDED);
    assertThat(at(s)).isEqualTo(10.5);
    assertThat(s.getStopAt()).isEqualTo(10);
    assertThat(s.getEvents()).isEqualTo(range(0, 10));
    assertThat(s.getDecisionId()).isEqualTo(d.getDecisionId());
    assertThat(agent.runningTasks()).isEmpty();
    clock.runUntilIdle();
    assertThat(out.eventsOf("t1")).extracting(TaskEvent::getType)
        .containsExactly(TaskEventType.STARTED, TaskEventType.SUSPENDED);
    assertThat(agent.stats().tasksSuspended()).isEqualTo(1);
    // The freed slot takes the next subjob at once.
    send(rangeTask("t2", 0, 10, 1.0));
    assertThat(agent.runningTasks()).containsExactly("t2#0");
  }

  @Test
  void theRequeuedRemainderCompletesTheJobWithEveryEventOnce() {
    send(rangeTask("t1", 0, 100, 1.0));
    clock.advanceSeconds(30.7);
    send(suspend("t1"));
    long stop = only("t1", TaskEventType.SUSPENDED).getStopAt();
    // The scheduler re-queues [stop, 100) as the next attempt of the subjob...
    send(rangeTask("t1", 1, stop, 100, 0, segment(stop, 100, FetchSource.LOCAL, 0.26)));
    clock.advanceSeconds(5);
    send(shrink("t1", 1, 80));
    clock.runUntilIdle();
    // ... and the tail of the shrink as a third one.
    long acked = events("t1", TaskEventType.SHRUNK).get(0).getStopAt();
    send(rangeTask("t1", 2, acked, 100, 0, segment(acked, 100, FetchSource.STORAGE, 0.8)));
    clock.runUntilIdle();

    assertThat(stop).isEqualTo(30);
    assertThat(acked).isEqualTo(80);
    assertExactlyOnce(agent.processedRanges(), 0, 100);
    assertThat(agent.stats().eventsProcessed()).isEqualTo(100);
  }

  @Test
  void aSuspendWhileTheInputsStageStopsAtTheStart() {
    PlaceTask p = PlaceTask.newBuilder(rangeTask("t1", 0, 100, 1.0))
        .setInputs(List.of(storage("calib", 100 * MB))).build();
    send(p);
    clock.advanceSeconds(0.4);
    send(suspend("t1"));
    TaskEvent s = only("t1", TaskEventType.SUSPENDED);
    assertThat(s.getStopAt()).isZero();
    assertThat(s.getEvents()).isEqualTo(range(0, 0));
    clock.runUntilIdle();
    assertThat(agent.processedRanges()).isEmpty();
    assertThat(agent.cacheContents()).isEmpty();   // the cancelled fetch left nothing
  }

  @Test
  void aSuspendAfterTheLastEventIsAnsweredShrunkAndTheTaskCompletes() {
    // The suspend is due at t = 100 like the completion, and runs first: every event is done.
    clock.schedule(100_000_000_000L, () -> send(suspend("t1")));
    send(rangeTask("t1", 0, 100, 1.0));
    clock.runUntilIdle();

    TaskEvent ack = only("t1", TaskEventType.SHRUNK);
    assertThat(ack.getStopAt()).isEqualTo(100);
    assertThat(ack.getMessage()).contains("after the run ended");
    assertThat(events("t1", TaskEventType.SUSPENDED)).isEmpty();
    assertThat(only("t1", TaskEventType.COMPLETED).getEvents()).isEqualTo(range(0, 100));
    assertThat(out.eventsOf("t1")).extracting(TaskEvent::getType).containsExactly(
        TaskEventType.STARTED, TaskEventType.SHRUNK, TaskEventType.COMPLETED);
  }

  // ---- answers for tasks not running ---------------------------------------------------------

  @Test
  void aShrinkOrSuspendOfAnEndedTaskIsAnsweredWithTheEndItReported() {
    send(rangeTask("t1", 0, 100, 1.0));
    clock.runUntilIdle();
    send(shrink("t1", 40));
    send(rangeTask("t2", 0, 100, 1.0));
    clock.advanceSeconds(12.5);
    send(suspend("t2"));
    send(suspend("t2"));   // a second suspend (another decision) after it stopped
    send(shrink("t2", 50));

    TaskEvent late = only("t1", TaskEventType.SHRUNK);
    assertThat(late.getStopAt()).isEqualTo(100);
    assertThat(late.getMessage()).isEqualTo("shrink of an attempt that ended");
    assertThat(events("t2", TaskEventType.SHRUNK)).extracting(TaskEvent::getStopAt)
        .containsExactly(12L, 12L);
    assertThat(events("t2", TaskEventType.SUSPENDED)).hasSize(1);
  }

  @Test
  void aShrinkOfAnUnknownTaskOrOfAFileTaskIsRefused() {
    Decision unknown = send(shrink("nope", 10));
    send(task("f1", 100));
    send(suspend("f1"));

    TaskEvent r = only("nope", TaskEventType.REFUSED);
    assertThat(r.getDecisionId()).isEqualTo(unknown.getDecisionId());
    assertThat(r.getMessage()).startsWith(Refusal.UNKNOWN_TASK + ": nope#0");
    assertThat(only("f1", TaskEventType.REFUSED).getMessage())
        .startsWith(Refusal.NOT_AN_EVENT_RANGE);
    // the file task runs on
    assertThat(agent.runningTasks()).containsExactly("f1#0");
    assertThat(agent.refusals()).containsEntry(Refusal.UNKNOWN_TASK, 1L)
        .containsEntry(Refusal.NOT_AN_EVENT_RANGE, 1L);
  }

  @Test
  void aShrinkFromAnOlderEpochIsRefusedAndChangesNothing() {
    agent.onDecision(decision("p", 5, POOL, "n1", rangeTask("t1", 0, 100, 1.0)));
    clock.advanceSeconds(10.5);
    agent.onDecision(decision("s", 4, POOL, "n1", shrink("t1", 20)));
    clock.runUntilIdle();

    TaskEvent r = only("t1", TaskEventType.REFUSED);
    assertThat(r.getDecisionId()).isEqualTo("s");
    assertThat(r.getMessage()).isEqualTo("stale epoch 4 < 5");
    assertThat(events("t1", TaskEventType.SHRUNK)).isEmpty();
    assertThat(only("t1", TaskEventType.COMPLETED).getEvents()).isEqualTo(range(0, 100));
  }

  // ---- other ends ----------------------------------------------------------------------------

  @Test
  void aCancelOrAStopReportsWhatWasProcessed() {
    send(rangeTask("t1", 0, 100, 1.0));
    clock.advanceSeconds(7.5);
    send(cancel("t1"));
    TaskEvent failed = only("t1", TaskEventType.FAILED);
    assertThat(failed.getMessage()).isEqualTo(NodeAgent.CANCELLED);
    assertThat(failed.getEvents()).isEqualTo(range(0, 7));

    send(rangeTask("t2", 200, 300, 1.0));
    clock.advanceSeconds(3.2);
    agent.close();
    TaskEvent stopped = only("t2", TaskEventType.FAILED);
    assertThat(stopped.getMessage()).isEqualTo(NodeAgent.AGENT_STOPPED);
    assertThat(stopped.getEvents()).isEqualTo(range(200, 203));
    assertThat(agent.processedRanges()).extracting(NodeAgent.ProcessedRange::how)
        .containsExactly(TaskEventType.FAILED, TaskEventType.FAILED);
  }

  @Test
  void aBadRangeIsRefusedBeforeItStarts() {
    send(rangeTask("empty", 0, 5, 5, 1.0));
    send(rangeTask("gap", 0, 0, 100, 0, segment(0, 40, FetchSource.LOCAL, 0.26),
        segment(50, 100, FetchSource.STORAGE, 0.8)));
    send(rangeTask("short", 0, 0, 100, 0, segment(0, 40, FetchSource.LOCAL, 0.26)));
    send(rangeTask("nan", 0, 0, 100, 0, segment(0, 100, FetchSource.LOCAL, Double.NaN)));

    assertThat(out.events).extracting(TaskEvent::getType).containsOnly(TaskEventType.REFUSED);
    assertThat(only("empty", TaskEventType.REFUSED).getMessage())
        .isEqualTo("bad input: event range [5, 5) is empty or negative");
    assertThat(only("gap", TaskEventType.REFUSED).getMessage())
        .contains("eventSegments[1] [50, 100) does not continue the range at 40");
    assertThat(only("short", TaskEventType.REFUSED).getMessage())
        .contains("eventSegments end at 40, the range at 100");
    assertThat(only("nan", TaskEventType.REFUSED).getMessage())
        .contains("secondsPerEvent must be finite");
  }

  /** The ranges tile [start, end): sorted, they follow each other without gap or overlap. */
  static void assertExactlyOnce(List<NodeAgent.ProcessedRange> ranges, long start, long end) {
    List<NodeAgent.ProcessedRange> sorted = new ArrayList<>(ranges);
    sorted.sort(Comparator.comparingLong(NodeAgent.ProcessedRange::start));
    long at = start;
    for (NodeAgent.ProcessedRange r : sorted) {
      assertThat(r.start()).as("ranges %s", sorted).isEqualTo(at);
      at = r.end();
    }
    assertThat(at).as("ranges %s", sorted).isEqualTo(end);
  }
}
