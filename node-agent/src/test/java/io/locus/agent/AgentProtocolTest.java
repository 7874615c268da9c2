package io.locus.agent;

import static io.locus.agent.TestDecisions.MB;
import static io.locus.agent.TestDecisions.decision;
import static io.locus.agent.TestDecisions.evict;
import static io.locus.agent.TestDecisions.storage;
import static io.locus.agent.TestDecisions.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.locus.agent.sim.LocalPeerDirectory;
import io.locus.agent.sim.SimulatedAgents;
import io.locus.schemas.CachedFile;
import io.locus.schemas.Decision;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.ResyncNode;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.auth.NodeKeys;
import io.locus.schemas.auth.RecordSigner;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The agent's side of PROTOCOL-12: epochs, instance ids, resync, duplicate answers, signing. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AgentProtocolTest {
  private static final String POOL = "p1";

  private final ManualScheduler clock = new ManualScheduler();
  private final RecordingOutput out = new RecordingOutput();
  private int ids;

  private NodeAgent agent(AgentIdentity identity) {
    AgentConfig cfg = AgentConfig.builder(POOL, "n1").heartbeatMs(3_600_000).slots(2)
        .cacheCapacityBytes(500 * MB).build();
    NodeAgent a = SimulatedAgents.create(cfg, clock, out, new LocalPeerDirectory(), identity);
    a.start();
    return a;
  }

  private Decision d(long epoch, Object action) {
    return decision("d" + (ids++), epoch, POOL, "n1", action);
  }

  private static Decision to(Decision d, String instance) {
    return Decision.newBuilder(d).setInstanceId(instance).build();
  }

  private static Decision resync(String id, long epoch) {
    return decision(id, epoch, POOL, "n1", new ResyncNode("scheduler restarted"));
  }

  // ---- epochs ---------------------------------------------------------------------------------

  @Test
  void anAbsurdEpochIsRefusedAndDoesNotLockOutTheRealScheduler() {
    NodeAgent a = agent(AgentIdentity.random());
    a.onDecision(d(3, task("t0", 1)));
    a.onDecision(d(Long.MAX_VALUE, task("forged", 1)));
    a.onDecision(d(3 + NodeAgent.MAX_EPOCH_JUMP + 1, task("forged2", 1)));
    assertThat(a.maxEpoch()).isEqualTo(3);
    a.onDecision(d(4, task("t1", 1)));
    assertThat(a.maxEpoch()).isEqualTo(4);
    assertThat(out.events(TaskEventType.REFUSED)).extracting(TaskEvent::getTaskId)
        .containsExactly("forged", "forged2");
    assertThat(out.events(TaskEventType.REFUSED).get(0).getMessage()).startsWith("absurd epoch");
    assertThat(out.events(TaskEventType.STARTED)).extracting(TaskEvent::getTaskId)
        .containsExactly("t0", "t1");
    assertThat(a.stats().absurdEpochs()).isEqualTo(2);
  }

  @Test
  void aFirstDecisionWithAnAbsurdEpochIsRefusedToo() {
    NodeAgent a = agent(AgentIdentity.random());
    a.onDecision(d(Long.MAX_VALUE, task("forged", 1)));
    a.onDecision(d(1, task("t0", 1)));
    assertThat(out.events(TaskEventType.STARTED)).extracting(TaskEvent::getTaskId)
        .containsExactly("t0");
  }

  @Test
  void theHighestEpochOutlivesARestartAndAResyncResetsIt() {
    EpochStore store = EpochStore.inMemory();
    AgentIdentity id = new AgentIdentity("i1", store, null);
    NodeAgent first = agent(id);
    first.onDecision(d(7, task("t0", 1)));
    first.close();

    NodeAgent second = agent(id);
    assertThat(second.maxEpoch()).isEqualTo(7);
    second.onDecision(d(6, task("stale", 1)));
    assertThat(out.eventsOf("stale")).extracting(TaskEvent::getType)
        .containsExactly(TaskEventType.REFUSED);

    // A scheduler that lost its state starts again at a low epoch and asks for a resync.
    second.onDecision(resync("r1", 1));
    assertThat(second.maxEpoch()).isEqualTo(1);
    assertThat(store.load(POOL)).isEqualTo(1);
    second.onDecision(d(1, task("after", 1)));
    assertThat(out.eventsOf("after")).extracting(TaskEvent::getType)
        .containsExactly(TaskEventType.STARTED);
  }

  // ---- instance ids ---------------------------------------------------------------------------

  @Test
  void decisionsForAnotherInstanceAreNeverActedOnAndReportedWhenTheyPersist() {
    NodeAgent a = agent(AgentIdentity.random().withInstanceId("me"));
    a.onDecision(to(d(1, task("mine", 1)), "me"));
    a.onDecision(to(d(1, task("other1", 1)), "copy"));
    a.onDecision(to(d(1, evict("f")), "copy"));
    assertThat(a.problem()).isNull();
    a.onDecision(to(d(1, task("other2", 1)), "copy"));
    assertThat(a.problem()).isEqualTo(NodeAgent.IDENTITY_CONFLICT);
    assertThat(out.eventsOf("other1")).isEmpty();
    assertThat(out.eventsOf("other2")).isEmpty();
    assertThat(a.stats().foreignDecisions()).isEqualTo(3);
    assertThat(a.refusals()).containsEntry(Refusal.OTHER_INSTANCE, 3L);
    // A decision without an instance id is for any instance.
    a.onDecision(d(1, task("any", 1)));
    assertThat(out.eventsOf("any")).extracting(TaskEvent::getType)
        .containsExactly(TaskEventType.STARTED);
    a.onDecision(to(d(1, task("mine2", 1)), "me"));
    assertThat(a.problem()).isNull();
    // Every record carries the instance id.
    assertThat(out.events).allSatisfy(e -> assertThat(e.getInstanceId()).isEqualTo("me"));
    assertThat(out.reports).allSatisfy(r -> assertThat(r.getInstanceId()).isEqualTo("me"));
  }

  @Test
  void eachAgentStartHasItsOwnRandomInstanceId() {
    NodeAgent a = agent(AgentIdentity.random());
    NodeAgent b = agent(AgentIdentity.random());
    assertThat(a.instanceId()).isNotEqualTo(b.instanceId());
  }

  // ---- signatures -----------------------------------------------------------------------------

  @Test
  void withANodeKeyEveryEventAndReportIsSignedWithIt() {
    NodeKeys keys = new NodeKeys("cluster".getBytes(StandardCharsets.UTF_8));
    NodeAgent a = agent(new AgentIdentity("i1", EpochStore.inMemory(), keys.signer("n1")));
    a.onDecision(d(1, task("t0", 1, storage("f", MB))));
    clock.advanceSeconds(100);
    a.close();
    assertThat(out.events).extracting(TaskEvent::getType)
        .contains(TaskEventType.STARTED, TaskEventType.COMPLETED);
    RecordSigner mine = keys.signer("n1");
    RecordSigner other = keys.signer("n2");
    assertThat(out.events).allSatisfy(e -> {
      assertThat(mine.verify(e)).isTrue();
      assertThat(other.verify(e)).isFalse();
    });
    assertThat(out.reports).isNotEmpty().allSatisfy(r -> assertThat(mine.verify(r)).isTrue());
  }

  // ---- resync ---------------------------------------------------------------------------------

  @Test
  void resyncDropsTheRunsWithoutEventsAndRegistersWithTheWholeCache() {
    NodeAgent a = agent(AgentIdentity.random());
    a.onDecision(d(1, task("t0", 1, storage("f0", MB))));
    clock.advanceSeconds(100);
    a.onDecision(d(1, task("running", 1000, storage("f1", MB))));
    a.onDecision(d(1, task("staging", 1, storage("big", 400 * MB))));
    clock.advanceSeconds(1);
    assertThat(a.runningTasks()).containsExactlyInAnyOrder("running#0", "staging#0");
    int eventsBefore = out.events.size();

    a.onDecision(resync("r1", 2));
    assertThat(a.runningTasks()).isEmpty();
    clock.advanceSeconds(10_000);
    assertThat(out.events).hasSize(eventsBefore);
    List<NodeReport> regs = out.reports(NodeReportType.REGISTER);
    assertThat(regs).hasSize(2);
    NodeReport again = regs.get(1);
    assertThat(again.getSeq()).isZero();
    assertThat(again.getAdded()).extracting(CachedFile::getFileId)
        .containsExactlyInAnyOrderElementsOf(a.cacheContents().keySet())
        .contains("f0", "f1");
    assertThat(a.isPinned("f1")).isFalse();
    assertThat(a.stats().resyncs()).isEqualTo(1);
    // Work goes on after it: the slots are free.
    a.onDecision(d(2, task("next", 1)));
    a.onDecision(d(2, task("next2", 1)));
    assertThat(out.events(TaskEventType.REFUSED)).isEmpty();
  }

  @Test
  void registerCarriesAWarmCacheAsItsSnapshot() {
    AgentConfig cfg = AgentConfig.builder(POOL, "n1").heartbeatMs(3_600_000).build();
    NodeAgent a = SimulatedAgents.create(cfg, clock, out, new LocalPeerDirectory());
    a.preload("warm", 5 * MB);
    a.start();
    assertThat(out.reports).extracting(NodeReport::getType)
        .containsExactly(NodeReportType.REGISTER);
    assertThat(out.reports.get(0).getAdded()).containsExactly(new CachedFile("warm", 5 * MB));
  }

  // ---- duplicates -----------------------------------------------------------------------------

  @Test
  void aDuplicatePlacementIsAnsweredWithTheLatestEventOfItsAttempt() {
    NodeKeys keys = new NodeKeys("cluster".getBytes(StandardCharsets.UTF_8));
    NodeAgent a = agent(new AgentIdentity("i1", EpochStore.inMemory(), keys.signer("n1")));
    Decision place = d(1, task("t0", 10));
    a.onDecision(place);
    TaskEvent started = out.events.get(0);
    a.onDecision(place);
    assertThat(out.events).hasSize(2);
    assertThat(out.events.get(1)).isEqualTo(started);
    assertThat(a.runningTasks()).containsExactly("t0#0");

    clock.advanceSeconds(100);
    TaskEvent completed = out.events(TaskEventType.COMPLETED).get(0);
    a.onDecision(place);
    TaskEvent answer = out.events.get(out.events.size() - 1);
    assertThat(answer).isEqualTo(completed);
    assertThat(keys.signer("n1").verify(answer)).isTrue();
    assertThat(out.events(TaskEventType.STARTED)).hasSize(2);
    assertThat(a.stats().tasksStarted()).isEqualTo(1);
    assertThat(a.stats().duplicatesAnswered()).isEqualTo(2);

    // A refused placement is answered with its refusal; other duplicates are dropped.
    Decision stale = decision("old", 0, POOL, "n1", task("t9", 1));
    a.onDecision(stale);
    a.onDecision(stale);
    assertThat(out.eventsOf("t9")).extracting(TaskEvent::getType)
        .containsExactly(TaskEventType.REFUSED, TaskEventType.REFUSED);
    Decision ev = d(1, evict("nothing"));
    a.onDecision(ev);
    int n = out.all.size();
    a.onDecision(ev);
    assertThat(out.all).hasSize(n);
    assertThat(a.stats().duplicateDecisions()).isEqualTo(4);
  }
}
