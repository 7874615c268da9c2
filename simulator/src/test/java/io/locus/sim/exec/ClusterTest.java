package io.locus.sim.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.locus.core.model.InputFile;
import io.locus.core.model.InputSource;
import io.locus.core.model.InputFetch;
import io.locus.core.model.Task;
import io.locus.sim.engine.EventQueue;
import io.locus.sim.flow.Flow;
import io.locus.sim.flow.FlowNetwork;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The read path of spec §1.3 on a hand-driven cluster (no scheduler). */
class ClusterTest {
  private static final long MB = 1_000_000L;
  private static final InputFile F = InputFile.of("f", 10 * MB);
  private static final InputFile G = InputFile.of("g", 10 * MB);

  private final EventQueue events = new EventQueue();
  private final FlowNetwork flows = new FlowNetwork(3);
  private final Map<String, Set<String>> index = new HashMap<>();
  private final List<String> log = new ArrayList<>();
  private final List<TaskRun> done = new ArrayList<>();
  private final long[] bytesBySource = new long[3];
  private final List<Double> aborted = new ArrayList<>();
  private Cluster cluster;
  private double now;

  @BeforeEach
  void setUp() {
    // disk 100 MB/s, NIC 50 MB/s each way, FS 20 MB/s
    ExecConfig cfg = new ExecConfig(100 * MB, 50 * MB, 50 * MB, 20 * MB, 0.0, "LRU");
    cluster = new Cluster(cfg, flows, events, new ClusterListener() {
      @Override
      public void cacheChanged(Executor node, long seq, Map<String, Long> added,
          List<String> removed, double t) {
        for (String f : removed) {
          index.getOrDefault(f, new LinkedHashSet<>()).remove(node.id());
          log.add(node.id() + "-" + f);
        }
        for (String f : added.keySet()) {
          index.computeIfAbsent(f, k -> new LinkedHashSet<>()).add(node.id());
          log.add(node.id() + "+" + f);
        }
      }

      @Override
      public void readDone(TaskRun run, int source, long bytes, double t) {
        bytesBySource[source] += bytes;
        log.add(run.task().taskId() + ":" + InputSource.values()[source] + "@" + t);
      }

      @Override
      public void bytesAborted(int source, double bytes, double t) {
        aborted.add(bytes);
      }

      @Override
      public void taskDone(TaskRun run, double t) {
        done.add(run);
      }
    }, 1L);
    cluster.setDirectory(f -> index.getOrDefault(f, Set.of()));
  }

  /** Runs the model until nothing is left, like the simulation loop (without a scheduler). */
  private void runAll() {
    runUntil(Double.POSITIVE_INFINITY);
  }

  private void runUntil(double limit) {
    while (true) {
      double next = Math.min(events.peekTime(), flows.nextFinish());
      if (next == Double.POSITIVE_INFINITY || next > limit) {
        if (limit != Double.POSITIVE_INFINITY) {
          now = limit;
        }
        return;
      }
      now = next;
      EventQueue.Event e;
      while ((e = events.pollAt(now)) != null) {
        EventQueue.run(e);
      }
      Flow f;
      while ((f = flows.pollFinished(now)) != null) {
        f.owner().flowDone(f, now);
      }
      flows.settle(now);
    }
  }

  private TaskRun start(String id, String node, InputFetch... plan) {
    TaskRun r = cluster.start(Task.of(id, 0, now, 1.0, plan.length == 0 ? new InputFile[0]
        : java.util.Arrays.stream(plan).map(InputFetch::unit).toArray(InputFile[]::new)),
        List.of(plan), node, now);
    flows.settle(now);
    return r;
  }

  @Test
  void missThenLocalHitWithComputeAfterTheReads() {
    cluster.addExecutor("e1", 2, 100 * MB, 0);
    start("a", "e1", new InputFetch(F, InputSource.STORAGE, null, true));
    runAll();
    // FS 20 MB/s: 10 MB in 0.5 s, then 1 s compute
    assertThat(done).hasSize(1);
    assertThat(now).isCloseTo(1.5, within(1e-9));
    assertThat(log).contains("e1+f", "a:STORAGE@0.5");
    start("b", "e1", new InputFetch(F, InputSource.LOCAL, null, true));
    runAll();
    assertThat(log).contains("b:LOCAL@1.6"); // 10 MB at 100 MB/s
    assertThat(bytesBySource).containsExactly(10 * MB, 0, 10 * MB);
  }

  @Test
  void faReadsFromStorageAndNeverCaches() {
    cluster.addExecutor("e1", 2, 100 * MB, 0);
    start("a", "e1", new InputFetch(F, InputSource.STORAGE, null, false));
    start("b", "e1", new InputFetch(F, InputSource.STORAGE, null, false));
    runAll();
    assertThat(cluster.executor("e1").cache().size()).isZero();
    assertThat(cluster.dedupWaits()).isZero(); // two transfers: FA does not share
    assertThat(bytesBySource).containsExactly(0, 0, 20 * MB);
    assertThat(log).noneMatch(s -> s.startsWith("e1+"));
  }

