package io.locus.agent;

import static io.locus.agent.TestDecisions.decision;
import static io.locus.agent.TestDecisions.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.locus.agent.sim.LocalPeerDirectory;
import io.locus.agent.sim.SimulatedAgents;
import io.locus.schemas.CancelTask;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Holding task events back to batch them: when they leave, in what order, and what never waits. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BatchingOutputTest {
  private static final String POOL = "p1";
  private static final long DELAY = 20_000_000L;

  private final ManualScheduler clock = new ManualScheduler();
  private final RecordingOutput out = new RecordingOutput();

  private static TaskEvent event(String taskId, TaskEventType type) {
    return TaskEvent.newBuilder().setPool(POOL).setTaskId(taskId).setJobId("j").setAttempt(0)
        .setNode("n1").setType(type).setDecisionId("d-" + taskId).setEpoch(1).setTimeMs(0)
        .build();
  }

  private List<String> sent() {
    return out.all.stream().map(r -> r instanceof TaskEvent e ? e.getType() + " " + e.getTaskId()
        : ((NodeReport) r).getType().toString()).toList();
  }

  @Test
  void heldEventsLeaveInOrderAtTheDeadline() {
    BatchingOutput b = new BatchingOutput(out, clock, 100, DELAY);
    b.taskEvent(event("t1", TaskEventType.STARTED));
    clock.advanceSeconds(0.010);
    b.taskEvent(event("t1", TaskEventType.COMPLETED));
    b.taskEvent(event("t2", TaskEventType.STARTED));
    assertThat(out.all).isEmpty();
    assertThat(b.held()).isEqualTo(3);
    // The deadline counts from the first held event, not the last.
    clock.advanceSeconds(0.009);
    assertThat(out.all).isEmpty();
    clock.advanceSeconds(0.001);
    assertThat(sent()).containsExactly("STARTED t1", "COMPLETED t1", "STARTED t2");
    assertThat(b.held()).isZero();
    assertThat(b.sent()).containsExactly(1L, 3L);
  }

  @Test
  void aFullBatchLeavesAtOnceAndTheNextOneGetsItsOwnDeadline() {
    BatchingOutput b = new BatchingOutput(out, clock, 3, DELAY);
    for (int i = 0; i < 4; i++) {
      b.taskEvent(event("t" + i, TaskEventType.STARTED));
    }
    assertThat(sent()).containsExactly("STARTED t0", "STARTED t1", "STARTED t2");
    clock.advanceSeconds(0.019);
    assertThat(out.all).hasSize(3);
    clock.advanceSeconds(0.001);
    assertThat(sent()).endsWith("STARTED t3").hasSize(4);
  }

  @Test
  void aNodeReportLeavesAfterTheEventsHeldBeforeIt() {
    BatchingOutput b = new BatchingOutput(out, clock, 100, DELAY);
    b.taskEvent(event("t1", TaskEventType.COMPLETED));
    b.nodeReport(NodeReport.newBuilder().setPool(POOL).setNode("n1")
        .setType(NodeReportType.LEAVE).setTimeMs(0).build());
    assertThat(sent()).containsExactly("COMPLETED t1", "LEAVE");
  }

  @Test
  void flushSendsNowAndCancelsTheDeadline() {
    BatchingOutput b = new BatchingOutput(out, clock, 100, DELAY);
    b.taskEvent(event("t1", TaskEventType.STARTED));
    b.flush();
    assertThat(sent()).containsExactly("STARTED t1");
    b.taskEvent(event("t2", TaskEventType.STARTED));
    // The first event's deadline was cancelled: t2 waits its own full delay.
    clock.advanceSeconds(0.019);
    assertThat(out.all).hasSize(1);
    clock.advanceSeconds(0.001);
    assertThat(out.all).hasSize(2);
  }

  /** One agent with 1 slot and a local queue of 4 on {@code output}, started. */
  private NodeAgent agent(AgentOutput output) {
    AgentConfig cfg = AgentConfig.builder(POOL, "n1").slots(1).queueDepth(4)
        .heartbeatMs(60_000).build();
    NodeAgent a = SimulatedAgents.create(cfg, clock, output, new LocalPeerDirectory());
    a.start();
    return a;
  }

  /** Places t0..t{n-1}, 1 s each, and runs them all; returns what reached {@code rec}. */
  private List<String> runFive(AgentOutput output, RecordingOutput rec) {
    NodeAgent a = agent(output);
    for (int i = 0; i < 5; i++) {
      a.onDecision(decision("d" + i, 1, POOL, "n1", task("t" + i, 1)));
    }
    clock.advanceSeconds(10);
    return rec.events.stream().map(e -> e.getType() + " " + e.getTaskId()).toList();
  }

  @Test
  void aBusyAgentSendsTheSameEventsInTheSameOrderAsWithoutHolding() {
    RecordingOutput plain = new RecordingOutput();
    List<String> unbatched = runFive(plain, plain);
    List<String> batched = runFive(new BatchingOutput(out, clock, 100, DELAY), out);
    assertThat(unbatched).hasSize(10);
    assertThat(batched).isEqualTo(unbatched);
  }

  @Test
  void aStartedWaitsForItsCompletedWhichWaitsOnlyWhileTheLocalQueueIsBusy() {
    BatchingOutput b = new BatchingOutput(out, clock, 100, DELAY);
    NodeAgent a = agent(b);
    a.onDecision(decision("d0", 1, POOL, "n1", task("t0", 0.010)));
    assertThat(b.held()).isEqualTo(1);
    // Idle (nothing queued): t0's COMPLETED leaves at once, its STARTED with it.
    clock.advanceSeconds(0.010);
    assertThat(b.held()).isZero();
    assertThat(sent()).containsSubsequence("STARTED t0", "COMPLETED t0");
    a.onDecision(decision("d1", 1, POOL, "n1", task("t1", 1)));
    clock.advanceSeconds(0.020);
    assertThat(out.events(TaskEventType.STARTED)).hasSize(2); // a lone STARTED: the deadline
    for (int i = 2; i <= 5; i++) {
      a.onDecision(decision("d" + i, 1, POOL, "n1", task("t" + i, 1)));
    }
    // t1 ends with four queued: its COMPLETED and t2's STARTED are held...
    clock.advanceSeconds(0.980);
    assertThat(b.held()).isEqualTo(2);
    assertThat(out.events(TaskEventType.COMPLETED)).hasSize(1);
    // ...for at most the delay.
    clock.advanceSeconds(0.020);
    assertThat(b.held()).isZero();
    assertThat(out.events(TaskEventType.COMPLETED)).extracting(TaskEvent::getTaskId)
        .containsExactly("t0", "t1");
    // A cancel's FAILED never waits, and takes what is held with it, in order.
    clock.advanceSeconds(0.980); // t2 ends, t3 starts: held again (queue t4, t5)
    assertThat(b.held()).isEqualTo(2);
    a.onDecision(decision("c", 1, POOL, "n1", CancelTask.newBuilder().setTaskId("t3")
        .setAttempt(0).setReason("user").setOnlyIfQueued(false).build()));
    List<TaskEvent> tail = out.events.subList(out.events.size() - 3, out.events.size());
    assertThat(tail).extracting(e -> e.getType() + " " + e.getTaskId())
        .containsExactly("COMPLETED t2", "STARTED t3", "FAILED t3");
    // (t4 then starts, its STARTED held as always.)
    assertThat(b.held()).isEqualTo(1);
  }
}
