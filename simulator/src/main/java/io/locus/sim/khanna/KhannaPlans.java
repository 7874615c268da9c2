package io.locus.sim.khanna;

import io.locus.core.policy.PolicyRegistry;
import io.locus.sim.engine.RunResult;
import io.locus.workloads.TraceJob;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The Khanna experiments as data: per experiment, blocks of points and the tables written over
 * each block. A point is one series (a table row) at one x value: a policy configuration, a node
 * count and the trace of each seed. The grids below expand into those points in run order.
 */
final class KhannaPlans {
  /**
   * The registry's file policies that can have scheduler-staged caches, the model this simulator
   * has (storage nodes, Gantt charts), in registry order: the series of every table.
   */
  static final List<String> POLICIES = PolicyRegistry.fileNames(d -> d.cacheModel().staged());
  private static final List<Integer> JOBS = List.of(800, 1000, 1200, 1400, 1600);
  private static final List<String> ORDERS = List.of("clustered", "random");

  /** The trace of seed {@code seed} (1-based). */
  @FunctionalInterface
  interface Trace {
    List<TraceJob> jobs(long seed);
  }

  /** One series at one x: how to run it, and the progress line printed before. */
  record Point(String log, String series, int x, String policy, Map<String, String> params,
      int nodes, Trace trace) {}

  /** A table over a block's points: file name (without extension), title, x axis, metric. */
  record Table(String file, String title, String xLabel,
      ToDoubleFunction<RunResult<KhannaSimulation.Metrics>> metric) {}

  /** Points run together and the tables written over them. */
  record Block(List<Point> points, List<Table> tables) {}

  private static final Map<String, List<Block>> EXPERIMENTS = new LinkedHashMap<>();

  static {
    EXPERIMENTS.put("x5", x5());
    EXPERIMENTS.put("x6", x6());
    EXPERIMENTS.put("x8", x8());
    EXPERIMENTS.put("x9a", List.of(x9a()));
    EXPERIMENTS.put("x9b", List.of(x9b()));
    EXPERIMENTS.put("hps-budget", List.of(budget()));
    List<Block> all = new ArrayList<>();
    for (String n : List.of("x6", "x5", "x8", "x9a", "x9b", "hps-budget")) {
      all.addAll(EXPERIMENTS.get(n));
    }
    EXPERIMENTS.put("khanna-all", all);
  }

  private KhannaPlans() {}

  static List<String> names() {
    return List.copyOf(EXPERIMENTS.keySet());
  }

  static List<Block> blocks(String name) {
    List<Block> b = EXPERIMENTS.get(name);
    if (b == null) {
      throw new IllegalArgumentException("unknown Khanna experiment '" + name + "'; valid: "
          + String.join(", ", names()));
    }
    return b;
  }

  private static Trace workload(Map<String, String> params) {
    return seed -> KhannaExperiments.trace(params, seed);
  }

  private static Table response(String file, String title, String xLabel) {
    return new Table(file, title, xLabel, r -> r.detail().averageResponse());
  }

  /** X6 + X7: response and remote transfers vs N (Load ≈ N/800), all policies, both orderings. */
  private static List<Block> x6() {
    List<Block> blocks = new ArrayList<>();
    for (String order : ORDERS) {
      List<Point> ps = new ArrayList<>();
      for (String p : POLICIES) {
        for (int n : JOBS) {
          ps.add(new Point("x6 " + order + " " + p + " N=" + n, p, n, p, Map.of(), 4,
              workload(Map.of("n", "" + n, "order", order))));
        }
      }
      blocks.add(new Block(ps, List.of(
          response("x6-" + order, "X6 (" + order + "): average response time (s) vs N, "
              + "TLarrival 600 s, P = 4, HIGH overlap, Poisson", "N"),
          new Table("x7-" + order, "X7 (" + order + "): remote transfers (staging + "
              + "replication) vs N", "N", r -> r.detail().remoteTransfers()),
          new Table("x7-replication-" + order, "X7 (" + order + "): of which replication "
              + "transfers", "N", r -> r.detail().replicationTransfers()))));
    }
    return blocks;
  }

