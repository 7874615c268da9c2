package io.locus.agent;

import static io.locus.agent.TestDecisions.MB;
import static io.locus.agent.TestDecisions.decision;
import static io.locus.agent.TestDecisions.storage;
import static io.locus.agent.TestDecisions.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.locus.agent.sim.LocalPeerDirectory;
import io.locus.agent.sim.Preload;
import io.locus.agent.sim.SimulatedAgents;
import io.locus.schemas.CachedFile;
import io.locus.schemas.CancelTask;
import io.locus.schemas.Decision;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.ResyncNode;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Late binding on a simulated agent: the local queue, its withdraw, and the bench's preload. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LocalQueueTest {
  private static final String POOL = "p1";

  private final ManualScheduler clock = new ManualScheduler();
  private final RecordingOutput out = new RecordingOutput();
  private int ids;

  /** One agent "n1" with {@code slots} slots and a local queue of {@code depth}, started. */
  private NodeAgent agent(int slots, int depth) {
    AgentConfig cfg = AgentConfig.builder(POOL, "n1").slots(slots).queueDepth(depth)
        .heartbeatMs(1000).build();
    NodeAgent a = SimulatedAgents.create(cfg, clock, out, new LocalPeerDirectory());
    a.start();
    return a;
  }

  private Decision place(NodeAgent a, String taskId, double seconds) {
    Decision d = decision("d" + (ids++), 1, POOL, "n1", task(taskId, seconds));
    a.onDecision(d);
    return d;
  }

  private Decision cancel(NodeAgent a, String taskId, boolean onlyIfQueued) {
    Decision d = decision("pool/cancel/" + (ids++), 1, POOL, "n1", CancelTask.newBuilder()
        .setTaskId(taskId).setAttempt(0).setReason("better holder").setOnlyIfQueued(onlyIfQueued)
        .build());
    a.onDecision(d);
    return d;
  }

  private List<String> log() {
    return out.events.stream().map(e -> e.getType() + " " + e.getTaskId()).toList();
  }

  private TaskEvent last(String taskId) {
    List<TaskEvent> of = out.eventsOf(taskId);
    return of.get(of.size() - 1);
  }

  @Test
  void queueDepthIsAdvertisedInRegisterAndHeartbeat() {
    agent(2, 3);
    clock.advanceSeconds(1.5);
    assertThat(out.reports).extracting(NodeReport::getType)
        .containsExactly(NodeReportType.REGISTER, NodeReportType.HEARTBEAT);
    assertThat(out.reports).allSatisfy(r -> assertThat(r.getQueueDepth()).isEqualTo(3));
  }

  @Test
  void withoutAQueueAPlacementBeyondTheSlotsIsRefusedAsBefore() {
    NodeAgent a = agent(1, 0);
    place(a, "t1", 1);
    place(a, "t2", 1);
    assertThat(log()).containsExactly("STARTED t1", "REFUSED t2");
    assertThat(last("t2").getMessage()).isEqualTo(NodeAgent.NO_FREE_SLOT);
    assertThat(a.stats().queued()).isZero();
  }

  @Test
  void placementsBeyondTheSlotsWaitFirstInFirstOutAndStartWhenASlotFrees() {
    NodeAgent a = agent(1, 2);
    place(a, "t1", 1);
    place(a, "t2", 2);
    place(a, "t3", 1);
    place(a, "t4", 1);
    // Only t1 starts; t2 and t3 wait (no event); t4 finds slots + queue full.
    assertThat(log()).containsExactly("STARTED t1", "REFUSED t4");
    assertThat(last("t4").getMessage()).isEqualTo(NodeAgent.NO_FREE_SLOT);
    assertThat(a.queuedTasks()).containsExactly("t2#0", "t3#0");
    assertThat(a.runningTasks()).containsExactly("t1#0");
    assertThat(a.stats().queued()).isEqualTo(2);
    assertThat(a.stats().running()).isEqualTo(1);

    clock.advanceSeconds(1);
    assertThat(log()).containsExactly("STARTED t1", "REFUSED t4", "COMPLETED t1", "STARTED t2");
    // STARTED says when it really started: when t1's slot freed, not when it was placed.
    assertThat(last("t2").getStartTimeMs()).isEqualTo(ManualScheduler.EPOCH_MS + 1000);
    assertThat(a.queuedTasks()).containsExactly("t3#0");

    clock.runUntilIdle();
    assertThat(log()).containsExactly("STARTED t1", "REFUSED t4", "COMPLETED t1", "STARTED t2",
        "COMPLETED t2", "STARTED t3", "COMPLETED t3");
    assertThat(a.stats().queued()).isZero();
    assertThat(a.stats().tasksCompleted()).isEqualTo(3);
  }

  @Test
  void aQueuedAttemptStartsWhateverEndedTheRunBeforeIt() {
    NodeAgent a = agent(1, 1);
    place(a, "t1", 100);
    place(a, "t2", 1);
    cancel(a, "t1", false);
    assertThat(log()).containsExactly("STARTED t1", "FAILED t1", "STARTED t2");
    assertThat(a.runningTasks()).containsExactly("t2#0");
  }

  @Test
  void aCancelOfAQueuedAttemptEndsItAsTheCancelOfARunningOne() {
    NodeAgent a = agent(1, 2);
    Decision p1 = place(a, "t1", 1);
    Decision p2 = place(a, "t2", 1);
    place(a, "t3", 1);
    cancel(a, "t2", false);

    TaskEvent failed = last("t2");
    assertThat(failed.getType()).isEqualTo(TaskEventType.FAILED);
    assertThat(failed.getMessage()).isEqualTo(NodeAgent.CANCELLED);
    assertThat(failed.getExitCode()).isEqualTo(NodeAgent.ABORTED_EXIT_CODE);
    assertThat(failed.getDecisionId()).isEqualTo(p2.getDecisionId());
    assertThat(out.eventsOf("t2")).hasSize(1);
    assertThat(a.queuedTasks()).containsExactly("t3#0");

    cancel(a, "t1", false);
    assertThat(last("t1").getDecisionId()).isEqualTo(p1.getDecisionId());
    assertThat(last("t1").getType()).isEqualTo(TaskEventType.FAILED);
    clock.runUntilIdle();
    assertThat(log()).containsExactly("STARTED t1", "FAILED t2", "FAILED t1", "STARTED t3",
        "COMPLETED t3");
  }

  @Test
  void aWithdrawRemovesAQueuedAttemptWithWithdrawnAndTheDuplicateIsAnsweredWithIt() {
    NodeAgent a = agent(1, 2);
    place(a, "t1", 1);
    Decision p2 = place(a, "t2", 1);
    place(a, "t3", 1);
    cancel(a, "t2", true);

    TaskEvent w = last("t2");
    assertThat(w.getType()).isEqualTo(TaskEventType.WITHDRAWN);
    assertThat(w.getDecisionId()).isEqualTo(p2.getDecisionId());
    assertThat(w.getMessage()).isEqualTo("better holder");
    assertThat(w.getAttempt()).isZero();
    assertThat(w.getJobId()).isEqualTo("job-t2");
    assertThat(a.queuedTasks()).containsExactly("t3#0");
    assertThat(a.stats().tasksWithdrawn()).isEqualTo(1);
    assertThat(a.stats().tasksFailed()).isZero();

    // The placement replayed: answered with WITHDRAWN, not run.
    a.onDecision(p2);
    assertThat(out.eventsOf("t2")).extracting(TaskEvent::getType)
        .containsExactly(TaskEventType.WITHDRAWN, TaskEventType.WITHDRAWN);
    clock.runUntilIdle();
    assertThat(log()).doesNotContain("STARTED t2").contains("COMPLETED t3");
  }

  @Test
  void aWithdrawOfARunningFinishedOrUnknownAttemptIsRefusedAndStopsNothing() {
    NodeAgent a = agent(1, 1);
    place(a, "t1", 1);
    Decision w1 = cancel(a, "t1", true);

    TaskEvent refused = last("t1");
    assertThat(refused.getType()).isEqualTo(TaskEventType.REFUSED);
    assertThat(refused.getDecisionId()).isEqualTo(w1.getDecisionId());
    assertThat(refused.getMessage()).isEqualTo("started");
    assertThat(refused.getJobId()).isEqualTo("job-t1");
    assertThat(a.runningTasks()).containsExactly("t1#0");

    clock.runUntilIdle();
    assertThat(last("t1").getType()).isEqualTo(TaskEventType.COMPLETED);

    Decision w2 = cancel(a, "t1", true);
    assertThat(last("t1").getDecisionId()).isEqualTo(w2.getDecisionId());
    assertThat(last("t1").getMessage()).isEqualTo("not on this node");
    // a REFUSED with a blank job id is an invalid record the scheduler dead-letters (seen on
    // the dashboard of every demo): the finished attempt's job is remembered
    assertThat(last("t1").getJobId()).isEqualTo("job-t1");
    Decision w3 = cancel(a, "nowhere", true);
    assertThat(last("nowhere").getJobId()).isEqualTo("nowhere");
    assertThat(last("nowhere").getType()).isEqualTo(TaskEventType.REFUSED);
    assertThat(last("nowhere").getDecisionId()).isEqualTo(w3.getDecisionId());
    assertThat(last("nowhere").getMessage()).isEqualTo("not on this node");
    assertThat(a.refusals()).containsEntry("started", 1L).containsEntry("not on this node", 2L);
  }

  @Test
  void aDuplicatePlacementOfAQueuedAttemptIsIgnoredAndAnotherPlacementOfItRefused() {
    NodeAgent a = agent(1, 2);
    place(a, "t1", 1);
    Decision p2 = place(a, "t2", 1);
    a.onDecision(p2);
    assertThat(log()).containsExactly("STARTED t1");
    assertThat(a.queuedTasks()).containsExactly("t2#0");

    a.onDecision(decision("other", 1, POOL, "n1", task("t2", 1)));
    assertThat(log()).containsExactly("STARTED t1", "REFUSED t2");
    assertThat(last("t2").getDecisionId()).isEqualTo("other");
    assertThat(last("t2").getMessage()).startsWith(NodeAgent.ALREADY_RUNNING);
    assertThat(a.queuedTasks()).containsExactly("t2#0");

    clock.runUntilIdle();
    assertThat(out.eventsOf("t2")).extracting(TaskEvent::getType).containsExactly(
        TaskEventType.REFUSED, TaskEventType.STARTED, TaskEventType.COMPLETED);
    assertThat(a.stats().tasksStarted()).isEqualTo(2);
  }

  @Test
  void aDrainStillRunsTheQueuedAttemptsThenLeaves() {
    NodeAgent a = agent(1, 2);
    place(a, "t1", 1);
    place(a, "t2", 1);
    var left = a.drain();
    place(a, "t3", 1);
    assertThat(last("t3").getMessage()).isEqualTo(NodeAgent.DRAINING);

    clock.advanceSeconds(1);
    assertThat(left).isNotDone();
    assertThat(a.runningTasks()).containsExactly("t2#0");
    clock.runUntilIdle();
    assertThat(left).isDone();
    assertThat(log()).containsExactly("STARTED t1", "REFUSED t3", "COMPLETED t1", "STARTED t2",
        "COMPLETED t2");
    assertThat(out.reports.get(out.reports.size() - 1).getType()).isEqualTo(NodeReportType.LEAVE);
  }

  @Test
  void aResyncDropsTheQueueWithoutEvents() {
    NodeAgent a = agent(1, 2);
    place(a, "t1", 1);
    place(a, "t2", 1);
    a.onDecision(decision("r", 2, POOL, "n1", new ResyncNode("scheduler restarted")));
    assertThat(a.queuedTasks()).isEmpty();
    assertThat(a.runningTasks()).isEmpty();
    clock.runUntilIdle();
    assertThat(log()).containsExactly("STARTED t1");
    assertThat(out.reports(NodeReportType.REGISTER)).hasSize(2);
  }

  @Test
  void closingFailsQueuedAttemptsAsRunningOnesAndStartsNoneOfThem() {
    NodeAgent a = agent(1, 2);
    place(a, "t1", 1);
    place(a, "t2", 1);
    place(a, "t3", 1);
    a.close();
    assertThat(log()).containsExactlyInAnyOrder("STARTED t1", "FAILED t1", "FAILED t2",
        "FAILED t3");
    assertThat(out.events(TaskEventType.FAILED))
        .allSatisfy(e -> assertThat(e.getMessage()).isEqualTo(NodeAgent.AGENT_STOPPED));
    assertThat(out.events(TaskEventType.STARTED)).hasSize(1);
  }

  @Test
  void aQueuedAttemptStagesItsInputsOnlyWhenItStarts() {
    NodeAgent a = agent(1, 1);
    place(a, "t1", 1);
    a.onDecision(decision("d-in", 1, POOL, "n1", task("t2", 1, storage("f", 10 * MB))));
    assertThat(a.cacheContents()).isEmpty();
    assertThat(out.reports(NodeReportType.CACHE_DELTA)).isEmpty();
    clock.runUntilIdle();
    assertThat(a.cacheContents()).containsKey("f");
    assertThat(last("t2").getType()).isEqualTo(TaskEventType.COMPLETED);
    assertThat(last("t2").getBytesStorage()).isEqualTo(10 * MB);
  }

  @Test
  void everySimulatedNodeStartsWithThePreloadedFilesInItsFirstRegister() {
    AgentConfig template = AgentConfig.builder(POOL).cacheCapacityBytes(1000).build();
    SimulatedAgents sims = new SimulatedAgents(template, new LocalPeerDirectory(),
        n -> AgentIdentity.random(), new Preload(3, 200, "bench-file-"));
    for (String node : List.of("a", "b")) {
      sims.create(node, clock, out).start();
    }
    List<NodeReport> reg = out.reports(NodeReportType.REGISTER);
    assertThat(reg).hasSize(2);
    assertThat(reg).allSatisfy(r -> assertThat(r.getAdded()).containsExactly(
        new CachedFile("bench-file-0", 200L), new CachedFile("bench-file-1", 200L),
        new CachedFile("bench-file-2", 200L)));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new SimulatedAgents(template,
        new LocalPeerDirectory(), n -> AgentIdentity.random(), new Preload(3, 400, "x")))
        .hasMessage("preload of 3 files of 400 bytes does not fit the cache of 1000 bytes");
  }
}
