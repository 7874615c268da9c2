package io.locus.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;

/**
 * The figures of {@link CoreScaleBenchmark} and {@link CacheIndexBenchmark} in CPU time of the
 * measuring thread rather than wall time: on a machine shared with other builds (this one often
 * runs at a load average of 5 to 25 on 2 cores) wall-clock throughput mostly measures the other
 * processes. Same fixture and operations; each figure is the median of {@code --reps} rounds of
 * {@code --seconds} CPU seconds, after one round of warm-up. GC and JIT threads are not counted.
 *
 * <pre>
 * java -Xmx3g -cp ... io.locus.bench.CoreScaleReport [--policies FA,MCU,MCH,GCC,EFT] [--seconds 2]
 *     [--reps 3] [--no-cache] [--small] [--queue-depth N] [--backlog N] [--files N] [--holders H]
 * </pre>
 */
public final class CoreScaleReport {
  private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

  private CoreScaleReport() {}

  public static void main(String[] args) throws Exception {
    String policies = "FA,MCU,MCH,GCC,EFT";
    double seconds = 2;
    int reps = 3;
    boolean cache = true;
    boolean small = false;
    int queueDepth = 0;
    int backlog = 100_000;
    int files = ScaleFixture.FILES;
    int holders = ScaleFixture.HOLDERS;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--policies" -> policies = args[++i];
        case "--seconds" -> seconds = Double.parseDouble(args[++i]);
        case "--reps" -> reps = Integer.parseInt(args[++i]);
        case "--no-cache" -> cache = false;
        case "--small" -> small = true; // DispatchBenchmark's 64 nodes and 5,000 queued instead
        case "--queue-depth" -> queueDepth = Integer.parseInt(args[++i]); // at scale only
        // at scale only; 0: nothing queued, every arrival finds the whole pool free
        case "--backlog" -> backlog = Integer.parseInt(args[++i]);
        // at scale only: the cached files and holders per file (--files 1000 --holders 1000:
        // every node holds every file, issue 25's no-idle case)
        case "--files" -> files = Integer.parseInt(args[++i]);
        case "--holders" -> holders = Integer.parseInt(args[++i]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    long budget = (long) (seconds * 1e9);
    for (String p : policies.split(",")) {
      Runnable op;
      java.util.function.Supplier<int[]> free;
      Placements c = new Placements();
      if (small) {
        DispatchBenchmark b = new DispatchBenchmark();
        b.policy = p;
        b.backlog = 5_000;
        b.setup();
        op = () -> b.completeAndArrive(c);
        free = b::freeNodes;
      } else {
        CoreScaleBenchmark b = new CoreScaleBenchmark();
        b.policy = p;
        b.backlog = backlog;
        b.queueDepth = queueDepth;
        b.files = files;
        b.holders = holders;
        b.setup();
        op = () -> b.completeAndArrive(c);
        free = b::freeNodes;
      }
      List<Double> rates = new ArrayList<>();
      for (int r = 0; r <= reps; r++) {
        c.placements = 0;
        long ops = 0;
        long t0 = CPU.getCurrentThreadCpuTime();
        long t;
        do {
          for (int k = 0; k < 256; k++) {
            op.run();
          }
          ops += 256;
          t = CPU.getCurrentThreadCpuTime() - t0;
        } while (t < budget);
        if (r > 0) {
          rates.add(c.placements / (t / 1e9));
        }
      }
      int[] f = free.get();
      System.out.printf("%-4s placements per CPU second%s%s: median %,.0f (rounds %s); free pool at"
          + " the end: %,d nodes, %,d with a free slot%n", p,
          queueDepth > 0 && !small ? " (queue depth " + queueDepth + ")" : "",
          !small && (files != ScaleFixture.FILES || holders != ScaleFixture.HOLDERS)
              ? " (" + files + " files × " + holders + " holders)" : "", median(rates),
          fmt(rates), f[0], f[1]);
    }
    if (!cache || small) {
      return;
    }
    for (int readers : new int[] {0, 1000}) {
      CacheIndexBenchmark b = new CacheIndexBenchmark();
      b.readers = readers;
      b.holders = 100;
      b.setup();
      List<Double> ns = new ArrayList<>();
      for (int r = 0; r <= reps; r++) {
        long ops = 0;
        long t0 = CPU.getCurrentThreadCpuTime();
        long t;
        do {
          for (int k = 0; k < 64; k++) {
            b.cacheAddThenEvict();
          }
          ops += 64;
          t = CPU.getCurrentThreadCpuTime() - t0;
        } while (t < budget);
        if (r > 0) {
          ns.add(t / (2.0 * ops)); // two events per operation
        }
      }
      System.out.printf("cache event (%s): median %,.0f ns of CPU per event (rounds %s)%n",
          readers == 0 ? "uniform file, ~1 queued reader, 3 holders"
              : "hot file, 1,000 queued readers, 100 holders", median(ns), fmt(ns));
      if (readers == 0) {
        lookup("holders of a file", b::holdersOfFile, budget, reps);
        lookup("maxCached of a queued task", b::maxCached, budget, reps);
        lookup("cached(t, e) of a queued task", b::cachedOnNode, budget, reps);
      }
    }
  }

  private static void lookup(String what, java.util.function.LongSupplier op, long budget,
      int reps) {
    List<Double> ns = new ArrayList<>();
    long sink = 0;
    for (int r = 0; r <= reps; r++) {
      long ops = 0;
      long t0 = CPU.getCurrentThreadCpuTime();
      long t;
      do {
        for (int k = 0; k < 1024; k++) {
          sink += op.getAsLong();
        }
        ops += 1024;
        t = CPU.getCurrentThreadCpuTime() - t0;
      } while (t < budget);
      if (r > 0) {
        ns.add((double) t / ops);
      }
    }
    System.out.printf("lookup, %s: median %,.0f ns of CPU (rounds %s)%s%n", what, median(ns),
        fmt(ns), sink == 42 ? " " : "");
  }

  private static double median(List<Double> a) {
    List<Double> b = new ArrayList<>(a);
    b.sort(null);
    return b.get(b.size() / 2);
  }

  private static String fmt(List<Double> a) {
    StringBuilder sb = new StringBuilder();
    for (double d : a) {
      sb.append(sb.length() == 0 ? "" : ", ").append(String.format("%,.0f", d));
    }
    return sb.toString();
  }
}