  /** X5: JDPDLL's replication threshold. */
  private static List<Block> x5() {
    List<Block> blocks = new ArrayList<>();
    for (String order : ORDERS) {
      List<Point> ps = new ArrayList<>();
      for (int thresh : new int[] {1, 2, 4}) {
        for (int n : JOBS) {
          ps.add(new Point("x5 " + order + " THRESH=" + thresh + " N=" + n,
              "JDPDLL THRESH=" + thresh, n, "JDPDLL", Map.of("thresh", "" + thresh), 4,
              workload(Map.of("n", "" + n, "order", order))));
        }
      }
      blocks.add(new Block(ps, List.of(response("x5-" + order, "X5 (" + order + "): JDPDLL "
          + "average response time (s) vs N by replication threshold", "N"))));
    }
    return blocks;
  }

  /** X8: compute nodes P ∈ {2, 4, 8, 16}, N = 1600. */
  private static List<Block> x8() {
    List<Block> blocks = new ArrayList<>();
    for (String order : ORDERS) {
      List<Point> ps = new ArrayList<>();
      for (String p : POLICIES) {
        for (int nodes : new int[] {2, 4, 8, 16}) {
          ps.add(new Point("x8 " + order + " " + p + " P=" + nodes, p, nodes, p, Map.of(),
              nodes, workload(Map.of("n", "1600", "order", order))));
        }
      }
      blocks.add(new Block(ps, List.of(response("x8-" + order, "X8 (" + order + "): average "
          + "response time (s) vs compute nodes P, N = 1600, TLarrival 600 s", "P"))));
    }
    return blocks;
  }

  /** X9a: Lublin arrivals, N = 1200, clustered. */
  private static Block x9a() {
    List<Point> ps = new ArrayList<>();
    for (String p : POLICIES) {
      ps.add(new Point("x9a " + p, p, 1200, p, Map.of(), 4,
          workload(Map.of("n", "1200", "arrivals", "lublin"))));
    }
    return new Block(ps, List.of(response("x9a", "X9a: average response time (s), Lublin "
        + "arrivals, N = 1200, clustered", "N")));
  }

  /** X9b: overlap levels at equal expected load (§4.5, D29); rows keyed by the level's N. */
  private static Block x9b() {
    int[] ns = {1200, 800, 400};
    String[] overlaps = {"high", "medium", "low"};
    List<Point> ps = new ArrayList<>();
    for (String p : POLICIES) {
      for (int level = 0; level < 3; level++) {
        int n = ns[level];
        String overlap = overlaps[level];
        ps.add(new Point("x9b " + p + " " + overlap, p, n, p, Map.of(), 4,
            seed -> KhannaExperiments.equalLoadTrace(n, overlap, seed)));
      }
    }
    return new Block(ps, List.of(
        response("x9b-response", "X9b: average response time (s) at equal expected load; "
            + "N = 1200 (HIGH), 800 (MEDIUM), 400 (LOW)", "N (overlap level)"),
        new Table("x9b-last", "X9b: time of the last completion (s)", "N (overlap level)",
            r -> r.detail().lastCompletion())));
  }

  /** The Online-HPS re-partitioning budget: response vs scheduler CPU, N = 1600 clustered. */
  private static Block budget() {
    String[][] settings = {{"0", "1"}, {"1", "1"}, {"5", "1"}, {"30", "1"}, {"0", "10"},
        {"0", "50"}};
    List<Point> ps = new ArrayList<>();
    for (String partitioner : List.of("GreedyKm1", "MultilevelKm1")) {
      for (String[] st : settings) {
        String label = partitioner + " Δ=" + st[0] + "s N=" + st[1];
        ps.add(new Point("budget " + label, label, 1600, "ONLINE_HPS",
            Map.of("partitioner", partitioner, "repartitionInterval", st[0],
                "repartitionEvents", st[1]), 4, workload(Map.of("n", "1600"))));
      }
    }
    return new Block(ps, List.of(
        response("hps-budget-response", "Online-HPS re-partitioning budget, N = 1600, "
            + "clustered: average response time (s)", "N"),
        new Table("hps-budget-cpu", "Online-HPS re-partitioning budget: scheduler CPU seconds "
            + "per run", "N", RunResult::schedulerCpuSeconds)));
  }
}
