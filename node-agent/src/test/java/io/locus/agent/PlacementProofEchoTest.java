package io.locus.agent;

import static io.locus.agent.TestDecisions.MB;
import static io.locus.agent.TestDecisions.decision;
import static io.locus.agent.TestDecisions.preempt;
import static io.locus.agent.TestDecisions.rangeTask;
import static io.locus.agent.TestDecisions.shrink;
import static io.locus.agent.TestDecisions.storage;
import static io.locus.agent.TestDecisions.suspend;
import static io.locus.agent.TestDecisions.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.locus.agent.sim.LocalPeerDirectory;
import io.locus.agent.sim.SimulatedAgents;
import io.locus.schemas.CancelTask;
import io.locus.schemas.Decision;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.auth.NodeKeys;
import io.locus.schemas.auth.PlacementProof;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 22, finding 2, the agent's side: every task event about an attempt echoes the proof of
 * that attempt's placement (PlaceTask.proof), whichever decision it answers, so that a scheduler
 * with a node secret accepts it; the node signature covers it.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class PlacementProofEchoTest {
  private static final String POOL = "p1";
  private static final byte[] CLUSTER = "cluster".getBytes(StandardCharsets.UTF_8);
  private static final PlacementProof PROOFS = new PlacementProof(CLUSTER);

  private final ManualScheduler clock = new ManualScheduler();
  private final RecordingOutput out = new RecordingOutput();
  private int ids;

  private NodeAgent agent(int slots, int depth) {
    AgentConfig cfg = AgentConfig.builder(POOL, "n1").heartbeatMs(3_600_000).slots(slots)
        .queueDepth(depth).cacheCapacityBytes(500 * MB).build();
    NodeAgent a = SimulatedAgents.create(cfg, clock, out, new LocalPeerDirectory(),
        new AgentIdentity("i1", EpochStore.inMemory(), new NodeKeys(CLUSTER).signer("n1")));
    a.start();
    return a;
  }

  private static String proof(String task) {
    return PROOFS.proof(POOL + "/" + task + "/0", "n1", task, 0);
  }

  /** The placement of {@code p} with its proof, as a scheduler with a node secret sends it. */
  private Decision place(NodeAgent a, PlaceTask p) {
    p.setProof(proof(p.getTaskId()));
    Decision d = decision(POOL + "/" + p.getTaskId() + "/0", 1, POOL, "n1", p);
    a.onDecision(d);
    return d;
  }

  private Decision send(NodeAgent a, String kind, Object action) {
    Decision d = decision(POOL + "/" + kind + "/" + (ids++), 1, POOL, "n1", action);
    a.onDecision(d);
    return d;
  }

  private void assertEveryEventOfEchoesItsProof(String task, TaskEventType... types) {
    assertThat(out.eventsOf(task)).extracting(TaskEvent::getType).containsExactly(types);
    assertThat(out.eventsOf(task)).allSatisfy(e -> {
      assertThat(e.getPlacementProof()).as("%s of %s", e.getType(), task)
          .isEqualTo(proof(task));
      assertThat(new NodeKeys(CLUSTER).signer("n1").verify(e)).isTrue();
    });
  }

  @Test
  void aRunsStartedAndCompletedAndARefusedPlacementEchoTheProof() {
    NodeAgent a = agent(1, 0);
    place(a, task("t1", 10, storage("f", MB)));
    place(a, task("t2", 10)); // no free slot, no local queue: refused
    clock.advanceSeconds(100);
    assertEveryEventOfEchoesItsProof("t1", TaskEventType.STARTED, TaskEventType.COMPLETED);
    assertEveryEventOfEchoesItsProof("t2", TaskEventType.REFUSED);
    // a duplicate placement is answered with the latest event, proof included
    place(a, task("t1", 10, storage("f", MB)));
    assertThat(out.events.get(out.events.size() - 1).getPlacementProof()).isEqualTo(proof("t1"));
  }

  @Test
  void attemptsLeavingTheLocalQueueEchoTheProof() {
    NodeAgent a = agent(1, 2);
    place(a, task("t1", 10));
    place(a, task("t2", 10));
    place(a, task("t3", 10));
    send(a, "cancel", CancelTask.newBuilder().setTaskId("t2").setAttempt(0).setReason("steal")
        .setOnlyIfQueued(true).build());
    send(a, "cancel", CancelTask.newBuilder().setTaskId("t3").setAttempt(0).setReason("drop")
        .build());
    assertEveryEventOfEchoesItsProof("t2", TaskEventType.WITHDRAWN);
    assertEveryEventOfEchoesItsProof("t3", TaskEventType.FAILED);
    // a withdraw of the running attempt is refused: it answers the cancel, with the proof known
    send(a, "cancel", CancelTask.newBuilder().setTaskId("t1").setAttempt(0).setReason("steal")
        .setOnlyIfQueued(true).build());
    TaskEvent refused = out.eventsOf("t1").get(out.eventsOf("t1").size() - 1);
    assertThat(refused.getType()).isEqualTo(TaskEventType.REFUSED);
    assertThat(refused.getDecisionId()).startsWith(POOL + "/cancel/");
    assertThat(refused.getPlacementProof()).isEqualTo(proof("t1"));
  }

  /**
   * Preemption (issue 24), simulated executor: a running attempt and a queued one both answer
   * PREEMPTED with the placement's decision id and proof, signed; the slot is free for the
   * queue's next attempt; a preemption of an attempt the node does not hold, a second one of the
   * same attempt and one with an absurd grace are not acted on and not answered.
   */
  @Test
  void aPreemptionStopsTheRunAndTheQueuedAttemptAndAnswersPreemptedWithTheProof() {
    NodeAgent a = agent(1, 2);
    place(a, task("t1", 100));
    place(a, task("t2", 100));
    place(a, task("t3", 100));
    send(a, "cancel", preempt("t1", -1)); // bad input: refused, nothing stops
    assertThat(a.runningTasks()).containsExactly("t1#0");
    send(a, "cancel", preempt("t9", 1_000)); // not held here: no answer
    send(a, "cancel", preempt("t1", 1_000));
    send(a, "cancel", preempt("t1", 1_000)); // a second preemption of it: nothing more
    send(a, "cancel", preempt("t3", 1_000)); // still queued: leaves the queue
    assertEveryEventOfEchoesItsProof("t1", TaskEventType.STARTED, TaskEventType.PREEMPTED);
    assertEveryEventOfEchoesItsProof("t3", TaskEventType.PREEMPTED);
    assertThat(out.eventsOf("t9")).isEmpty();
    TaskEvent p = out.eventsOf("t1").get(1);
    assertThat(p.getDecisionId()).isEqualTo(POOL + "/t1/0");
    assertThat(p.getMessage()).isEqualTo("stopped: queue b below its guarantee");
    assertThat(a.runningTasks()).containsExactly("t2#0"); // the freed slot took the queue's next
    assertThat(a.queuedTasks()).isEmpty();
    assertThat(a.stats().tasksPreempted()).isEqualTo(2);
    assertThat(a.stats().tasksFailed()).isZero();
    assertThat(a.refusals()).containsEntry(io.locus.agent.Refusal.BAD_INPUT, 1L);
  }

  @Test
  void shrinkAndSuspendAnswersEchoThePlacementsProofNotTheStopDecisions() {
    NodeAgent a = agent(2, 0);
    place(a, rangeTask("r1", 0, 100, 1.0));
    place(a, rangeTask("r2", 0, 100, 1.0));
    clock.advanceSeconds(10.5);
    send(a, "shrink", shrink("r1", 50));
    send(a, "suspend", suspend("r2"));
    clock.runUntilIdle();
    // a shrink of an attempt that ended here: answered from what the agent kept
    send(a, "shrink", shrink("r1", 20));
    assertEveryEventOfEchoesItsProof("r1", TaskEventType.STARTED, TaskEventType.SHRUNK,
        TaskEventType.COMPLETED, TaskEventType.SHRUNK);
    assertEveryEventOfEchoesItsProof("r2", TaskEventType.STARTED, TaskEventType.SUSPENDED);
    assertThat(out.eventsOf("r2").get(1).getDecisionId()).startsWith(POOL + "/suspend/");
  }

  @Test
  void withoutAProofFromTheSchedulerEventsCarryNone() {
    NodeAgent a = agent(1, 0);
    a.onDecision(decision(POOL + "/t1/0", 1, POOL, "n1", task("t1", 10)));
    clock.advanceSeconds(100);
    assertThat(out.eventsOf("t1")).isNotEmpty()
        .allSatisfy(e -> assertThat(e.getPlacementProof()).isNull());
  }
}