  @Test
  void concurrentFetchesOfOneFileOnOneExecutorAreDeduplicated() {
    cluster.addExecutor("e1", 2, 100 * MB, 0);
    start("a", "e1", new InputFetch(F, InputSource.STORAGE, null, true));
    start("b", "e1", new InputFetch(F, InputSource.STORAGE, null, true));
    runAll();
    assertThat(cluster.dedupWaits()).isEqualTo(1);
    // one 10 MB transfer from storage; b then reads the cached copy locally
    assertThat(bytesBySource).containsExactly(10 * MB, 0, 10 * MB);
    assertThat(log).contains("a:STORAGE@0.5", "b:LOCAL@0.6");
  }

  @Test
  void peerReadUsesTheHintedHolderAndCachesAtTheReader() {
    cluster.addExecutor("e1", 2, 100 * MB, 0);
    cluster.addExecutor("e2", 2, 100 * MB, 0);
    start("a", "e1", new InputFetch(F, InputSource.STORAGE, null, true));
    runAll();
    start("b", "e2", new InputFetch(F, InputSource.PEER, "e1", true));
    runAll();
    // peer read at the NIC's 50 MB/s: 0.2 s
    assertThat(log).contains("b:PEER@1.7", "e2+f");
    assertThat(index.get("f")).containsExactlyInAnyOrder("e1", "e2");
  }

  @Test
  void staleHintFallsBackToTheNextHolderThenStorage() {
    cluster.addExecutor("e1", 1, 100 * MB, 0);
    cluster.addExecutor("e2", 1, 100 * MB, 0);
    cluster.addExecutor("e3", 1, 100 * MB, 0);
    start("a", "e2", new InputFetch(F, InputSource.STORAGE, null, true));
    runAll();
    // e1 is named but never had f: stale; e2 (from the index) has it
    start("b", "e3", new InputFetch(F, InputSource.PEER, "e1", true));
    runAll();
    assertThat(cluster.staleHints()).isEqualTo(1);
    assertThat(log).anyMatch(s -> s.startsWith("b:PEER"));
    // now every copy is gone but the index still lists e2 and e3: storage
    cluster.executor("e2").cache().remove("f");
    cluster.executor("e3").cache().remove("f");
    cluster.addExecutor("e4", 1, 100 * MB, now);
    start("c", "e4", new InputFetch(F, InputSource.PEER, "e2", true));
    runAll();
    assertThat(cluster.staleHints()).isEqualTo(3);
    assertThat(log).anyMatch(s -> s.startsWith("c:STORAGE"));
  }

  @Test
  void aPeerLeavingMidTransferMakesTheReaderFallBack() {
    cluster.addExecutor("e1", 1, 100 * MB, 0);
    cluster.addExecutor("e2", 1, 100 * MB, 0);
    start("a", "e1", new InputFetch(F, InputSource.STORAGE, null, true));
    runAll();
    double t0 = now;
    start("b", "e2", new InputFetch(F, InputSource.PEER, "e1", true));
    // half-way through the 0.2 s peer read, e1 is released
    runUntil(t0 + 0.1);
    cluster.release("e1", now);
    index.get("f").remove("e1");
    flows.settle(now);
    runAll();
    assertThat(aborted).hasSize(1);
    assertThat(aborted.get(0)).isCloseTo(5.0 * MB, within(1.0));
    assertThat(log).anyMatch(s -> s.startsWith("b:STORAGE"));
    assertThat(cluster.executor("e1").alive()).isFalse();
    assertThat(cluster.executor("e1").cache().size()).isZero();
  }

  @Test
  void inputsOfRunningTasksArePinnedAndCachesNeverOverflow() {
    cluster.addExecutor("e1", 2, 15 * MB, 0); // room for one 10 MB file
    start("a", "e1", new InputFetch(F, InputSource.STORAGE, null, true));
    // a holds f (pinned) while computing; b's g cannot evict it and is streamed, not cached
    runUntil(0.6);
    start("b", "e1", new InputFetch(G, InputSource.STORAGE, null, true));
    runAll();
    assertThat(log).contains("e1+f").doesNotContain("e1+g", "e1-f");
    assertThat(cluster.maxCacheFill()).isLessThanOrEqualTo(1.0);
    // once a is done, f is unpinned and a new file may replace it
    start("c", "e1", new InputFetch(G, InputSource.STORAGE, null, true));
    runAll();
    assertThat(log).contains("e1-f", "e1+g");
    assertThat(cluster.executor("e1").cache().used()).isLessThanOrEqualTo(15 * MB);
  }
}
