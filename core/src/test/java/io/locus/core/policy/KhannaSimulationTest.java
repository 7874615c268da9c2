package io.locus.core.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.Scheduler;
import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import io.locus.core.staging.CostModel;
import io.locus.core.state.NodeView;
import io.locus.core.state.PoolState;
import io.locus.core.state.RunningTask;
import io.locus.core.state.StagingState;
import io.locus.core.state.StateJournal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Khanna-family policies on random shared-file workloads in virtual time (default cost model, 4
 * compute and 4 storage nodes, small caches to force eviction): every job completes; the commands
 * respect staging, eviction and Gantt rules (checked by {@link VirtualDriver}); same events give
 * the same commands; a state rebuilt from its journal decides like the original.
 */
class KhannaSimulationTest {
  private static final long MIB = 1L << 20;
  private static final long CACHE = 512 * MIB;
  private static final int NODES = 4;

  /** Jobs of 2–5 distinct files out of 60 (skewed, so files are shared), arrivals in bursts. */
  static List<Task> workload(long seed, int jobs) {
    Random r = new Random(seed);
    List<InputFile> files = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      files.add(new InputFile("f" + i, (i % 3 == 0 ? 64 : 4) * MIB, 0, "SN" + (i % 4), null));
    }
    List<Task> out = new ArrayList<>();
    double t = 0;
    for (int k = 1; k <= jobs; k++) {
      if (r.nextInt(4) != 0) { // a quarter of the jobs arrive together with the previous one
        t += -Math.log(1 - r.nextDouble()) * 0.35;
      }
      Set<InputFile> in = new LinkedHashSet<>();
      int n = 2 + r.nextInt(4);
      while (in.size() < n) {
        in.add(files.get((int) (files.size() * Math.pow(r.nextDouble(), 2))));
      }
      out.add(new Task("j" + k, "j" + k, 0, k, new ArrayList<>(in), 0, t, null, List.of(), 0));
    }
    return out;
  }

  private static Scheduler fresh(String policy, StateJournal journal) {
    Scheduler s = new Scheduler("k", new PoolState(journal, PoolState.DEFAULT_MAX_RETRIES),
        Policies.create(policy, Map.of()));
    for (int i = 1; i <= NODES; i++) {
      s.onNodeRegistered("n" + i, 1, CACHE, null, 0);
    }
    return s;
  }

  private static VirtualDriver simulate(String policy, long seed, int jobs) {
    VirtualDriver d = new VirtualDriver(fresh(policy, StateJournal.NONE), CostModel.DEFAULT);
    workload(seed, jobs).forEach(d::submit);
    d.run();
    return d;
  }

  /** The registry's policies with scheduler-staged caches: a new one is covered without an edit. */
  static java.util.List<String> stagedPolicies() {
    return PolicyRegistry.fileNames(d -> d.cacheModel().staged());
  }

  @ParameterizedTest
  @MethodSource("stagedPolicies")
  void everyJobCompletesAndTheCommandsKeepTheRules(String policy) {
    VirtualDriver d = simulate(policy, 17, 400);
    assertThat(d.completed).hasSize(400);
    assertThat(d.sched.state().queueLength()).isZero();
    assertThat(d.sched.state().running()).isEmpty();
    assertThat(d.engine.isIdle()).isTrue();
    assertThat(d.evictions).as("small caches force evictions").isPositive();
    d.assertReservationsNeverOverlap();
    StagingState st = d.sched.state().staging();
    for (NodeView n : d.sched.state().nodes()) {
      assertThat(st.queue(n.id())).isEmpty();
      for (String f : st.cache(n.id()).files()) {
        assertThat(st.cache(n.id()).isPresent(f)).isTrue();
      }
    }
    // NumCopies counts every node holding the file
    for (String f : st.fileStats().files()) {
      long holders = d.sched.state().nodes().stream()
          .filter(n -> st.cache(n.id()).contains(f)).count();
      assertThat(st.fileStats().numCopies(f)).as(f).isEqualTo((int) holders);
    }
    if (policy.equals("JDPDLL")) {
      assertThat(d.replicas).isPositive();
      assertThat(d.sched.state().counters().replicationTransfers).isEqualTo(d.replicas);
    } else {
      assertThat(d.replicas).isZero();
    }
    if (policy.equals("SA")) {
      assertThat(st.mode()).as("SA switched at least once").isNotNull();
    }
  }

  @ParameterizedTest
  @MethodSource("stagedPolicies")
  void sameEventsSameCommands(String policy) {
    List<String> a = simulate(policy, 5, 300).log;
    List<String> b = simulate(policy, 5, 300).log;
    assertThat(a).hasSizeGreaterThan(300).isEqualTo(b);
  }

  @ParameterizedTest
  @MethodSource("stagedPolicies")
  void aRebuiltStateDecidesLikeTheOriginal(String policy) {
    Mirror mirror = new Mirror();
    VirtualDriver original = new VirtualDriver(fresh(policy, mirror), CostModel.DEFAULT);
    List<Task> jobs = workload(23, 300);
    jobs.forEach(original::submit);
    double half = jobs.get(150).submitTime();
    original.runUntil(half);
    assertThat(original.sched.state().staging().cache("n1").files()).isNotEmpty();

    Scheduler rebuilt = new Scheduler("k", mirror.rebuild(), Policies.create(policy, Map.of()));
    VirtualDriver restored = original.fork(rebuilt);
    assertThat(rebuilt.state().queueLength()).isEqualTo(original.sched.state().queueLength());
    original.run();
    restored.run();
    assertThat(restored.log).hasSizeGreaterThan(100);
    assertThat(restored.log).isEqualTo(original.log.subList(
        original.log.size() - restored.log.size(), original.log.size()));
    assertThat(restored.completed).hasSize(300 - (original.completed.size() - restored.completed.size()));
  }

  /** What a durable store would hold: the journal's entries, one per key, as a map state would. */
  static final class Mirror implements StateJournal {
    final Map<String, Object[]> nodes = new HashMap<>();
    final Map<String, Object[]> tasks = new HashMap<>();
    final Map<String, Object[]> staged = new HashMap<>();
    final Map<String, long[]> stats = new HashMap<>();
    final Map<String, double[]> gantt = new HashMap<>();
    final Map<String, String> mapping = new HashMap<>();
    final Map<String, Object[]> stages = new HashMap<>();
    final Map<String, Integer> refs = new HashMap<>();
    String mode;

    private static String key(Object a, Object b) {
      return a + "\u0000" + b;
    }

    @Override
    public void nodeUpdated(NodeView n) {
      nodes.put(n.id(), new Object[] {n.slots(), n.cacheCapacity(), n.draining(),
          n.lastCacheSeq(), n.registeredAt(), n.endpoint(), n.freeSeq()});
    }

    @Override
    public void nodeRemoved(String node) {
      nodes.remove(node);
    }

    @Override
    public void taskUpdated(Task task, RunningTask running) {
      tasks.put(task.taskId(), new Object[] {task, running});
    }

    @Override
    public void taskRemoved(String taskId) {
      tasks.remove(taskId);
    }

    @Override
    public void stagedFileUpdated(String node, String file, long bytes, boolean inFlight,
        double lastUse) {
      staged.put(key(node, file), new Object[] {bytes, inFlight, lastUse});
    }

    @Override
    public void stagedFileRemoved(String node, String file) {
      staged.remove(key(node, file));
    }

    @Override
    public void fileStatsUpdated(String file, long accessFreq, int numCopies) {
      stats.put(file, new long[] {accessFreq, numCopies});
    }

    @Override
    public void ganttReserved(int storageNode, double start, double end) {
      gantt.put(key(storageNode, start), new double[] {storageNode, start, end});
    }

    @Override
    public void ganttDropped(int storageNode, double start) {
      gantt.remove(key(storageNode, start));
    }

    @Override
    public void taskMapped(String taskId, String node) {
      if (node == null) {
        mapping.remove(taskId);
      } else {
        mapping.put(taskId, node);
      }
    }

    @Override
    public void nodeStageUpdated(String node, String taskId, double plannedCompletion) {
      if (taskId == null) {
        stages.remove(node);
      } else {
        stages.put(node, new Object[] {taskId, plannedCompletion});
      }
    }

    @Override
    public void refCountUpdated(String node, String file, int count) {
      if (count == 0) {
        refs.remove(key(node, file));
      } else {
        refs.put(key(node, file), count);
      }
    }

    @Override
    public void policyModeUpdated(String mode) {
      this.mode = mode;
    }

    PoolState rebuild() {
      PoolState s = new PoolState(StateJournal.NONE, PoolState.DEFAULT_MAX_RETRIES);
      nodes.forEach((id, v) -> s.restoreNode(NodeView.restore(id, (int) v[0], (long) v[1],
          (boolean) v[2], (long) v[3], (double) v[4], (String) v[5], (long) v[6])));
      tasks.values().forEach(v -> {
        if (v[1] == null) {
          s.restoreQueued((Task) v[0]);
        } else {
          s.restoreRunning((RunningTask) v[1]);
        }
      });
      StagingState st = s.staging();
      staged.forEach((k, v) -> {
        String[] p = k.split("\u0000");
        st.restoreStagedFile(p[0], p[1], (long) v[0], (boolean) v[1], (double) v[2]);
      });
      stats.forEach((f, v) -> st.restoreFileStats(f, v[0], (int) v[1]));
      gantt.values().forEach(v -> st.restoreReservation((int) v[0], v[1], v[2]));
      mapping.forEach(st::restoreMapping);
      stages.forEach((n, v) -> st.restoreStage(n, (String) v[0], (double) v[1]));
      refs.forEach((k, c) -> {
        String[] p = k.split("\u0000");
        st.restoreRef(p[0], p[1], c);
      });
      if (mode != null) {
        st.restoreMode(mode);
      }
      st.finishRestore();
      s.finishRestore();
      return s;
    }
  }
}
