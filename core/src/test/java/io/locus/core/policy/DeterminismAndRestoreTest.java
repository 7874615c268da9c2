package io.locus.core.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.Scheduler;
import io.locus.core.model.Command;
import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import io.locus.core.state.NodeView;
import io.locus.core.state.PoolState;
import io.locus.core.state.RunningTask;
import io.locus.core.state.StateJournal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Same events in the same order give the same decisions; and a state rebuilt from what the
 * journal recorded (as the Flink operator does after a restore) goes on deciding identically.
 */
class DeterminismAndRestoreTest {

  /** What a durable store would hold: the journal's entries, keyed like the operator's MapStates. */
  static final class Mirror implements StateJournal {
    final Map<String, Object[]> nodes = new HashMap<>();
    final Map<String, Object[]> tasks = new HashMap<>();
    final Map<String, Long> cache = new HashMap<>();

    @Override
    public void nodeUpdated(NodeView n) {
      nodes.put(n.id(), new Object[] {n.slots(), n.cacheCapacity(), n.draining(), n.lastCacheSeq(),
          n.registeredAt(), n.endpoint(), n.freeSeq()});
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
    public void cacheAdded(String node, String file, long bytes) {
      cache.put(node + "\u0000" + file, bytes);
    }

    @Override
    public void cacheRemoved(String node, String file) {
      cache.remove(node + "\u0000" + file);
    }

    /** Rebuilds from the entries in hash order, as an unordered store would return them. */
    PoolState rebuild(StateJournal journal) {
      PoolState s = new PoolState(journal, PoolState.DEFAULT_MAX_RETRIES);
      nodes.forEach((id, v) -> s.restoreNode(NodeView.restore(id, (int) v[0], (long) v[1],
          (boolean) v[2], (long) v[3], (double) v[4], (String) v[5], (long) v[6])));
      cache.forEach((k, b) -> {
        String[] p = k.split("\u0000");
        s.restoreCacheEntry(p[0], p[1], b);
      });
      tasks.values().forEach(v -> {
        if (v[1] == null) {
          s.restoreQueued((Task) v[0]);
        } else {
          s.restoreRunning((RunningTask) v[1]);
        }
      });
      s.finishRestore();
      return s;
    }
  }

  /** A random mix of arrivals, completions and cache reports driven by a seeded generator. */
  private static List<String> run(Scheduler sched, Random rnd, int steps, Map<String, Long> seqs,
      int offset) {
    List<String> log = new ArrayList<>();
    for (int i = 0; i < steps; i++) {
      double now = offset + i;
      List<Command> cmds;
      int kind = rnd.nextInt(3);
      if (kind == 0 || sched.state().running().isEmpty()) {
        List<InputFile> in = new ArrayList<>();
        int n = 1 + rnd.nextInt(3);
        for (int k = 0; k < n; k++) {
          in.add(InputFile.of("f" + rnd.nextInt(40), 1 + rnd.nextInt(5) * 1_000_000L));
        }
        long seq = offset * 10_000L + i;
        cmds = sched.onJobArrival(new Task("t" + seq, "t" + seq, 0, seq,
            in.stream().distinct().toList(), 1.0, now, null, List.of(), 0), now);
      } else {
        RunningTask r = sched.state().running().stream()
            .min(Comparator.comparingLong(x -> x.task().seq())).orElseThrow();
        Map<String, Long> added = new HashMap<>();
        r.task().inputs().forEach(u -> added.put(u.id(), u.bytes()));
        long seq = seqs.merge(r.node(), 1L, Long::sum);
        sched.onCacheDelta(r.node(), seq, added, List.of(), now);
        cmds = kind == 1
            ? sched.onTaskCompleted(r.task().taskId(), r.task().attempt(), r.node(), 0, 0, 0, now)
            : sched.onTaskFailed(r.task().taskId(), r.task().attempt(), r.node(), now);
      }
      for (Command c : cmds) {
        Command.Run run = (Command.Run) c;
        log.add(run.node() + "<-" + run.task().taskId() + "/" + run.task().attempt() + " "
            + run.reason());
      }
    }
    return log;
  }

  /** GCC's θ for the policies that take it (EFT's caches model is auto here). */
  private static Map<String, String> params(String policy) {
    return Policies.parameters(policy).contains("theta") ? Map.of("theta", "0.6") : Map.of();
  }

  private static Scheduler fresh(String policy, StateJournal journal) {
    PoolState s = new PoolState(journal, PoolState.DEFAULT_MAX_RETRIES);
    Scheduler sched = new Scheduler("p", s, Policies.create(policy, params(policy)));
    for (int i = 0; i < 6; i++) {
      sched.onNodeRegistered("n" + i, 1 + i % 2, 1_000_000_000L, null, 0);
    }
    return sched;
  }

  /** The registry's policies that run on agent caches: a new one is covered without an edit. */
  static java.util.List<String> agentCachePolicies() {
    return PolicyRegistry.fileNames(d -> d.cacheModel().agent());
  }

  @ParameterizedTest
  @MethodSource("agentCachePolicies")
  void sameSeedSameDecisions(String policy) {
    List<String> a = run(fresh(policy, StateJournal.NONE), new Random(42), 400, new HashMap<>(), 1);
    List<String> b = run(fresh(policy, StateJournal.NONE), new Random(42), 400, new HashMap<>(), 1);
    assertThat(a).hasSizeGreaterThan(100).isEqualTo(b);
  }

  @ParameterizedTest
  @MethodSource("agentCachePolicies")
  void aRebuiltStateDecidesLikeTheOriginal(String policy) {
    Mirror mirror = new Mirror();
    Scheduler original = fresh(policy, mirror);
    Map<String, Long> seqs = new HashMap<>();
    run(original, new Random(1), 300, seqs, 1);

    Scheduler restored = new Scheduler("p", mirror.rebuild(StateJournal.NONE),
        Policies.create(policy, params(policy)));
    assertThat(restored.state().queueLength()).isEqualTo(original.state().queueLength());
    assertThat(restored.state().busySlots()).isEqualTo(original.state().busySlots());

    List<String> a = run(original, new Random(2), 300, new HashMap<>(seqs), 2);
    List<String> b = run(restored, new Random(2), 300, new HashMap<>(seqs), 2);
    assertThat(a).hasSizeGreaterThan(50).isEqualTo(b);
  }
}
