package io.locus.core.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The dispatch index updated event by event (cache adds and evictions change one node's relation
 * to the tasks of one file) equals, after every step, both the definition (best, partial, uncached
 * and zero-bytes sets computed from PoolState's public cached/maxCached) and an index rebuilt from
 * scratch. Seeded random steps: arrivals of tasks with zero to four inputs (some read a file twice,
 * some files are empty, file sizes differ so multi-input tasks have several holder tiers),
 * placements, completions, failures, cache adds, evictions, snapshots, drains, nodes leaving and
 * joining; with local queues (queueDepth > 0) also placements beyond the slots and queue-depth
 * changes. It also checks the notify step's candidate ({@link DispatchIndex#firstBestOfFree}, kept
 * ordered as nodes enter and leave the free pool) against the walk over the free pool it replaced.
 */
class DispatchIndexIncrementalTest {
  private static final int STEPS = 4000;
  private static final int FILES = 30;
  private static final int NODES = 8;

  @ParameterizedTest(name = "seed {0}, queue depth {1}")
  @CsvSource({"1, 0", "2, 0", "3, 0", "4, 0", "5, 0", "6, 0", "1, 2", "2, 2", "3, 1", "4, 3"})
  void theIncrementalIndexEqualsOneRebuiltFromScratchAfterEveryStep(long seed, int depth) {
    SplittableRandom rnd = new SplittableRandom(seed);
    PoolState s = new PoolState(StateJournal.NONE, 2);
    long[] sizes = new long[FILES];
    for (int f = 0; f < FILES; f++) {
      sizes[f] = f % 7 == 0 ? 0 : 1 + rnd.nextInt(4) * 100L; // empty files and several sizes
    }
    for (int i = 0; i < NODES / 2; i++) {
      s.registerNode(node(i), 1 + rnd.nextInt(2), depth, 1000, null, 0);
    }
    DispatchIndex ix = s.dispatchIndex();
    long seq = 0;
    int running = 0;
    int[] seen = new int[9];
    int beyondSlots = 0;
    for (int step = 0; step < STEPS; step++) {
      int kind = rnd.nextInt(100);
      List<NodeView> nodes = new ArrayList<>(s.nodes());
      if (kind < 25) {
        seq++;
        s.enqueue(task("t" + seq, seq, rnd, sizes));
        seen[0]++;
      } else if (kind < 40 && s.queueLength() > 0 && s.firstFree() != null) {
        List<Task> q = new ArrayList<>(s.queue());
        Task t = q.get(rnd.nextInt(q.size()));
        List<NodeView> free = new ArrayList<>(s.freePool());
        NodeView n = free.get(rnd.nextInt(free.size()));
        s.assign(t, n.id(), s.plan(t, n, true), "d" + step, step);
        seen[1]++;
      } else if (kind < 50 && !s.running().isEmpty()) {
        List<RunningTask> rs = new ArrayList<>(s.running());
        rs.sort((a, b) -> a.task().taskId().compareTo(b.task().taskId()));
        RunningTask r = rs.get(rnd.nextInt(rs.size()));
        if (rnd.nextInt(4) == 0) {
          s.fail(r.task().taskId(), r.task().attempt(), r.node());
          seen[2]++;
        } else {
          s.complete(r.task().taskId(), r.task().attempt(), r.node(), 0, 0, 0);
          seen[3]++;
        }
      } else if (kind < 72 && !nodes.isEmpty()) {
        NodeView n = nodes.get(rnd.nextInt(nodes.size()));
        Map<String, Long> added = new HashMap<>();
        int k = 1 + rnd.nextInt(3);
        for (int i = 0; i < k; i++) {
          int f = rnd.nextInt(FILES);
          added.put(file(f), sizes[f]);
        }
        s.applyCacheDelta(n.id(), n.lastCacheSeq() + 1, added, List.of());
        seen[4]++;
      } else if (kind < 90 && !nodes.isEmpty()) {
        NodeView n = nodes.get(rnd.nextInt(nodes.size()));
        List<String> cached = new ArrayList<>(new java.util.TreeSet<>(n.cached().keySet()));
        if (!cached.isEmpty()) {
          List<String> gone = List.of(cached.get(rnd.nextInt(cached.size())));
          s.applyCacheDelta(n.id(), n.lastCacheSeq() + 1, Map.of(), gone);
          seen[5]++;
        }
      } else if (kind < 94 && !nodes.isEmpty()) {
        NodeView n = nodes.get(rnd.nextInt(nodes.size()));
        Map<String, Long> snap = new HashMap<>();
        for (int f = 0; f < FILES; f++) {
          if (rnd.nextInt(5) == 0) {
            snap.put(file(f), sizes[f]);
          }
        }
        s.applyCacheSnapshot(n.id(), n.lastCacheSeq() + 1, snap);
        seen[6]++;
      } else if (kind < 97 && nodes.size() > 1) {
        s.removeNode(nodes.get(rnd.nextInt(nodes.size())).id());
        seen[7]++;
      } else if (kind < 99) {
        s.registerNode(node(rnd.nextInt(NODES)), 1 + rnd.nextInt(2), depth, 1000, null, step);
        seen[8]++;
      } else if (!nodes.isEmpty()) {
        NodeView n = nodes.get(rnd.nextInt(nodes.size()));
        if (depth > 0 && rnd.nextBoolean()) {
          s.setQueueDepth(n.id(), rnd.nextInt(depth + 1)); // a heartbeat with another depth
        } else {
          s.setDraining(n.id(), !n.draining());
        }
      }
      for (NodeView n : s.nodes()) {
        beyondSlots += n.beyondSlots() > 0 ? 1 : 0;
      }
      assertMatches(s, ix, step);
      running = Math.max(running, s.running().size());
    }
    assertThat(s.dispatchIndex()).isSameAs(ix); // the same index was kept up to date throughout
    for (int v : seen) {
      assertThat(v).as("every kind of step happened").isGreaterThan(5);
    }
    assertThat(running).isGreaterThan(0);
    if (depth > 0) {
      assertThat(beyondSlots).as("placements beyond the slots happened").isGreaterThan(50);
    }
  }

