package io.locus.cli.sim;

import io.locus.core.model.InputFile;
import io.locus.core.policy.PolicyDescriptor.Family;
import io.locus.core.policy.PolicyRegistry;
import io.locus.sim.Simulation;
import io.locus.sim.SimulationConfig;
import io.locus.sim.SimulationConfig.Provisioning;
import io.locus.sim.engine.RunResult;
import io.locus.sim.exec.ExecConfig;
import io.locus.sim.metrics.DiffusionMetrics;
import io.locus.sim.metrics.Numbers;
import io.locus.sim.output.Csv;
import io.locus.sim.output.Markdown;
import io.locus.sim.output.Plots;
import io.locus.sim.output.ResultFiles;
import io.locus.workloads.TraceJob;
import io.locus.workloads.Workload;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code locus experiment wfcommons}: what if a recorded workflow had run under each file policy?
 * Every policy runs on every instance in the data-diffusion simulator (DAG release, outputs cached
 * where they are created); the result is a table per instance and policy (makespan, mean response,
 * bytes moved and where input bytes came from), {@code wfcommons.csv}, {@code wfcommons.md}, bar
 * plots of makespan and bytes moved per instance, and the best policy per instance.
 *
 * <p>Policies: the data-diffusion five (FA, FCA, MCU, MCH, GCC) by default; COMPLEMENTARY_PLACE
 * on request. The Online-HPS family (MET, MCT, SA, JDPDLL, ONLINE_HPS) does not apply: those
 * policies plan transfers from storage nodes into node scratch space with Gantt charts of the
 * storage nodes' links (hypergraph spec), a model this cluster (one shared file system, node
 * caches that peers read from) does not have.
 *
 * <p>The cluster, unless given ({@link Sizing#of}): SRP (every node from t = 0), enough nodes for
 * the DAG's widest level, the data-diffusion bandwidths, and a cache that holds the largest file
 * plus half a node's even share of the rest, so that caches must evict.
 */
public final class WfCommonsExperiment {
  /** The experiment's name in {@code locus experiment}. */
  public static final String NAME = "wfcommons";

  /**
   * The default policies (the registry's data-diffusion family), and the --quick set (the
   * baseline and the two data-aware extremes).
   */
  public static final List<String> POLICIES = PolicyRegistry.family(Family.DATA_DIFFUSION);
  public static final List<String> QUICK_POLICIES = List.of("FA", "MCH", "GCC");

  /** Nodes are capped here (the data-diffusion testbed's size). */
  public static final int MAX_NODES = 64;
  public static final int DEFAULT_SLOTS = 2;
  /** Shared file system aggregate bandwidth, Gb/s (data-diffusion MI setting). */
  public static final double FS_GBPS = 4.0;

  /** What a user may fix; null = the rule's choice. */
  public record Overrides(Integer nodes, Integer slots, Double cacheGb, String eviction) {
    /** Node caches evict by LRU (the data-diffusion default). */
    public Overrides(Integer nodes, Integer slots, Double cacheGb) {
      this(nodes, slots, cacheGb, "LRU");
    }

    public Overrides {
      eviction = eviction == null ? "LRU" : eviction.toUpperCase(Locale.ROOT);
    }
  }

  /** The cluster one instance runs on, and how it was chosen. */
  public record Sizing(int nodes, int slots, long cacheBytes, int widestLevel, String rule) {
    /**
     * The rule: nodes = ⌈widest DAG level / slots⌉ within [1, {@value #MAX_NODES}] (a job's level is
     * 1 + its deepest parent's; jobs without parents are level 0); cache per node = the largest
     * file (input or output) + (every other distinct file's bytes) / (2 × nodes), rounded up to a
     * MB, so the largest file fits but a node cannot keep its share of the rest.
     */
    public static Sizing of(List<TraceJob> jobs, Overrides o) {
      int slots = o.slots() != null ? o.slots() : DEFAULT_SLOTS;
      int widest = WfCommonsExperiment.widestLevel(jobs);
      int nodes = o.nodes() != null ? o.nodes()
          : Math.max(1, Math.min(MAX_NODES, (widest + slots - 1) / slots));
      Map<String, Long> files = new HashMap<>();
      for (TraceJob j : jobs) {
        for (InputFile f : j.inputs()) {
          files.merge(f.id(), f.bytes(), Math::max);
        }
        for (InputFile f : j.outputs()) {
          files.merge(f.id(), f.bytes(), Math::max);
        }
      }
      long largest = 0;
      long total = 0;
      for (long b : files.values()) {
        largest = Math.max(largest, b);
        total += b;
      }
      long cache;
      String rule;
      if (o.cacheGb() != null) {
        cache = Math.round(o.cacheGb() * 1e9);
        rule = "cache given";
      } else {
        long rest = (total - largest + 2L * nodes - 1) / (2L * nodes);
        cache = (largest + rest + 999_999) / 1_000_000 * 1_000_000;
        rule = "cache = largest file + rest / (2 x nodes)";
      }
      String nodeRule = o.nodes() != null ? "nodes given"
          : "nodes = ceil(widest level " + widest + " / " + slots + " slots), max " + MAX_NODES;
      return new Sizing(nodes, slots, cache, widest, nodeRule + "; " + rule);
    }
  }

  /** One instance under one policy. */
  public record Row(String instance, String policy, RunResult<DiffusionMetrics> run,
      Sizing sizing) {
    DiffusionMetrics m() {
      return run.detail();
    }

    long bytes(int source) {
      return m().io().bytes()[source];
    }

    long bytesMoved() {
      return bytes(1) + bytes(2);
    }

    /** Local bytes over all input bytes read (NaN when nothing was read). */
    double localShare() {
      long read = m().io().bytesRead();
      return read == 0 ? Double.NaN : (double) bytes(0) / read;
    }
  }

  /** The columns of {@code wfcommons.csv}, in order. */
  public static final List<String> CSV_HEADER = List.of("instance", "policy", "makespan_s",
      "mean_response_s", "bytes_moved", "bytes_local", "bytes_peer", "bytes_storage",
      "local_share", "tasks", "completed");

  private final Path out;
  private final List<String> policies;
  private final Overrides overrides;
  private final long seed;
  private final boolean plots;
  private final PrintWriter log;

  public WfCommonsExperiment(Path out, List<String> policies, Overrides overrides, long seed,
      boolean plots, PrintWriter log) {
    this.out = out;
    this.policies = List.copyOf(policies);
    this.overrides = overrides;
    this.seed = seed;
    this.plots = plots;
    this.log = log;
  }

  /**
   * The policies to run: {@code requested} (case-insensitive, checked) or the default set. A policy
   * this cluster model cannot run, or an unknown one, is an IllegalArgumentException saying why.
   */
  public static List<String> policies(List<String> requested, boolean quick) {
    if (requested == null || requested.isEmpty()) {
      return quick ? QUICK_POLICIES : POLICIES;
    }
    List<String> out = new ArrayList<>();
    for (String p : requested) {
      String name = p.trim().toUpperCase(Locale.ROOT);
      // a registered policy (any spelling) whose caches are only ever scheduler-staged
      if (PolicyRegistry.find(name).filter(d -> !d.cacheModel().agent()).isPresent()) {
        throw new IllegalArgumentException("policy " + name + " does not apply to the "
            + "wfcommons what-if: the Online-HPS family plans transfers from storage nodes "
            + "(locus experiment khanna-*), this cluster has a shared file system and node caches;"
            + " valid: " + String.join(", ", SimulationConfig.POLICIES));
      }
      if (!SimulationConfig.POLICIES.contains(name)) {
        throw new IllegalArgumentException("unknown policy '" + p + "'; valid: "
            + String.join(", ", SimulationConfig.POLICIES));
      }
      if (!out.contains(name)) {
        out.add(name);
      }
    }
    return out;
  }

  /** Runs every policy on every instance and writes the report; returns the rows. */
  public List<Row> run(List<Workload> instances) throws IOException {
    Files.createDirectories(out);
    log.printf(Locale.ROOT, "Experiment %s: %d instances x %d policies (%s)%n", NAME,
        instances.size(), policies.size(), String.join(", ", policies));
    log.flush();
    List<Row> rows = new ArrayList<>();
    for (Workload w : instances) {
      List<TraceJob> jobs = w.toList();
      Sizing s = Sizing.of(jobs, overrides);
      log.printf(Locale.ROOT, "  %s: %d tasks, widest level %d: %d nodes x %d slots, cache %s GB"
          + " per node (%s)%n", w.name(), jobs.size(), s.widestLevel(), s.nodes(), s.slots(),
          Numbers.fixed(s.cacheBytes() / 1e9, 3), s.rule());
      log.flush();
      for (String policy : policies) {
        RunResult<DiffusionMetrics> r = Simulation.run(config(w.name(), policy, s, overrides,
            seed), w);
        Row row = new Row(w.name(), policy, r, s);
        rows.add(row);
        log.printf(Locale.ROOT, "    %-20s makespan %10s s  moved %8s GB  local %5.1f%%  %d/%d"
                + " done%s%n", policy, Numbers.seconds(r.detail().times().completionTime()),
            Numbers.fixed(row.bytesMoved() / 1e9, 2), 100 * row.localShare(),
            r.detail().tasks().completed(), r.detail().tasks().arrived(),
            r.complete() ? "" : " (" + r.ending() + ")");
        log.flush();
      }
    }
    report(rows);
    return rows;
  }

  /** One instance under one policy, sized as {@link #run} sizes it (the leaderboard's run). */
  static RunResult<DiffusionMetrics> simulate(Workload w, String policy, Overrides o, long seed) {
    return Simulation.run(config(w.name(), policy, Sizing.of(w.toList(), o), o, seed), w);
  }

  private static SimulationConfig config(String instance, String policy, Sizing s, Overrides o,
      long seed) {
    return SimulationConfig.builder().label(policy + "@" + instance).policy(policy)
        .provisioning(Provisioning.SRP).nodes(s.nodes()).minNodes(1).slots(s.slots())
        .cacheBytes(s.cacheBytes())
        .exec(ExecConfig.defaults(FS_GBPS).withEviction(o.eviction())).seed(seed).build();
  }

  /** The best run of each instance: every task completed, the least makespan, then bytes moved. */
  static Map<String, Row> best(List<Row> rows) {
    Map<String, Row> best = new LinkedHashMap<>();
    for (Row r : rows) {
      Row b = best.get(r.instance());
      if (b == null || better(r, b)) {
        best.put(r.instance(), r);
      }
    }
    return best;
  }

  private static boolean better(Row a, Row b) {
    boolean ca = a.run().complete() && a.m().tasks().dropped() == 0;
    boolean cb = b.run().complete() && b.m().tasks().dropped() == 0;
    if (ca != cb) {
      return ca;
    }
    int t = Double.compare(a.m().times().completionTime(), b.m().times().completionTime());
    return t != 0 ? t < 0 : a.bytesMoved() < b.bytesMoved();
  }

  static List<String> csvLine(Row r) {
    DiffusionMetrics m = r.m();
    return List.of(r.instance(), r.policy(), Csv.num(m.times().completionTime()),
        Csv.num(m.times().meanResponse()), Long.toString(r.bytesMoved()),
        Long.toString(r.bytes(0)), Long.toString(r.bytes(1)), Long.toString(r.bytes(2)),
        Csv.num(r.localShare()), Long.toString(m.tasks().arrived()),
        Long.toString(m.tasks().completed()));
  }

  private void report(List<Row> rows) throws IOException {
    Csv.write(out.resolve("wfcommons.csv"), CSV_HEADER, rows.stream()
        .map(WfCommonsExperiment::csvLine).toList());
    ResultFiles.summary(out.resolve("summary.csv"), rows.stream().map(Row::run).toList());
    Map<String, Row> best = best(rows);
    List<String> header = List.of("instance", "policy", "best", "makespan s", "mean resp s",
        "moved GB", "local GB", "peer GB", "storage GB", "local share", "tasks", "completed");
    List<List<String>> table = new ArrayList<>();
    for (Row r : rows) {
      table.add(List.of(r.instance(), r.policy(), best.get(r.instance()) == r ? "*" : "",
          Numbers.seconds(r.m().times().completionTime()),
          Numbers.seconds(r.m().times().meanResponse()), gb(r.bytesMoved()), gb(r.bytes(0)),
          gb(r.bytes(1)), gb(r.bytes(2)), Numbers.fixed(r.localShare(), 3),
          Long.toString(r.m().tasks().arrived()), Long.toString(r.m().tasks().completed())));
    }
    String md = markdown(rows, header, table, best);
    Files.writeString(out.resolve("wfcommons.md"), md, StandardCharsets.UTF_8);
    if (plots) {
      plot(rows);
    }
    log.println();
    log.print(Markdown.table(header, table));
    best.forEach((inst, r) -> log.printf(Locale.ROOT, "best for %s: %s%n", inst, r.policy()));
    log.println("Wrote " + out.toAbsolutePath().normalize());
    log.flush();
  }

  private static String gb(long bytes) {
    return Numbers.fixed(bytes / 1e9, 3);
  }

  private String markdown(List<Row> rows, List<String> header, List<List<String>> table,
      Map<String, Row> best) {
    StringBuilder sb = new StringBuilder("# wfcommons\n\n");
    sb.append("Every policy on every instance in the data-diffusion simulator: jobs released when"
        + " their parents completed, outputs created in the cache of the node that ran the job."
        + " SRP, B_fs = ").append(Numbers.fixed(FS_GBPS, 0)).append(" Gb/s, NIC 1 Gb/s, disk "
        + "1.1875 Gb/s, LRU, seed ").append(seed).append(".\n\n");
    Map<String, Sizing> sizes = new LinkedHashMap<>();
    rows.forEach(r -> sizes.putIfAbsent(r.instance(), r.sizing()));
    sb.append(Markdown.table(List.of("instance", "nodes", "slots", "cache GB", "widest level",
        "rule"), sizes.entrySet().stream().map(e -> List.of(e.getKey(),
        Integer.toString(e.getValue().nodes()), Integer.toString(e.getValue().slots()),
        Numbers.fixed(e.getValue().cacheBytes() / 1e9, 3),
        Integer.toString(e.getValue().widestLevel()), e.getValue().rule())).toList()));
    sb.append('\n').append(Markdown.table(header, table)).append('\n');
    sb.append("`*`: the best policy of the instance (every task completed, least makespan, then "
        + "fewest bytes moved). Makespan = last completion - first submission; bytes moved = "
        + "peer + storage; local share = local bytes / input bytes read.\n");
    return sb.toString();
  }

  private void plot(List<Row> rows) throws IOException {
    Map<String, Map<String, Double>> makespan = new LinkedHashMap<>();
    Map<String, Map<String, Double>> moved = new LinkedHashMap<>();
    for (Row r : rows) {
      makespan.computeIfAbsent(r.instance(), k -> new LinkedHashMap<>())
          .put(r.policy(), r.m().times().completionTime());
      moved.computeIfAbsent(r.instance(), k -> new LinkedHashMap<>())
          .put(r.policy(), r.bytesMoved() / 1e9);
    }
    Path dir = out.resolve("plots");
    for (String inst : makespan.keySet()) {
      String f = fileName(inst);
      Plots.bars(dir.resolve(f + "-makespan.png"), inst + ": makespan", "seconds",
          makespan.get(inst));
      Plots.bars(dir.resolve(f + "-bytes-moved.png"), inst + ": bytes moved (peer + storage)",
          "GB", moved.get(inst));
    }
  }

  /** An instance name as a file name: anything but letters, digits, '.', '-' and '_' becomes '_'. */
  static String fileName(String instance) {
    String s = instance.replaceAll("[^A-Za-z0-9._-]", "_");
    return s.isEmpty() || s.startsWith(".") ? "_" + s : s;
  }

  /** The DAG's widest level: jobs per level, level = 1 + the deepest parent's (roots: 0). */
  static int widestLevel(List<TraceJob> jobs) {
    Map<String, TraceJob> byId = new HashMap<>();
    jobs.forEach(j -> byId.put(j.jobId(), j));
    Map<String, Integer> level = new HashMap<>();
    Map<Integer, Integer> width = new HashMap<>();
    int widest = 0;
    for (TraceJob j : jobs) {
      int l = level(j, byId, level);
      int w = width.merge(l, 1, Integer::sum);
      widest = Math.max(widest, w);
    }
    return widest;
  }

  /** Iterative (deep DAGs would overflow a recursive walk); a cycle or unknown parent adds 0. */
  private static int level(TraceJob job, Map<String, TraceJob> byId, Map<String, Integer> level) {
    Integer known = level.get(job.jobId());
    if (known != null) {
      return known;
    }
    ArrayList<TraceJob> stack = new ArrayList<>();
    stack.add(job);
    java.util.Set<String> onStack = new java.util.HashSet<>();
    onStack.add(job.jobId());
    while (!stack.isEmpty()) {
      TraceJob j = stack.get(stack.size() - 1);
      int l = 0;
      boolean pending = false;
      for (String p : j.parents()) {
        TraceJob pj = byId.get(p);
        if (pj == null || onStack.contains(p) && !level.containsKey(p)) {
          continue;
        }
        Integer pl = level.get(p);
        if (pl == null) {
          stack.add(pj);
          onStack.add(p);
          pending = true;
          break;
        }
        l = Math.max(l, pl + 1);
      }
      if (!pending) {
        level.put(j.jobId(), l);
        stack.remove(stack.size() - 1);
      }
    }
    return level.get(job.jobId());
  }
}
