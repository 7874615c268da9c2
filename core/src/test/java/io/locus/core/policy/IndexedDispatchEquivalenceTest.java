package io.locus.core.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.Scheduler;
import io.locus.core.model.Command;
import io.locus.core.model.InputFile;
import io.locus.core.model.InputFetch;
import io.locus.core.model.Task;
import io.locus.core.state.PoolState;
import io.locus.core.state.RunningTask;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The indexed dispatch (DataAwareDispatch with the PoolState's DispatchIndex) decides exactly as
 * the window scan it replaced ({@link ReferenceWindowScan}). Both run side by side on the same
 * seeded random events: bursts of arrivals (tasks with 0 to 3 inputs, hot files, empty files),
 * completions that fill small LRU caches, failures re-queued at their old queue position,
 * evictions, nodes that register, drain and leave (cache reset), snapshots, and half-way a restore
 * of the indexed side from its journal (the index is then rebuilt). Every dispatch must give the same
 * commands, in the same order.
 */
class IndexedDispatchEquivalenceTest {
  private static final int FILES = 24;
  private static final int STEPS = 1600;

  /** {@code priorities}: tasks draw a priority in [-2, 2] (else all 0, the FIFO queue). */
  record Case(String policy, int window, double theta, int cacheFiles, boolean priorities) {
    Case(String policy, int window, double theta, int cacheFiles) {
      this(policy, window, theta, cacheFiles, false);
    }

    long seed() {
      return 31L * policy.hashCode() + 1009L * window + 7919L * cacheFiles + (long) (theta * 100)
          + (priorities ? 17 : 0);
    }

    @Override
    public String toString() {
      return policy + (policy.equals("GCC") ? " θ=" + theta : "") + " W=" + window + " cache="
          + cacheFiles + " files" + (priorities ? ", priorities" : "");
    }
  }

  static Stream<Case> cases() {
    List<Case> out = new ArrayList<>();
    for (int cache : new int[] {1, 3, 8}) {
      out.add(new Case("FA", 1, 0, cache));
      out.add(new Case("FCA", 1, 0, cache));
      for (int w : new int[] {1, 2, 5, 30}) {
        out.add(new Case("MCU", w, 0, cache));
        out.add(new Case("MCH", w, 0, cache));
        out.add(new Case("GCC", w, 0.5, cache));
        out.add(new Case("GCC", w, 0.9, cache));
      }
    }
    // priorities: the index is keyed by queue rank (priority, then seq) and part 2 ranks by
    // priority before the hit; the reference scans the queue, which is in that order
    for (int w : new int[] {1, 5, 30}) {
      out.add(new Case("MCU", w, 0, 3, true));
      out.add(new Case("MCH", w, 0, 3, true));
      out.add(new Case("GCC", w, 0.5, 3, true));
    }
    out.add(new Case("FA", 1, 0, 3, true));
    return out.stream();
  }

  private static Policy reference(Case c) {
    return switch (c.policy()) {
      case "FA" -> new FirstAvailable();
      case "FCA" -> new FirstCacheAvailable();
      default -> new ReferenceWindowScan(c.policy(), c.window(), c.theta());
    };
  }

  private static Policy indexed(Case c) {
    return Policies.create(c.policy(), Map.of("window", Integer.toString(c.window()),
        "theta", Double.toString(c.theta())));
  }

  /** What each run saw, so a run that exercised nothing interesting fails. */
  private static final class Seen {
    int placements;
    int maxQueue;
    int deferrals;
    int restores;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void indexedDispatchDecidesLikeTheWindowScan(Case c) {
    Seen seen = new Seen();
    runSideBySide(c, seen);
    assertThat(seen.placements).isGreaterThan(400);
    assertThat(seen.maxQueue).as("queue longer than the window").isGreaterThan(c.window());
    assertThat(seen.restores).isEqualTo(1);
    if (c.policy().equals("MCH")) {
      assertThat(seen.deferrals).as("dispatches that left free slots idle").isGreaterThan(0);
    }
  }

  private static void runSideBySide(Case c, Seen seen) {
    Random rnd = new Random(c.seed());
    DeterminismAndRestoreTest.Mirror mirror = new DeterminismAndRestoreTest.Mirror();
    Scheduler ref = new Scheduler("p", new PoolState(), reference(c));
    Scheduler idx = new Scheduler("p", new PoolState(mirror, PoolState.DEFAULT_MAX_RETRIES),
        indexed(c));
    if (c.policy().startsWith("F")) {
      idx.state().dispatchIndex(); // FA/FCA never use it: keeping it up to date must change nothing
    }
    Cluster cl = new Cluster(c.cacheFiles());
    long seq = 0;
    for (int i = 0; i < 4; i++) {
      cl.register(ref, idx, 1 + i % 3, rnd);
    }
    for (int step = 0; step < STEPS; step++) {
      if (step == STEPS / 2) {
        idx = new Scheduler("p", mirror.rebuild(mirror), indexed(c));
        seen.restores++;
      }
      int r = rnd.nextInt(100);
      boolean rush = (step / 150) % 2 == 0;
      List<RunningTask> running = new ArrayList<>(ref.state().running());
      running.sort(Comparator.comparingLong(x -> x.task().seq()));
      if (r < (rush ? 35 : 5)) {
        for (int k = 1 + rnd.nextInt(4); k > 0; k--) {
          Task t = task(++seq, step, rnd, c.priorities());
          ref.applyJobArrival(t);
          idx.applyJobArrival(t);
        }
      } else if (r < 75 && !running.isEmpty()) {
        RunningTask done = running.get(rnd.nextInt(running.size()));
        cl.read(ref, idx, done.node(), done.task().inputs(), rnd);
        Task t = done.task();
        ref.applyTaskCompleted(t.taskId(), t.attempt(), done.node(), 0, 0, 0);
        idx.applyTaskCompleted(t.taskId(), t.attempt(), done.node(), 0, 0, 0);
      } else if (r < 80 && !running.isEmpty()) {
        RunningTask failed = running.get(rnd.nextInt(running.size()));
        Task t = failed.task();
        ref.applyTaskFailed(t.taskId(), t.attempt(), failed.node());
        idx.applyTaskFailed(t.taskId(), t.attempt(), failed.node());
      } else if (r < 85) {
        cl.evictOne(ref, idx, rnd);
      } else if (r < 88) {
        cl.register(ref, idx, 1 + rnd.nextInt(3), rnd);
      } else if (r < 91) {
        cl.remove(ref, idx, rnd);
      } else if (r < 94) {
        String n = cl.pick(rnd);
        boolean draining = !ref.state().node(n).draining();
        ref.state().setDraining(n, draining);
        idx.state().setDraining(n, draining);
      } else if (r < 96) {
        cl.snapshot(ref, idx, rnd);
      }
      List<String> a = describe(ref.dispatch(step));
      List<String> b = describe(idx.dispatch(step));
      assertThat(b).as("%s, step %d", c, step).isEqualTo(a);
      seen.placements += a.size();
      seen.maxQueue = Math.max(seen.maxQueue, ref.state().queueLength());
      if (ref.state().queueLength() > 0 && ref.state().firstFree() != null) {
        seen.deferrals++;
      }
    }
    assertThat(idx.state().queue()).extracting(Task::taskId)
        .containsExactlyElementsOf(ref.state().queue().stream().map(Task::taskId).toList());
  }

  private static Task task(long seq, double now, Random rnd, boolean priorities) {
    int n = rnd.nextInt(20) == 0 ? 0 : 1 + rnd.nextInt(3);
    List<InputFile> in = new ArrayList<>();
    for (int k = 0; k < n; k++) {
      double x = rnd.nextDouble();
      int f = (int) (FILES * x * x); // a few hot files
      in.add(InputFile.of("f" + f, f < 2 ? 0 : f % 3 == 0 ? 1_000_000L : 10_000_000L));
    }
    int priority = priorities ? rnd.nextInt(5) - 2 : 0;
    return new Task("t" + seq, "t" + seq, 0, seq, in.stream().distinct().toList(), 1.0, now, null,
        List.of(), priority);
  }

  private static List<String> describe(List<Command> cmds) {
    List<String> out = new ArrayList<>();
    for (Command c : cmds) {
      Command.Run run = (Command.Run) c;
      StringBuilder sb = new StringBuilder(run.node()).append("<-").append(run.task().taskId())
          .append('/').append(run.task().attempt()).append(' ').append(run.reason());
      for (InputFetch f : run.inputs()) {
        sb.append(' ').append(f.unit().id()).append(':').append(f.source()).append(':')
            .append(f.peer());
      }
      out.add(sb.toString());
    }
    return out;
  }

  /** The executors' side: per-node LRU caches of a few files, reported as deltas to both states. */
  private static final class Cluster {
    final int capacity;
    final Map<String, LinkedHashMap<String, Long>> caches = new TreeMap<>();
    final Map<String, Long> cacheSeq = new HashMap<>();
    int nodes;

    Cluster(int capacity) {
      this.capacity = capacity;
    }

    String pick(Random rnd) {
      List<String> ids = new ArrayList<>(caches.keySet());
      return ids.get(rnd.nextInt(ids.size()));
    }

    void register(Scheduler a, Scheduler b, int slots, Random rnd) {
      if (caches.size() >= 8) {
        return;
      }
      String id = "n" + (++nodes);
      caches.put(id, new LinkedHashMap<>(16, 0.75f, true));
      a.state().registerNode(id, slots, 1_000_000_000L, null, 0);
      b.state().registerNode(id, slots, 1_000_000_000L, null, 0);
    }

    void remove(Scheduler a, Scheduler b, Random rnd) {
      if (caches.size() <= 2) {
        return;
      }
      String id = pick(rnd);
      caches.remove(id);
      a.state().removeNode(id);
      b.state().removeNode(id);
    }

    /** A task's reads: each input is touched or inserted, LRU victims beyond capacity go. */
    void read(Scheduler a, Scheduler b, String node, List<InputFile> inputs, Random rnd) {
      LinkedHashMap<String, Long> cache = caches.get(node);
      Map<String, Long> added = new LinkedHashMap<>();
      List<String> removed = new ArrayList<>();
      for (InputFile u : inputs) {
        if (cache.get(u.id()) == null) {
          cache.put(u.id(), u.bytes());
          added.put(u.id(), u.bytes());
        }
      }
      for (Iterator<String> it = cache.keySet().iterator(); cache.size() > capacity; ) {
        String victim = it.next();
        it.remove();
        if (added.remove(victim) == null) {
          removed.add(victim);
        }
      }
      delta(a, b, node, added, removed);
    }

    void evictOne(Scheduler a, Scheduler b, Random rnd) {
      String node = pick(rnd);
      LinkedHashMap<String, Long> cache = caches.get(node);
      if (cache.isEmpty()) {
        return;
      }
      List<String> files = new ArrayList<>(cache.keySet());
      String victim = files.get(rnd.nextInt(files.size()));
      cache.remove(victim);
      delta(a, b, node, Map.of(), List.of(victim));
    }

    /** A full report; sometimes the agent lost a file the scheduler still believed cached. */
    void snapshot(Scheduler a, Scheduler b, Random rnd) {
      String node = pick(rnd);
      LinkedHashMap<String, Long> cache = caches.get(node);
      if (!cache.isEmpty() && rnd.nextBoolean()) {
        cache.remove(cache.keySet().iterator().next());
      }
      long seq = cacheSeq.merge(node, 1L, Long::sum);
      a.state().applyCacheSnapshot(node, seq, new HashMap<>(cache));
      b.state().applyCacheSnapshot(node, seq, new HashMap<>(cache));
    }

    private void delta(Scheduler a, Scheduler b, String node, Map<String, Long> added,
        List<String> removed) {
      long seq = cacheSeq.merge(node, 1L, Long::sum);
      a.state().applyCacheDelta(node, seq, added, removed);
      b.state().applyCacheDelta(node, seq, added, removed);
    }
  }
}
