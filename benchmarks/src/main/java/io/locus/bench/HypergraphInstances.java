package io.locus.bench;

import io.locus.core.model.InputFile;
import io.locus.hypergraph.Hypergraph;
import io.locus.hypergraph.RandomHypergraphs;
import io.locus.workloads.KhannaImageTrace;
import io.locus.workloads.KhannaImageTrace.TraceCosts;
import io.locus.workloads.KhannaImageTrace.Options;
import io.locus.workloads.KhannaImageTrace.Overlap;
import io.locus.workloads.TraceJob;
import io.locus.workloads.Units;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The partitioner benchmark instances, by name.
 *
 * <ul>
 *   <li>{@code random-N-M-kK}: N unit vertices, M unit nets of 2–10 uniformly random pins
 *       (issue 4's 2,000 / 12,000 / k = 64 among them). No structure to find.
 *   <li>{@code planted-N-M-kK}: the same sizes, but 85 % of each net's pins fall in one of K
 *       equal blocks, so good partitions exist and the partitioners can be told apart.
 *   <li>{@code khanna-OVERLAP-N-kP}: a whole Khanna trace (spec §4, seed 1) as the hypergraph of
 *       §2.2 with every job pending: vertex = job, weight = EstimatedExec (Eq. 6, s_f = pins of the
 *       net, P = k); net = file requested by ≥ 2 jobs, cost = size in MiB.
 *   <li>{@code khanna-snapshot-W-kP}: what ONLINE_HPS partitions at one event: P running jobs
 *       (the first P arrivals, all files cached, weight Σ size·(1/LBW + C), fixed to their node)
 *       and the next W arrivals pending; nets and weights as BUILD_HYPERGRAPH of §2.2.
 * </ul>
 */
public final class HypergraphInstances {
  /** A hypergraph, the part count, ε and the fixed vertices (null: none). */
  public record Instance(String name, Hypergraph h, int k, double eps, int[] fixed) {}

  /** ε of the Online-HPS spec (§1.2); the random instances use 0.03, as hypergraph partitioning
   * benchmarks usually do. */
  static final double SPEC_EPS = 0.10;

  static final double RANDOM_EPS = 0.03;

  public static final List<String> DEFAULT = List.of(
      "random-2000-12000-k64", "random-500-3000-k16", "planted-2000-12000-k64",
      "khanna-high-1600-k4", "khanna-high-1600-k16", "khanna-medium-800-k4",
      "khanna-snapshot-200-k4");

  private HypergraphInstances() {}

  public static Instance byName(String name) {
    String[] t = name.split("-");
    try {
      switch (t[0]) {
        case "random", "planted" -> {
          int n = Integer.parseInt(t[1]);
          int m = Integer.parseInt(t[2]);
          int k = parseK(t[3]);
          Hypergraph h = t[0].equals("random")
              ? RandomHypergraphs.uniform(n, m, 2, 10, 1)
              : RandomHypergraphs.clustered(n, m, 2, 10, k, 0.85, 1);
          return new Instance(name, h, k, RANDOM_EPS, null);
        }
        case "khanna" -> {
          if (t[1].equals("snapshot")) {
            return khannaSnapshot(name, Integer.parseInt(t[2]), parseK(t[3]));
          }
          Overlap overlap = Overlap.valueOf(t[1].toUpperCase(java.util.Locale.ROOT));
          return khannaTrace(name, overlap, Integer.parseInt(t[2]), parseK(t[3]));
        }
        default -> throw new IllegalArgumentException("unknown instance family " + t[0]);
      }
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("bad instance name '" + name + "' (e.g. "
          + String.join(", ", DEFAULT) + "): " + e.getMessage(), e);
    }
  }

  private static int parseK(String s) {
    if (!s.startsWith("k")) {
      throw new IllegalArgumentException("expected kP, got " + s);
    }
    return Integer.parseInt(s.substring(1));
  }

  private static List<TraceJob> trace(Overlap overlap, int jobs) {
    Options o = new Options(jobs, overlap, KhannaImageTrace.Ordering.CLUSTERED,
        KhannaImageTrace.Arrivals.POISSON, KhannaImageTrace.DEFAULT_STORAGE_NODES,
        TraceCosts.DEFAULT);
    return KhannaImageTrace.workload(o, KhannaImageTrace.DEFAULT_TL_ARRIVAL, 1).toList();
  }

  static Instance khannaTrace(String name, Overlap overlap, int jobs, int p) {
    List<TraceJob> pending = trace(overlap, jobs);
    return build(name, pending, List.of(), p);
  }

  static Instance khannaSnapshot(String name, int pendingJobs, int p) {
    List<TraceJob> all = trace(Overlap.HIGH, Math.max(800, roundUp20(pendingJobs + p)));
    return build(name, all.subList(p, p + pendingJobs), all.subList(0, p), p);
  }

  private static int roundUp20(int x) {
    return (x + 19) / 20 * 20;
  }

  /**
   * BUILD_HYPERGRAPH of §2.2: pending jobs first (ids 0..), then one vertex per running job,
   * fixed to its node; running[k] has all of its files PRESENT in cache[k] (readStart = now).
   */
  private static Instance build(String name, List<TraceJob> pending, List<TraceJob> running,
      int p) {
    TraceCosts cost = new TraceCosts(TraceCosts.DEFAULT.rbw(), TraceCosts.DEFAULT.lbw(),
        TraceCosts.DEFAULT.c(), p);
    Map<String, List<Integer>> pins = new LinkedHashMap<>(); // file id → pins, insertion order
    Map<String, Long> bytes = new LinkedHashMap<>();
    for (int j = 0; j < pending.size(); j++) {
      for (InputFile f : pending.get(j).inputs()) {
        pins.computeIfAbsent(f.id(), x -> new ArrayList<>()).add(j);
        bytes.put(f.id(), f.bytes());
      }
    }
    for (int r = 0; r < running.size(); r++) {
      for (InputFile f : running.get(r).inputs()) {
        List<Integer> l = pins.get(f.id());
        if (l != null) { // only files some pending job requests have a net
          l.add(pending.size() + r);
        }
      }
    }
    Map<String, Integer> sf = new LinkedHashMap<>();
    pins.forEach((f, l) -> sf.put(f, l.size()));
    Hypergraph.Builder b = Hypergraph.builder();
    for (TraceJob j : pending) {
      b.addVertex(KhannaImageTrace.estimatedExec(j, sf, cost));
    }
    for (TraceJob r : running) {
      double w = 0;
      for (InputFile f : r.inputs()) {
        w += (double) f.bytes() / Units.MIB * (1 / cost.lbw() + cost.c());
      }
      b.addVertex(w);
    }
    for (var e : pins.entrySet()) {
      if (e.getValue().size() > 1) { // single-pin nets dropped after the weights (§2.2)
        b.addNet((double) bytes.get(e.getKey()) / Units.MIB,
            e.getValue().stream().mapToInt(Integer::intValue).toArray());
      }
    }
    int n = pending.size() + running.size();
    int[] fixed = null;
    if (!running.isEmpty()) {
      fixed = new int[n];
      Arrays.fill(fixed, -1);
      for (int r = 0; r < running.size(); r++) {
        fixed[pending.size() + r] = r;
      }
    }
    return new Instance(name, b.build(), p, SPEC_EPS, fixed);
  }
}
