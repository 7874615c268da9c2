package io.locus.agent;

import static io.locus.agent.TestDecisions.MB;
import static io.locus.agent.TestDecisions.cancel;
import static io.locus.agent.TestDecisions.decision;
import static io.locus.agent.TestDecisions.evict;
import static io.locus.agent.TestDecisions.input;
import static io.locus.agent.TestDecisions.local;
import static io.locus.agent.TestDecisions.peer;
import static io.locus.agent.TestDecisions.replicate;
import static io.locus.agent.TestDecisions.storage;
import static io.locus.agent.TestDecisions.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.locus.agent.sim.LocalPeerDirectory;
import io.locus.agent.sim.SimulatedAgents;
import io.locus.agent.sim.SimulatedExecutor;
import io.locus.agent.sim.SimulatedStager;
import io.locus.schemas.CachedFile;
import io.locus.schemas.Decision;
import io.locus.schemas.FetchSource;
import io.locus.schemas.InputPlan;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class NodeAgentTest {
  private static final String POOL = "p1";

  private final ManualScheduler clock = new ManualScheduler();
  private final LocalPeerDirectory peers = new LocalPeerDirectory();
  private final Map<String, RecordingOutput> outputs = new HashMap<>();
  private int ids;

  private NodeAgent agent(String node, UnaryOperator<AgentConfig.Builder> tune) {
    AgentConfig cfg = tune.apply(AgentConfig.builder(POOL, node).heartbeatMs(3_600_000)).build();
    RecordingOutput out = new RecordingOutput();
    outputs.put(node, out);
    NodeAgent a = SimulatedAgents.create(cfg, clock, out, peers);
    peers.register(a);
    return a;
  }

  private NodeAgent started(String node, UnaryOperator<AgentConfig.Builder> tune) {
    NodeAgent a = agent(node, tune);
    a.start();
    return a;
  }

  private RecordingOutput out(String node) {
    return outputs.get(node);
  }

  private Decision place(NodeAgent a, Object action) {
    return decision("d" + (ids++), 1, POOL, a.nodeId(), action);
  }

  private static <T> T only(List<T> events) {
    assertThat(events).hasSize(1);
    return events.get(0);
  }

  // ---- registration ---------------------------------------------------------------------------

  @Test
  void registersHeartbeatsAndLeaves() {
    NodeAgent a = started("n1", b -> b.slots(3).cacheCapacityBytes(500 * MB).heartbeatMs(500));
    clock.advanceSeconds(1.2);
    a.close();

    List<NodeReport> reports = out("n1").reports;
    assertThat(reports).extracting(NodeReport::getType).containsExactly(
        NodeReportType.REGISTER, NodeReportType.HEARTBEAT, NodeReportType.HEARTBEAT,
        NodeReportType.LEAVE);
    NodeReport reg = reports.get(0);
    assertThat(reg.getPool()).isEqualTo(POOL);
    assertThat(reg.getNode()).isEqualTo("n1");
    assertThat(reg.getSlots()).isEqualTo(3);
    assertThat(reg.getCacheCapacityBytes()).isEqualTo(500 * MB);
    assertThat(reg.getSeq()).isZero();
    assertThat(reg.getEndpoint()).isEqualTo("sim://n1");
    // Heartbeats stop with the agent.
    clock.advanceSeconds(5);
    assertThat(out("n1").reports).hasSize(4);
  }

  /**
   * Issue 22: an agent whose registration the scheduler refused (a copy of another agent's
   * configuration) said "registered" and was healthy until decisions reached it. The scheduler's
   * verdict on its instance makes it unhealthy at once, with the reason; a verdict on another
   * instance of the node id is not about it; a later REGISTERED verdict makes it healthy.
   */
  @Test
  void aRefusedRegistrationIsAProblemUntilTheSchedulerRegistersThisInstance() {
    NodeAgent a = started("n1", b -> b.slots(2));
    String me = a.instanceId();
    assertThat(a.problem()).isNull();
    assertThat(a.accepted()).isNotDone();
    a.verdict(status(me, io.locus.schemas.NodeStatusType.REFUSED,
        "REGISTER refused: node 'n1' is owned by live agent instance 'real', not '" + me + "'"));
    assertThat(a.problem()).startsWith("registration refused by the scheduler: REGISTER refused:"
        + " node 'n1' is owned by live agent instance 'real'").endsWith("[forged]");
    // the owner's verdict, which follows the refusal on the topic, is about the other instance
    a.verdict(status("real", io.locus.schemas.NodeStatusType.REGISTERED, "still owned"));
    assertThat(a.problem()).startsWith("registration refused by the scheduler");
    assertThat(a.accepted()).isNotDone();
    a.verdict(status(me, io.locus.schemas.NodeStatusType.REGISTERED, "registered"));
    assertThat(a.problem()).isNull();
    assertThat(a.accepted()).isCompleted();
  }

  private static io.locus.schemas.NodeStatus status(String instance,
      io.locus.schemas.NodeStatusType state, String reason) {
    return io.locus.schemas.NodeStatus.newBuilder().setPool(POOL).setNode("n1")
        .setInstanceId(instance).setState(state).setReason(reason)
        .setCode(state == io.locus.schemas.NodeStatusType.REFUSED ? "forged" : "")
        .setSlots(2).setTimeMs(1).setEpoch(1).build();
  }

  @Test
  void aWarmCacheIsAnnouncedByTheSnapshotInRegister() {
    NodeAgent a = agent("n1", b -> b);
    a.preload("a", 10 * MB);
    a.preload("b", 20 * MB);
    a.start();

    List<NodeReport> reports = out("n1").reports;
    assertThat(reports).extracting(NodeReport::getType)
        .containsExactly(NodeReportType.REGISTER);
    assertThat(reports.get(0).getSeq()).isZero();
    assertThat(reports.get(0).getAdded())
        .containsExactly(new CachedFile("a", 10 * MB), new CachedFile("b", 20 * MB));
  }

  // ---- decision filtering ---------------------------------------------------------------------

  @Test
  void duplicateDecisionsAreNotActedOnWithinABoundedWindow() {
    NodeAgent a = started("n1", b -> b.dedupeWindow(2));
    Decision d1 = decision("d1", 1, POOL, "n1", task("t1", 1, storage("f", MB)));
    a.onDecision(d1);
    a.onDecision(d1);
    clock.runUntilIdle();
    a.onDecision(d1);
    clock.runUntilIdle();

    // Each duplicate is answered with the attempt's latest event, never run again.
    assertThat(out("n1").events).extracting(TaskEvent::getType)
        .containsExactly(TaskEventType.STARTED, TaskEventType.STARTED, TaskEventType.COMPLETED,
            TaskEventType.COMPLETED);
    assertThat(a.stats().tasksStarted()).isEqualTo(1);
    assertThat(a.stats().duplicateDecisions()).isEqualTo(2);

    // The window holds the last 2 ids: after two newer ones d1 is forgotten and would run again.
    a.onDecision(decision("d2", 1, POOL, "n1", task("t2", 1)));
    a.onDecision(decision("d3", 1, POOL, "n1", task("t3", 1)));
    clock.runUntilIdle();
    a.onDecision(d1);
    assertThat(a.runningTasks()).containsExactly("t1#0");
  }

  @Test
  void decisionsForAnotherNodeOrPoolOrBeforeStartAreIgnored() {
    NodeAgent a = agent("n1", b -> b);
    a.onDecision(decision("d0", 1, POOL, "n1", task("t0", 1)));
    a.start();
    a.onDecision(decision("d1", 1, POOL, "n2", task("t1", 1)));
    a.onDecision(decision("d2", 1, "other-pool", "n1", task("t2", 1)));
    clock.runUntilIdle();

    assertThat(out("n1").events).isEmpty();
    assertThat(a.stats().ignoredDecisions()).isEqualTo(3);
    // d0 arrived before start and was not remembered: delivered again, it runs.
    a.onDecision(decision("d0", 1, POOL, "n1", task("t0", 1)));
    assertThat(a.runningTasks()).containsExactly("t0#0");
  }

  @Test
  void aDecisionFromAnOlderEpochIsRefused() {
    NodeAgent a = started("n1", b -> b);
    a.onDecision(decision("d1", 5, POOL, "n1", task("t1", 1)));
    a.onDecision(decision("d2", 4, POOL, "n1", task("t2", 1)));
    a.onDecision(decision("d3", 4, POOL, "n1", evict("x")));
    a.onDecision(decision("d4", 4, POOL, "n1", cancel("t1")));
    a.onDecision(decision("d5", 5, POOL, "n1", task("t3", 1)));
    clock.runUntilIdle();

    TaskEvent refused = only(out("n1").events(TaskEventType.REFUSED));
    assertThat(refused.getTaskId()).isEqualTo("t2");
    assertThat(refused.getJobId()).isEqualTo("job-t2");
    assertThat(refused.getDecisionId()).isEqualTo("d2");
    assertThat(refused.getEpoch()).isEqualTo(4);
    assertThat(refused.getMessage()).isEqualTo("stale epoch 4 < 5");
    // The stale cancel did not stop t1; the same-epoch t3 ran.
    assertThat(out("n1").events(TaskEventType.COMPLETED)).extracting(TaskEvent::getTaskId)
        .containsExactly("t1", "t3");
    assertThat(a.stats().staleDecisions()).isEqualTo(3);
    assertThat(a.stats().tasksRefused()).isEqualTo(1);
  }

  // ---- slots ----------------------------------------------------------------------------------

  @Test
  void aPlacementBeyondTheSlotsIsRefusedNotQueued() {
    NodeAgent a = started("n1", b -> b.slots(2));
    a.onDecision(place(a, task("t1", 10)));
    a.onDecision(place(a, task("t2", 10)));
    a.onDecision(decision("dx", 1, POOL, "n1", task("t3", 10)));
    // A second decision for an attempt already running is a scheduler bug too.
    a.onDecision(place(a, task("t1", 10)));

    List<TaskEvent> refused = out("n1").events(TaskEventType.REFUSED);
    assertThat(refused).extracting(TaskEvent::getTaskId).containsExactly("t3", "t1");
    assertThat(refused.get(0).getMessage()).isEqualTo(NodeAgent.NO_FREE_SLOT);
    assertThat(refused.get(0).getDecisionId()).isEqualTo("dx");
    assertThat(refused.get(1).getMessage()).isEqualTo(NodeAgent.ALREADY_RUNNING);
    assertThat(a.runningTasks()).containsExactly("t1#0", "t2#0");

    clock.runUntilIdle();
    a.onDecision(place(a, task("t4", 1)));
    assertThat(a.runningTasks()).containsExactly("t4#0");
  }

  // ---- read path and byte accounting ----------------------------------------------------------

  @Test
  void bytesAreCountedByWhereTheyWereReadAndStagingTakesModelledTime() {
    NodeAgent holder = agent("n2", b -> b);
    holder.preload("p", 50 * MB);
    holder.start();
    NodeAgent a = agent("n1", b -> b);
    a.preload("l", 30 * MB);
    a.start();

    a.onDecision(place(a, task("t1", 1.0,
        local("l", 30 * MB), peer("p", 50 * MB, "n2"), storage("s", 125 * MB))));
    clock.runUntilIdle();

    TaskEvent done = only(out("n1").events(TaskEventType.COMPLETED));
    assertThat(done.getBytesLocal()).isEqualTo(30 * MB);
    assertThat(done.getBytesPeer()).isEqualTo(50 * MB);
    assertThat(done.getBytesStorage()).isEqualTo(125 * MB);
    assertThat(done.getDecisionId()).isEqualTo("d0");
    assertThat(done.getEpoch()).isEqualTo(1);
    assertThat(done.getExitCode()).isZero();
    // local 30 MB / 150 MB/s + peer 50 / 125 + storage 125 / 125 + compute 1 s = 2.6 s
    assertThat(done.getStartTimeMs()).isEqualTo(ManualScheduler.EPOCH_MS);
    assertThat(done.getEndTimeMs() - done.getStartTimeMs()).isEqualTo(2600);
    assertThat(a.stats().bytesLocal()).isEqualTo(30 * MB);
    assertThat(a.stats().bytesPeer()).isEqualTo(50 * MB);
    assertThat(a.stats().bytesStorage()).isEqualTo(125 * MB);
    // Replication on demand: both fetched files are now cached here too.
    assertThat(a.cacheContents()).containsOnlyKeys("l", "p", "s");
    assertThat(holder.holds("p")).isTrue();

    // STARTED, then one delta with the fetched files right after staging, then COMPLETED.
    List<Object> seq = out("n1").all;
    assertThat(seq).hasSize(4);
    assertThat(((TaskEvent) seq.get(1)).getType()).isEqualTo(TaskEventType.STARTED);
    NodeReport delta = (NodeReport) seq.get(2);
    assertThat(delta.getType()).isEqualTo(NodeReportType.CACHE_DELTA);
    assertThat(delta.getSeq()).isEqualTo(1);
    assertThat(delta.getAdded()).extracting(CachedFile::getFileId).containsExactly("p", "s");
    assertThat(delta.getRemoved()).isEmpty();
    assertThat(((TaskEvent) seq.get(3)).getType()).isEqualTo(TaskEventType.COMPLETED);
  }

  @Test
  void staleHintsFallBackToStorage() {
    NodeAgent holder = agent("n2", b -> b);
    holder.preload("p", 50 * MB);
    holder.start();
    NodeAgent a = started("n1", b -> b);
    // The peer evicts the file before n1 reads it: the scheduler's hint is now stale.
    holder.onDecision(place(holder, evict("p")));

    a.onDecision(place(a, task("t1", 0,
        peer("p", 50 * MB, "n2"),        // peer lost it
        peer("q", 10 * MB, "n9"),        // peer unknown here
        local("r", 20 * MB))));          // a local hint for a file this node does not have
    clock.runUntilIdle();

    TaskEvent done = only(out("n1").events(TaskEventType.COMPLETED));
    assertThat(done.getBytesPeer()).isZero();
    assertThat(done.getBytesLocal()).isZero();
    assertThat(done.getBytesStorage()).isEqualTo(80 * MB);
    assertThat(a.stats().peerFallbacks()).isEqualTo(2);
    // 50 / 125 + 10 / 125 + 20 / 125 s, the failed peer lookups cost nothing.
    assertThat(done.getEndTimeMs() - done.getStartTimeMs()).isEqualTo(640);
  }

  @Test
  void aFileInTheCacheIsReadLocallyWhateverThePlanSays() {
    NodeAgent a = agent("n1", b -> b);
    a.preload("f", 15 * MB);
    a.start();
    a.onDecision(place(a, task("t1", 0, storage("f", 15 * MB))));
    clock.runUntilIdle();

    assertThat(only(out("n1").events(TaskEventType.COMPLETED)).getBytesLocal())
        .isEqualTo(15 * MB);
    assertThat(out("n1").reports(NodeReportType.CACHE_DELTA)).isEmpty();
  }

  @Test
  void cacheFalseStreamsWithoutCaching() {
    NodeAgent a = started("n1", b -> b);
    InputPlan streamed = input("f", 10 * MB, FetchSource.STORAGE, null, false);
    a.onDecision(place(a, task("t1", 0, streamed)));
    clock.runUntilIdle();
    a.onDecision(place(a, task("t2", 0, streamed)));
    clock.runUntilIdle();

    assertThat(out("n1").events(TaskEventType.COMPLETED))
        .extracting(TaskEvent::getBytesStorage).containsExactly(10 * MB, 10 * MB);
    assertThat(a.cacheContents()).isEmpty();
    assertThat(out("n1").reports(NodeReportType.CACHE_DELTA)).isEmpty();
  }

  @Test
  void aFileLargerThanTheCacheIsStreamed() {
    NodeAgent a = started("n1", b -> b.cacheCapacityBytes(10 * MB));
    a.onDecision(place(a, task("t1", 0, storage("big", 20 * MB))));
    clock.runUntilIdle();

    assertThat(only(out("n1").events(TaskEventType.COMPLETED)).getBytesStorage())
        .isEqualTo(20 * MB);
    assertThat(a.cacheContents()).isEmpty();
    assertThat(out("n1").reports(NodeReportType.CACHE_DELTA)).isEmpty();
  }

  @Test
  void twoTasksNeedingTheSameMissingFileShareOneFetch() {
    NodeAgent a = started("n1", b -> b);
    a.onDecision(place(a, task("t1", 0, storage("x", 125 * MB))));
    a.onDecision(place(a, task("t2", 0, storage("x", 125 * MB))));
    clock.runUntilIdle();

    List<TaskEvent> done = out("n1").events(TaskEventType.COMPLETED);
    assertThat(done).extracting(TaskEvent::getTaskId).containsExactly("t1", "t2");
    assertThat(done.get(0).getBytesStorage()).isEqualTo(125 * MB);
    assertThat(done.get(1).getBytesStorage()).isZero();
    assertThat(done.get(1).getBytesLocal()).isEqualTo(125 * MB);
    assertThat(a.stats().sharedFetches()).isEqualTo(1);
    assertThat(out("n1").reports(NodeReportType.CACHE_DELTA)).hasSize(1);
  }

  @Test
  void timeScaleShrinksEveryModelledDuration() {
    NodeAgent a = started("n1", b -> b.timeScale(0.01));
    a.onDecision(place(a, task("t1", 2.0, storage("s", 125 * MB))));
    clock.advanceSeconds(0.0299);
    assertThat(out("n1").events(TaskEventType.COMPLETED)).isEmpty();
    clock.advanceSeconds(0.0002);
    assertThat(out("n1").events(TaskEventType.COMPLETED)).hasSize(1);
  }

  // ---- cache under pressure -------------------------------------------------------------------

  @Test
  void underPressureTheCacheStaysWithinQuotaNeverEvictsPinnedInputsAndTheIndexFollows() {
    long cap = 30 * MB;
    NodeAgent holder = agent("n2", b -> b);
    for (int i = 0; i < 12; i += 3) {
      holder.preload("f" + i, 10 * MB);
    }
    holder.start();
    NodeAgent a = started("n1", b -> b.cacheCapacityBytes(cap).slots(2));

    // Before each step: the cached files that running tasks use (known here, not asked of the
    // agent). After it: still cached. Checked around every callback, i.e. every staging step,
    // insert and completion.
    Map<String, List<String>> inputsOf = new HashMap<>();
    Set<String> pinnedBefore = new HashSet<>();
    clock.around(() -> {
      pinnedBefore.clear();
      Map<String, Long> cached = a.cacheContents();
      for (String t : a.runningTasks()) {
        inputsOf.get(t).stream().filter(cached::containsKey).forEach(pinnedBefore::add);
      }
    }, () -> {
      assertThat(a.stats().cacheUsedBytes()).isLessThanOrEqualTo(cap);
      assertThat(a.cacheContents().keySet()).containsAll(pinnedBefore);
    });

    Random rnd = new Random(42);
    int placed = 0;
    while (placed < 300) {
      while (a.runningTasks().size() < 2 && placed < 300) {
        InputPlan[] in = new InputPlan[1 + rnd.nextInt(3)];
        for (int k = 0; k < in.length; k++) {
          String f = "f" + rnd.nextInt(12);
          in[k] = rnd.nextInt(3) == 0 ? peer(f, 10 * MB, "n2") : storage(f, 10 * MB);
        }
        inputsOf.put("t" + placed + "#0",
            Arrays.stream(in).map(InputPlan::getFileId).toList());
        a.onDecision(place(a, task("t" + placed, rnd.nextDouble() * 0.3, in)));
        placed++;
      }
      clock.advanceSeconds(0.05);
    }
    clock.runUntilIdle();

    AgentStats s = a.stats();
    assertThat(s.tasksCompleted()).isEqualTo(300);
    assertThat(s.tasksRefused()).isZero();
    assertThat(s.bytesLocal()).isPositive();
    assertThat(s.bytesPeer()).isPositive();
    assertThat(s.bytesStorage()).isPositive();
    assertThat(s.sharedFetches()).isPositive();

    // Index coherence: replaying REGISTER + deltas in seq order rebuilds exactly the cache.
    List<NodeReport> deltas = out("n1").reports(NodeReportType.CACHE_DELTA);
    assertThat(deltas).extracting(NodeReport::getSeq)
        .containsExactlyElementsOf(range(1, deltas.size()));
    assertThat(deltas).anyMatch(d -> !d.getRemoved().isEmpty());
    Map<String, Long> index = new HashMap<>();
    for (NodeReport d : deltas) {
      assertThat(d.getRemoved()).doesNotContainAnyElementsOf(
          d.getAdded().stream().map(CachedFile::getFileId).toList());
      d.getRemoved().forEach(index::remove);
      d.getAdded().forEach(c -> index.put(c.getFileId(), c.getBytes()));
    }
    assertThat(index).isEqualTo(a.cacheContents());
    assertThat(a.cacheSeq()).isEqualTo(deltas.size());
  }

  @Test
  void aFileReinsertedBeforeItsEvictionIsReportedStaysInTheIndex() {
    NodeAgent a = agent("n1", b -> b.cacheCapacityBytes(20 * MB));
    a.preload("a", 10 * MB);
    a.preload("b", 10 * MB);
    a.start();
    // t1 caches c, evicting a, then streams a slow file: its delta (+c -a) waits for 1 s.
    a.onDecision(place(a, task("t1", 0, storage("c", 10 * MB),
        input("slow", 125 * MB, FetchSource.STORAGE, null, false))));
    clock.advanceSeconds(0.1);
    assertThat(a.cacheContents()).containsOnlyKeys("b", "c");
    // t2 brings a back (evicting b) and reports it first.
    a.onDecision(place(a, task("t2", 0, storage("a", 10 * MB))));
    clock.runUntilIdle();

    List<NodeReport> deltas = out("n1").reports(NodeReportType.CACHE_DELTA);
    assertThat(deltas).hasSize(2);
    assertThat(deltas.get(0).getAdded()).extracting(CachedFile::getFileId).containsExactly("a");
    assertThat(deltas.get(0).getRemoved()).containsExactly("b");
    // t1's late delta must not take a out of the index again.
    assertThat(deltas.get(1).getAdded()).extracting(CachedFile::getFileId).containsExactly("c");
    assertThat(deltas.get(1).getRemoved()).isEmpty();
    assertThat(a.cacheContents()).containsOnlyKeys("a", "c");
  }

  private static List<Long> range(long from, long count) {
    List<Long> out = new ArrayList<>();
    for (long i = 0; i < count; i++) {
      out.add(from + i);
    }
    return out;
  }

  @Test
  void deltaSequenceNumbersAreContiguousAcrossTasksEvictionsAndReplications() {
    NodeAgent holder = agent("n2", b -> b);
    holder.preload("r", 5 * MB);
    holder.start();
    NodeAgent a = started("n1", b -> b.cacheCapacityBytes(20 * MB));
    a.onDecision(place(a, task("t1", 0, storage("a", 10 * MB))));       // seq 1: +a
    clock.runUntilIdle();
    a.onDecision(place(a, task("t2", 0, local("a", 10 * MB))));         // no change: no delta
    clock.runUntilIdle();
    a.onDecision(place(a, task("t3", 0, storage("b", 10 * MB))));       // seq 2: +b
    clock.runUntilIdle();
    a.onDecision(place(a, task("t4", 0, storage("c", 10 * MB))));       // seq 3: +c -a
    clock.runUntilIdle();
    a.onDecision(place(a, evict("b")));                                  // seq 4: -b
    a.onDecision(place(a, replicate("r", 5 * MB, "n2")));                // seq 5: +r
    clock.runUntilIdle();

    List<NodeReport> deltas = out("n1").reports(NodeReportType.CACHE_DELTA);
    assertThat(deltas).extracting(NodeReport::getSeq).containsExactly(1L, 2L, 3L, 4L, 5L);
    assertThat(deltas.get(2).getAdded()).extracting(CachedFile::getFileId).containsExactly("c");
    assertThat(deltas.get(2).getRemoved()).containsExactly("a");
    assertThat(deltas.get(3).getRemoved()).containsExactly("b");
    assertThat(deltas.get(4).getAdded()).containsExactly(new CachedFile("r", 5 * MB));
    assertThat(a.stats().replicatedBytes()).isEqualTo(5 * MB);
    assertThat(a.cacheContents()).containsOnlyKeys("c", "r");
    // Heartbeats carry the last seq, so the scheduler can tell a delta went missing.
    clock.advanceSeconds(3600);
    assertThat(out("n1").reports(NodeReportType.HEARTBEAT).get(0).getSeq()).isEqualTo(5);
  }

  // ---- EvictFiles and CancelTask --------------------------------------------------------------

  @Test
  void evictFilesRemovesUnpinnedFilesAndKeepsThoseInUse() {
    NodeAgent a = agent("n1", b -> b);
    a.preload("a", 10 * MB);
    a.preload("b", 10 * MB);
    a.start();
    a.onDecision(place(a, task("t1", 10, local("a", 10 * MB))));
    a.onDecision(place(a, evict("a", "b", "not-here")));

    NodeReport delta = only(out("n1").reports(NodeReportType.CACHE_DELTA));
    assertThat(delta.getSeq()).isEqualTo(1);
    assertThat(delta.getRemoved()).containsExactly("b");
    assertThat(delta.getAdded()).isEmpty();
    assertThat(a.cacheContents()).containsOnlyKeys("a");
    assertThat(a.stats().evictionsRefused()).isEqualTo(1);
    assertThat(a.stats().filesEvictedOnRequest()).isEqualTo(1);
    assertThat(out("n1").events(TaskEventType.REFUSED)).isEmpty();

    clock.runUntilIdle();
    a.onDecision(place(a, evict("a")));
    assertThat(a.cacheContents()).isEmpty();
    assertThat(out("n1").reports(NodeReportType.CACHE_DELTA)).extracting(NodeReport::getSeq)
        .containsExactly(1L, 2L);
  }

  @Test
  void cancelStopsARunningTaskFreesItsSlotAndReportsItsPartialStaging() {
    NodeAgent a = started("n1", b -> b.slots(1));
    a.onDecision(place(a, task("t1", 10, storage("a", 125 * MB), storage("b", 125 * MB))));
    clock.advanceSeconds(1.5);   // a fetched, b in progress
    a.onDecision(place(a, cancel("t1")));

    TaskEvent failed = only(out("n1").events(TaskEventType.FAILED));
    assertThat(failed.getMessage()).isEqualTo(NodeAgent.CANCELLED);
    assertThat(failed.getDecisionId()).isEqualTo("d0");
    assertThat(failed.getBytesStorage()).isEqualTo(125 * MB);
    assertThat(a.runningTasks()).isEmpty();
    assertThat(a.isPinned("a")).isFalse();
    NodeReport delta = only(out("n1").reports(NodeReportType.CACHE_DELTA));
    assertThat(delta.getAdded()).extracting(CachedFile::getFileId).containsExactly("a");

    // The slot is free; the cancelled task's pending work never completes.
    a.onDecision(place(a, task("t2", 1)));
    clock.runUntilIdle();
    assertThat(out("n1").events(TaskEventType.COMPLETED)).extracting(TaskEvent::getTaskId)
        .containsExactly("t2");
    assertThat(a.cacheContents()).containsOnlyKeys("a");

    // Cancelling during compute, and cancelling what is not running.
    a.onDecision(place(a, task("t3", 10, local("a", 125 * MB))));
    clock.advanceSeconds(2);
    a.onDecision(place(a, cancel("t3")));
    a.onDecision(place(a, cancel("nope")));
    clock.runUntilIdle();
    assertThat(out("n1").events(TaskEventType.FAILED)).extracting(TaskEvent::getTaskId)
        .containsExactly("t1", "t3");
    assertThat(a.stats().tasksFailed()).isEqualTo(2);
  }

  @Test
  void aTaskWaitingForACancelledFetchFetchesTheFileItself() {
    NodeAgent a = started("n1", b -> b);
    a.onDecision(place(a, task("t1", 0, storage("x", 125 * MB))));
    a.onDecision(place(a, task("t2", 0, storage("x", 125 * MB))));
    clock.advanceSeconds(0.5);
    a.onDecision(place(a, cancel("t1")));
    clock.runUntilIdle();

    TaskEvent done = only(out("n1").events(TaskEventType.COMPLETED));
    assertThat(done.getTaskId()).isEqualTo("t2");
    assertThat(done.getBytesStorage()).isEqualTo(125 * MB);
    // t2 started its own full read at 0.5 s.
    assertThat(done.getEndTimeMs() - done.getStartTimeMs()).isEqualTo(1500);
  }

  @Test
  void closeFailsRunningTasksThenLeaves() {
    NodeAgent a = started("n1", b -> b);
    a.onDecision(place(a, task("t1", 10, storage("a", 10 * MB))));
    clock.advanceSeconds(1);
    a.close();
    clock.runUntilIdle();

    TaskEvent failed = only(out("n1").events(TaskEventType.FAILED));
    assertThat(failed.getMessage()).isEqualTo(NodeAgent.AGENT_STOPPED);
    assertThat(out("n1").reports.get(out("n1").reports.size() - 1).getType())
        .isEqualTo(NodeReportType.LEAVE);
    assertThat(out("n1").events(TaskEventType.COMPLETED)).isEmpty();
    a.onDecision(place(a, task("t2", 1)));
    assertThat(a.runningTasks()).isEmpty();
  }

  // ---- drain and guards -----------------------------------------------------------------------

  @Test
  void aDrainRefusesNewTasksReportsDrainingLetsRunningTasksFinishThenLeaves() {
    NodeAgent a = started("n1", b -> b.slots(2).heartbeatMs(500));
    a.onDecision(place(a, task("t1", 10)));
    var left = a.drain();

    assertThat(a.isDraining()).isTrue();
    NodeReport hb = out("n1").reports(NodeReportType.HEARTBEAT).get(0);
    assertThat(hb.getDraining()).isTrue();
    a.onDecision(place(a, task("t2", 1)));
    assertThat(only(out("n1").events(TaskEventType.REFUSED)).getMessage())
        .isEqualTo(NodeAgent.DRAINING);
    assertThat(a.refusals()).containsEntry(Refusal.DRAINING, 1L);
    clock.advanceSeconds(5);
    assertThat(left).isNotDone();
    assertThat(out("n1").reports(NodeReportType.HEARTBEAT)).allMatch(NodeReport::getDraining);

    clock.runUntilIdle();
    assertThat(left).isDone();
    assertThat(out("n1").events(TaskEventType.COMPLETED)).extracting(TaskEvent::getTaskId)
        .containsExactly("t1");
    List<NodeReport> reports = out("n1").reports;
    assertThat(reports.get(reports.size() - 1).getType()).isEqualTo(NodeReportType.LEAVE);
    assertThat(a.isClosed()).isTrue();
  }

  @Test
  void anIdleAgentLeavesAtOnceWhenDrained() {
    NodeAgent a = started("n1", b -> b);
    assertThat(a.drain()).isDone();
    assertThat(out("n1").reports).extracting(NodeReport::getType).containsExactly(
        NodeReportType.REGISTER, NodeReportType.HEARTBEAT, NodeReportType.LEAVE);
  }

  @Test
  void aForgedDecisionLeavesNoTraceAndAnUnsafeOneIsRefusedAfterTheEpochCheck() {
    // Forged: odd epochs. Unsafe: task ids starting with "bad".
    DecisionGuard guard = new DecisionGuard() {
      @Override
      public Refusal verify(Decision d) {
        return d.getEpoch() % 2 == 1 ? Refusal.of("forged", "odd epoch") : null;
      }

      @Override
      public Refusal admit(Decision d) {
        return d.getAction() instanceof PlaceTask p
            && p.getTaskId().startsWith("bad") ? Refusal.of("unsafe", p.getTaskId()) : null;
      }
    };
    AgentConfig cfg = AgentConfig.builder(POOL, "n1").heartbeatMs(3_600_000).build();
    RecordingOutput rec = new RecordingOutput();
    NodeAgent a = new NodeAgent(cfg, clock, new SimulatedStager(cfg, clock, peers),
        new SimulatedExecutor(cfg, clock), rec, "x",
        CacheStore.NONE, guard);
    a.start();

    a.onDecision(decision("d1", 99, POOL, "n1", task("t1", 1)));
    assertThat(rec.events(TaskEventType.REFUSED)).singleElement()
        .satisfies(e -> assertThat(e.getMessage()).isEqualTo("forged: odd epoch"));
    // The forged epoch 99 did not raise the bar, and its id did not enter the dedupe window.
    a.onDecision(decision("d1", 2, POOL, "n1", task("t1", 1)));
    assertThat(rec.events(TaskEventType.STARTED)).hasSize(1);
    a.onDecision(decision("d2", 4, POOL, "n1", task("bad1", 1)));
    assertThat(rec.events(TaskEventType.REFUSED)).last()
        .satisfies(e -> assertThat(e.getMessage()).isEqualTo("unsafe: bad1"));
    // The unsafe decision was authentic: its epoch counts.
    assertThat(a.maxEpoch()).isEqualTo(4);
    assertThat(a.refusals()).containsEntry("forged", 1L).containsEntry("unsafe", 1L);
  }
}
