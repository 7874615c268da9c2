package io.locus.agent;

import static io.locus.agent.TestDecisions.MB;
import static io.locus.agent.TestDecisions.decision;
import static io.locus.agent.TestDecisions.peer;
import static io.locus.agent.TestDecisions.storage;
import static io.locus.agent.TestDecisions.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.locus.agent.sim.LocalPeerDirectory;
import io.locus.agent.sim.SimulatedAgents;
import io.locus.schemas.CachedFile;
import io.locus.schemas.DataUnit;
import io.locus.schemas.Decision;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Simulated agents create a task's outputs in their cache and report them (issue 15). */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TaskOutputsTest {
  private static final String POOL = "p1";

  private final ManualScheduler clock = new ManualScheduler();
  private final LocalPeerDirectory peers = new LocalPeerDirectory();
  private final Map<String, RecordingOutput> outputs = new HashMap<>();
  private int ids;

  private NodeAgent started(String node, UnaryOperator<AgentConfig.Builder> tune) {
    AgentConfig cfg = tune.apply(AgentConfig.builder(POOL, node).heartbeatMs(3_600_000)).build();
    RecordingOutput out = new RecordingOutput();
    outputs.put(node, out);
    NodeAgent a = SimulatedAgents.create(cfg, clock, out, peers);
    peers.register(a);
    a.start();
    return a;
  }

  private Decision place(NodeAgent a, PlaceTask p) {
    return decision("d" + (ids++), 1, POOL, a.nodeId(), p);
  }

  private static DataUnit unit(String id, long bytes) {
    return DataUnit.newBuilder().setId(id).setBytes(bytes).build();
  }

  private static PlaceTask withOutputs(PlaceTask p, DataUnit... outs) {
    return PlaceTask.newBuilder(p).setOutputs(List.of(outs)).build();
  }

  @Test
  void twoOutputsAreCachedWithTheirDeclaredSizesAndReportedBeforeCompleted() {
    NodeAgent a = started("n1", b -> b.cacheCapacityBytes(100 * MB));
    a.onDecision(place(a, withOutputs(task("t1", 2, storage("in", 5 * MB)),
        unit("wf/out-1", 7 * MB), unit("wf/out-2", 3 * MB))));
    clock.runUntilIdle();

    RecordingOutput out = outputs.get("n1");
    TaskEvent completed = out.events(TaskEventType.COMPLETED).get(0);
    assertThat(completed.getMessage()).isNull();
    assertThat(a.cacheContents()).containsEntry("wf/out-1", 7 * MB)
        .containsEntry("wf/out-2", 3 * MB).containsEntry("in", 5 * MB);
    assertThat(a.holds("wf/out-1")).isTrue();

    // The delta naming the outputs is emitted before COMPLETED, in the one order the agent emits.
    int completedAt = out.all.indexOf(completed);
    int deltaAt = -1;
    for (int i = 0; i < out.all.size(); i++) {
      if (out.all.get(i) instanceof NodeReport r && r.getType() == NodeReportType.CACHE_DELTA
          && r.getAdded().contains(new CachedFile("wf/out-1", 7 * MB))) {
        deltaAt = i;
      }
    }
    assertThat(deltaAt).isNotNegative().isLessThan(completedAt);
    NodeReport delta = (NodeReport) out.all.get(deltaAt);
    assertThat(delta.getAdded()).containsExactly(
        new CachedFile("wf/out-1", 7 * MB), new CachedFile("wf/out-2", 3 * MB));
    // The staged input's delta left earlier (when staging ended): seqs 1 then 2.
    assertThat(out.reports(NodeReportType.CACHE_DELTA)).extracting(NodeReport::getSeq)
        .containsExactly(1L, 2L);
  }

  @Test
  void aPeerFetchesAnOutputFromTheNodeThatCreatedIt() {
    NodeAgent a = started("n1", b -> b);
    NodeAgent b = started("n2", c -> c);
    a.onDecision(place(a, withOutputs(task("parent", 1), unit("o", 4 * MB))));
    clock.runUntilIdle();
    b.onDecision(place(b, task("child", 1, peer("o", 4 * MB, "n1"))));
    clock.runUntilIdle();

    TaskEvent child = outputs.get("n2").events(TaskEventType.COMPLETED).get(0);
    assertThat(child.getBytesPeer()).isEqualTo(4 * MB);
    assertThat(child.getBytesStorage()).isZero();
    assertThat(b.stats().peerFallbacks()).isZero();
    assertThat(b.cacheContents()).containsEntry("o", 4 * MB);
  }

  @Test
  void aChildOnTheSameNodeReadsTheOutputLocally() {
    NodeAgent a = started("n1", b -> b);
    a.onDecision(place(a, withOutputs(task("parent", 1), unit("o", 4 * MB))));
    clock.runUntilIdle();
    a.onDecision(place(a, task("child", 1, storage("o", 4 * MB))));
    clock.runUntilIdle();

    TaskEvent child = outputs.get("n1").eventsOf("child").get(1);
    assertThat(child.getType()).isEqualTo(TaskEventType.COMPLETED);
    assertThat(child.getBytesLocal()).isEqualTo(4 * MB);
  }

  @Test
  void anOutputLargerThanTheCacheIsNotCachedButTheTaskCompletes() {
    NodeAgent a = started("n1", b -> b.cacheCapacityBytes(10 * MB));
    a.onDecision(place(a, withOutputs(task("t1", 1), unit("big", 11 * MB), unit("small", MB))));
    clock.runUntilIdle();

    TaskEvent completed = outputs.get("n1").events(TaskEventType.COMPLETED).get(0);
    assertThat(completed.getMessage())
        .isEqualTo("output big (11000000 bytes) not cached: larger than the cache (10000000 bytes)");
    assertThat(a.cacheContents()).containsOnlyKeys("small");
    assertThat(outputs.get("n1").reports(NodeReportType.CACHE_DELTA).get(0).getAdded())
        .containsExactly(new CachedFile("small", MB));
  }

  @Test
  void outputsEvictOtherFilesUnderTheQuota() {
    NodeAgent a = started("n1", b -> b.cacheCapacityBytes(10 * MB));
    a.onDecision(place(a, task("t0", 1, storage("old", 6 * MB))));
    clock.runUntilIdle();
    a.onDecision(place(a, withOutputs(task("t1", 1), unit("new", 6 * MB))));
    clock.runUntilIdle();

    assertThat(a.cacheContents()).containsOnlyKeys("new");
    NodeReport last = outputs.get("n1").reports(NodeReportType.CACHE_DELTA).get(1);
    assertThat(last.getAdded()).containsExactly(new CachedFile("new", 6 * MB));
    assertThat(last.getRemoved()).containsExactly("old");
  }

  @Test
  void aFailedOrCancelledTaskCreatesNoOutputs() {
    NodeAgent a = started("n1", b -> b);
    a.onDecision(place(a, withOutputs(task("t1", 100), unit("o", MB))));
    clock.advanceSeconds(1);
    a.onDecision(decision("c", 1, POOL, "n1", TestDecisions.cancel("t1")));
    clock.runUntilIdle();

    assertThat(outputs.get("n1").events(TaskEventType.FAILED)).hasSize(1);
    assertThat(a.cacheContents()).doesNotContainKey("o");
    assertThat(outputs.get("n1").reports(NodeReportType.CACHE_DELTA)).isEmpty();
  }

  @Test
  void malformedOutputsAreRefused() {
    NodeAgent a = started("n1", b -> b);
    a.onDecision(place(a, withOutputs(task("t1", 1), unit("o", -1))));
    a.onDecision(place(a, withOutputs(task("t2", 1), unit("o", 1), unit("o", 2))));
    clock.runUntilIdle();

    assertThat(outputs.get("n1").events(TaskEventType.REFUSED)).extracting(TaskEvent::getMessage)
        .containsExactly("bad input: negative size for output o",
            "bad input: output o is declared twice");
  }
}