  private static String node(int i) {
    return "n" + i;
  }

  private static String file(int f) {
    return "f" + f;
  }

  private static Task task(String id, long seq, SplittableRandom rnd, long[] sizes) {
    int k = rnd.nextInt(10) < 5 ? 1 : rnd.nextInt(5); // half one-input, the rest 0 to 4 inputs
    List<InputFile> in = new ArrayList<>();
    for (int i = 0; i < k; i++) {
      // a narrow range of files for multi-input tasks, so they share holders and tie
      int f = rnd.nextInt(k == 1 ? FILES : 10);
      in.add(InputFile.of(file(f), sizes[f]));
    }
    return new Task(id, id, 0, seq, in, 1.0, 0, null, List.of(), 0);
  }

  /** The index against the definition and against a fresh index, node by node. */
  private static void assertMatches(PoolState s, DispatchIndex ix, int step) {
    TreeMap<Long, Task> q = new TreeMap<>();
    for (Task t : s.queue()) {
      q.put(t.seq(), t);
    }
    DispatchIndex fresh = new DispatchIndex(s, q);
    List<Task> uncached = new ArrayList<>();
    List<Task> zero = new ArrayList<>();
    for (Task t : q.values()) {
      long max = s.maxCached(t);
      assertThat(ix.maxCached(t)).as("step " + step + " maxCached of " + t.taskId())
          .isEqualTo(max);
      if (t.totalBytes() == 0) {
        zero.add(t);
      } else if (max == 0) {
        uncached.add(t);
      }
    }
    String at = "step " + step;
    Task walk = null; // the notify step's walk: the earliest first best task of a free node
    for (NodeView n : s.freePool()) {
      Task f = ix.firstBest(n);
      if (f != null && (walk == null || f.seq() < walk.seq())) {
        walk = f;
      }
    }
    assertThat(ix.firstBestOfFree()).as(at + " first best task of a free node").isEqualTo(walk)
        .isEqualTo(fresh.firstBestOfFree());
    assertThat(list(ix.uncached())).as(at + " uncached").isEqualTo(uncached)
        .isEqualTo(list(fresh.uncached()));
    assertThat(list(ix.zeroBytes())).as(at + " zero bytes").isEqualTo(zero)
        .isEqualTo(list(fresh.zeroBytes()));
    for (NodeView n : s.nodes()) {
      List<Task> best = new ArrayList<>();
      List<Task> partial = new ArrayList<>();
      for (Task t : q.values()) {
        long c = s.cached(t, n);
        long max = s.maxCached(t);
        if (c > 0 && c == max) {
          best.add(t);
        } else if (c > 0) {
          partial.add(t);
        }
      }
      assertThat(list(ix.best(n))).as(at + " best of " + n.id()).isEqualTo(best)
          .isEqualTo(list(fresh.best(n)));
      assertThat(list(ix.partial(n))).as(at + " partial of " + n.id()).isEqualTo(partial)
          .isEqualTo(list(fresh.partial(n)));
      assertThat(ix.firstBest(n)).isEqualTo(best.isEmpty() ? null : best.get(0));
    }
    // one window size, so the index keeps its boundary across steps instead of recomputing it
    int w = 5;
    long expected = q.size() >= w ? new ArrayList<>(q.keySet()).get(w - 1) : Long.MAX_VALUE;
    assertThat(ix.windowLast(w)).as(at + " window").isEqualTo(expected);
  }

  private static List<Task> list(Iterator<Task> it) {
    List<Task> out = new ArrayList<>();
    it.forEachRemaining(out::add);
    return out;
  }
}
