package io.locus.bench;

import io.locus.core.model.Task;
import io.locus.core.state.PoolState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Heap per cache-index entry and per queued task, by heap deltas: used heap after repeated
 * {@code System.gc()} before and after building N of them, several repetitions, median.
 *
 * <pre>
 * java -Xmx4g -cp ... io.locus.bench.CoreMemoryReport [--tasks 1000000] [--reps 3]
 * </pre>
 *
 * <p>Cache index: {@link ScaleFixture}'s 1,000 nodes report 300,000 entries (100,000 files × 3
 * holders); the figure per entry includes PoolState's holder sets (file → nodes), every node's
 * cached map (file → bytes), and the file-id strings, each report building its own as a decoded
 * record would. Queued tasks: one-file tasks on that warm pool, with the data-aware queue index
 * (MCU/MCH/GCC) built and without it (FA), the Task records, their ids and the index entries
 * included.
 */
public final class CoreMemoryReport {
  private CoreMemoryReport() {}

  public static void main(String[] args) {
    int tasks = 1_000_000;
    int reps = 3;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--tasks" -> tasks = Integer.parseInt(args[++i]);
        case "--reps" -> reps = Integer.parseInt(args[++i]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    int entries = ScaleFixture.FILES * ScaleFixture.HOLDERS;
    double[] perEntry = new double[reps];
    double[] perTaskIndexed = new double[reps];
    double[] perTaskPlain = new double[reps];
    for (int r = 0; r < reps; r++) {
      PoolState s = new PoolState();
      for (int i = 0; i < ScaleFixture.NODES; i++) {
        s.registerNode(ScaleFixture.node(i), ScaleFixture.SLOTS, 4_000_000_000L, null, 0);
      }
      long before = used();
      fillCaches(s);
      perEntry[r] = (double) (used() - before) / entries;
      perTaskIndexed[r] = perTask(s, tasks, true);
      s = null;
      PoolState plain = new PoolState();
      for (int i = 0; i < ScaleFixture.NODES; i++) {
        plain.registerNode(ScaleFixture.node(i), ScaleFixture.SLOTS, 4_000_000_000L, null, 0);
      }
      fillCaches(plain);
      perTaskPlain[r] = perTask(plain, tasks, false);
      System.out.printf("rep %d: %.1f B per cache-index entry, %.1f B per queued task (indexed), "
          + "%.1f B (FA, no index)%n", r + 1, perEntry[r], perTaskIndexed[r], perTaskPlain[r]);
    }
    System.out.printf("median: %.1f B per cache-index entry (%d entries); per queued task %.1f B "
        + "indexed, %.1f B without index (%d tasks): 1,000,000 queued tasks = %.0f MB indexed%n",
        median(perEntry), entries, median(perTaskIndexed), median(perTaskPlain), tasks,
        median(perTaskIndexed) * 1_000_000 / 1e6);
  }

  private static void fillCaches(PoolState s) {
    List<Map<String, Long>> caches = new ArrayList<>();
    for (int i = 0; i < ScaleFixture.NODES; i++) {
      caches.add(new HashMap<>());
    }
    for (int f = 0; f < ScaleFixture.FILES; f++) {
      for (int k = 0; k < ScaleFixture.HOLDERS; k++) {
        // a new string per report, as each decoded record carries its own
        caches.get(ScaleFixture.holder(f, k)).put(new String(ScaleFixture.file(f)),
            ScaleFixture.FILE_BYTES);
      }
    }
    for (int i = 0; i < ScaleFixture.NODES; i++) {
      s.applyCacheSnapshot(ScaleFixture.node(i), 1, caches.get(i));
      caches.set(i, null);
    }
  }

  /** Bytes per task of enqueueing {@code n} tasks (nodes have no free slot in a PoolState alone). */
  private static double perTask(PoolState s, int n, boolean indexed) {
    if (indexed) {
      s.dispatchIndex();
    }
    SplittableRandom rnd = new SplittableRandom(7);
    long before = used();
    for (int i = 1; i <= n; i++) {
      Task t = ScaleFixture.task(i, rnd);
      s.enqueue(t);
    }
    long after = used();
    if (s.queueLength() != n) {
      throw new IllegalStateException("queued " + s.queueLength() + " of " + n);
    }
    return (double) (after - before) / n;
  }

  private static long used() {
    Runtime rt = Runtime.getRuntime();
    long last = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      System.gc();
      long u = rt.totalMemory() - rt.freeMemory();
      if (u >= last) {
        return Math.min(u, last);
      }
      last = u;
    }
    return last;
  }

  private static double median(double[] a) {
    double[] b = a.clone();
    Arrays.sort(b);
    return b[b.length / 2];
  }
}
