package io.locus.cli.sim;

import io.locus.sim.SimulationConfig;
import io.locus.sim.SimulationConfig.Provisioning;
import io.locus.sim.engine.RunResult;
import io.locus.sim.exec.ExecConfig;
import io.locus.sim.metrics.AbstractModel;
import io.locus.sim.metrics.DiffusionMetrics;
import io.locus.sim.metrics.Numbers;
import io.locus.sim.provision.LrmConfig;
import io.locus.workloads.Stacking;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * The experiment matrices of data-diffusion spec §5, by name. Each plan is a list of cases (a
 * workload and a configuration), which configuration is the FA baseline for speedups, whether PI is
 * normalised over the set, and the experiment's own result columns.
 */
public final class Experiments {
  /** One configuration of an experiment. */
  public record Case(String label, String workload, Map<String, String> workloadParams,
      SimulationConfig config, Map<String, String> tags) {}

  /** A measured case with its derived, set-relative values. */
  public record Row(Case c, RunResult<DiffusionMetrics> run, double speedup, double pi) {
    /** The run's data-diffusion measures. */
    public DiffusionMetrics r() {
      return run.detail();
    }
  }

  /**
   * A row of a plan's table: a label, a workload with its parameters, what the row changes on the
   * plan's base configuration, and tags for the columns. Rows apply in order to one builder, so a
   * setting a row makes stays for the rows after it unless they set it again.
   */
  private record CaseRow(String label, String workload, Map<String, String> workloadParams,
      UnaryOperator<SimulationConfig.Builder> config, Map<String, String> tags) {}

  private static CaseRow row(String label, String workload,
      UnaryOperator<SimulationConfig.Builder> config) {
    return new CaseRow(label, workload, Map.of(), config, Map.of());
  }

  /** The rows' cases on a base configuration (each labelled with its row's label). */
  private static List<Case> cases(SimulationConfig.Builder base, List<CaseRow> rows) {
    List<Case> cases = new ArrayList<>(rows.size());
    for (CaseRow r : rows) {
      cases.add(new Case(r.label(), r.workload(), r.workloadParams(),
          r.config().apply(base).label(r.label()).build(), r.tags()));
    }
    return cases;
  }

  /** A result-table column. */
  public record Column(String name, Function<Row, String> value) {}

  /** An experiment: its cases, baseline (a case label, or null) and extra columns. */
  public record Plan(String name, String description, List<Case> cases, String baseline,
      boolean performanceIndex, List<Column> extraColumns, String note) {}

  private record Entry(String summary, Function<Long, Plan> make) {}

  private static final Map<String, Entry> PLANS = new LinkedHashMap<>();

  static {
    PLANS.put("dd1-mi", new Entry("DD1: MI on DRP <= 64 nodes, FA vs GCC 1/1.5/2/4 GB, MCH, MCU",
        Experiments::dd1));
    PLANS.put("dd2-sw", new Entry("DD2: SW on 100 nodes, FA SRP vs GCC SRP vs GCC DRP (50 GB)",
        Experiments::dd2));
    PLANS.put("dd5-stacking", new Entry(
        "DD5: STACKING, MCU with caching vs FA, locality table x GZ/FIT on 64 nodes (reduced)",
        Experiments::dd5));
    PLANS.put("dd6-sched-micro", new Entry(
        "DD6: SCHED_MICRO on 32 nodes, decisions per second of scheduler CPU time",
        Experiments::dd6));
    PLANS.put("dd-eviction", new Entry(
        "Eviction that knows the queue: GCC with LRU, FIFO, LFU, RANDOM, VALUE, DEMAND on MI "
            + "1 / 1.5 GB (DD1 cluster) and SW 50 / 2 GB (DD2 cluster, SRP)",
        Experiments::eviction));
    PLANS.put("p2-stages18", new Entry(
        "P2: STAGES18, LRM_PER_TASK vs DRP idle 15/60/120/180 s vs 32 nodes held",
        Experiments::p2));
  }

  private Experiments() {}

  public static List<String> names() {
    return List.copyOf(PLANS.keySet());
  }

  /** "name: summary" lines, for help and error messages. */
  public static String describe() {
    StringBuilder sb = new StringBuilder();
    PLANS.forEach((n, e) ->
        sb.append("  ").append(n).append(": ").append(e.summary()).append('\n'));
    return sb.toString();
  }

  public static Plan plan(String name, long seed) {
    Entry e = PLANS.get(name == null ? null : name.toLowerCase(Locale.ROOT));
    if (e == null) {
      throw new IllegalArgumentException("unknown experiment '" + name + "'; valid: "
          + String.join(", ", names()));
    }
    return e.make().apply(seed);
  }

  // ------------------------------------------------------------------ DD1

  /** DD1's cluster: DRP up to 64 nodes x 2 slots, B_fs = 4 Gb/s, W = 2500, theta = 0.9. */
  static SimulationConfig.Builder dd1Base(long seed) {
    return SimulationConfig.builder().nodes(64).minNodes(1).slots(2)
        .provisioning(Provisioning.DRP).exec(ExecConfig.defaults(4.0)).window(2500).theta(0.9)
        .seed(seed);
  }

  private static Plan dd1(long seed) {
    SimulationConfig.Builder base = dd1Base(seed);
    List<Case> cases = cases(base, List.of(
        row("FA", "mi", b -> b.policy("FA").cacheGb(4)),
        row("GCC-1GB", "mi", b -> b.policy("GCC").cacheGb(1)),
        row("GCC-1.5GB", "mi", b -> b.policy("GCC").cacheGb(1.5)),
        row("GCC-2GB", "mi", b -> b.policy("GCC").cacheGb(2)),
        row("GCC-4GB", "mi", b -> b.policy("GCC").cacheGb(4)),
        row("MCH-4GB", "mi", b -> b.policy("MCH").cacheGb(4)),
        row("MCU-4GB", "mi", b -> b.policy("MCU").cacheGb(4))));
    return new Plan("dd1-mi", "DD1 (spec §5): MI, DRP up to 64 nodes x 2 slots, B_fs = 4 Gb/s, "
        + "W = 2500, theta = 0.9, LRU, cold caches", cases, "FA", true, ioColumns(),
        "Speedup is T(FA) / T(config); PI = (SP / CPU_T) / max over the set.");
  }

  // ------------------------------------------------------------------ DD2

  /** DD2's cluster: 100 nodes x 2 slots, B_fs = 8 Gb/s, 50 GB per node, W = 2500, theta 0.9. */
  static SimulationConfig.Builder dd2Base(long seed) {
    return SimulationConfig.builder().nodes(100).minNodes(1).slots(2)
        .exec(ExecConfig.defaults(8.0)).window(2500).theta(0.9).cacheGb(50).seed(seed);
  }

  private static Plan dd2(long seed) {
    SimulationConfig.Builder base = dd2Base(seed);
    List<Case> cases = cases(base, List.of(
        row("FA-SRP", "sw", b -> b.policy("FA").provisioning(Provisioning.SRP)),
        row("GCC-SRP", "sw", b -> b.policy("GCC").provisioning(Provisioning.SRP)),
        row("GCC-DRP", "sw", b -> b.policy("GCC").provisioning(Provisioning.DRP))));
    return new Plan("dd2-sw", "DD2 (spec §5): SW, 100 nodes x 2 slots, B_fs = 8 Gb/s, 50 GB cache "
        + "per node, W = 2500, theta = 0.9; DRP <= 100 nodes, idle release 30 s, cache reset",
        cases, "FA-SRP", true, ioColumns(),
        "Speedup is T(FA-SRP) / T(config); PI = (SP / CPU_T) / max over the set.");
  }

  private static List<Column> ioColumns() {
    return List.of(
        new Column("FS GB", row -> Numbers.fixed(row.r().io().bytes()[2] / 1e9, 1)),
        new Column("peer GB", row -> Numbers.fixed(row.r().io().bytes()[1] / 1e9, 1)),
        new Column("max SL", row -> Numbers.fixed(row.r().slowdown().max(), 2)));
  }

  // ------------------------------------------------------------------ DD5

  /**
   * Reduced grid (documented): all 9 localities x {GZ, FIT} x {FA, MCU} on 64 nodes only (the spec
   * sweeps 1 … 64 nodes too). Cache per node is not given for DD5; 50 GB (the AP testbed value) is
   * used so capacity never limits locality. Compute c_stack = 10 ms (§4.4 default).
   */
  /** DD5's cluster: SRP, 64 nodes x 2 slots, B_fs = 4 Gb/s, 50 GB per node. */
  static SimulationConfig.Builder dd5Base(long seed) {
    return SimulationConfig.builder().nodes(64).slots(2)
        .provisioning(Provisioning.SRP).exec(ExecConfig.defaults(4.0)).cacheGb(50).seed(seed);
  }

  private static Plan dd5(long seed) {
    SimulationConfig.Builder base = dd5Base(seed);
    List<CaseRow> rows = new ArrayList<>(); // the grid format x locality x policy
    for (String format : List.of("gz", "fit")) {
      for (Stacking.Row row : Stacking.TABLE) {
        for (String policy : List.of("FA", "MCU")) {
          rows.add(new CaseRow(policy + "-" + format + "-L" + row.locality(), "stacking",
              Map.of("locality", row.locality(), "format", format), b -> b.policy(policy),
              Map.of("locality", row.locality(), "format", format,
                  "ratio", Double.toString(row.ratio()))));
        }
      }
    }
    List<Case> cases = cases(base, rows);
    List<Column> cols = List.of(
        new Column("L", row -> row.c().tags().get("locality")),
        new Column("format", row -> row.c().tags().get("format")),
        new Column("ms/stack/CPU", row -> Numbers.fixed(1000 * row.r().times().completionTime()
            * row.r().setup().nodes() * row.r().setup().slots() / row.r().tasks().completed(), 2)),
        new Column("hit ratio", row -> Numbers.fixed(row.r().io().hitRatio(), 4)),
        new Column("ideal hit", row -> Numbers.fixed(AbstractModel.idealHitRatio(
            Double.parseDouble(row.c().tags().get("ratio"))), 4)),
        new Column("FS MB/stack", row -> Numbers.fixed(
            row.r().io().bytes()[2] / 1e6 / row.r().tasks().completed(), 3)),
        new Column("peer MB/stack", row -> Numbers.fixed(
            row.r().io().bytes()[1] / 1e6 / row.r().tasks().completed(), 3)));
    return new Plan("dd5-stacking", "DD5 (spec §5), reduced grid: STACKING at every locality of "
        + "§4.4, GZ and FIT, MCU with caching vs FA, 64 nodes x 2 slots, B_fs = 4 Gb/s, 50 GB "
        + "cache per node, cold caches, c_stack = 10 ms", cases, null, false, cols,
        "Reduced grid: 64 nodes only (the spec also sweeps 1 ... 64 nodes). Ideal hit ratio is "
            + "1 - 1/L with L = objects / files.");
  }

  // ------------------------------------------------------------------ DD6

  private static Plan dd6(long seed) {
    SimulationConfig.Builder base = SimulationConfig.builder().nodes(32).slots(2)
        .provisioning(Provisioning.SRP).exec(ExecConfig.defaults(4.0)).window(3200).theta(0.8)
        .cacheGb(4).seed(seed).measureSchedulerCpu(true);
    List<Case> cases = cases(base, List.of(
        new CaseRow("FA-no-IO", "sched-micro", Map.of("io", "false"), b -> b.policy("FA"),
            Map.of()),
        row("FA-FS", "sched-micro", b -> b.policy("FA")),
        row("MCU", "sched-micro", b -> b.policy("MCU")),
        row("MCH", "sched-micro", b -> b.policy("MCH")),
        row("GCC", "sched-micro", b -> b.policy("GCC"))));
    List<Column> cols = List.of(
        new Column("decisions", row -> Long.toString(row.r().scheduling().decisions())),
        new Column("sched CPU s", row -> Numbers.fixed(row.run().schedulerCpuSeconds(), 3)),
        new Column("decisions/CPU-s", row -> Numbers.fixed(
            DiffusionMetrics.decisionsPerCpuSecond(row.run()), 0)));
    return new Plan("dd6-sched-micro", "DD6 (spec §5): SCHED_MICRO (250,000 tasks at t = 0 over "
        + "10,000 files of 1 B), 32 nodes x 2 slots, W = 3200, theta = 0.8", cases, null, false,
        cols, "Scheduler CPU time is the JVM thread CPU time spent in the scheduler on this host: "
            + "Scheduler.dispatch and applying events to the pool state; it is the only "
            + "host-dependent number of the simulator.");
  }

  // ------------------------------------------------------------------ eviction (issue 16)

  /** The node-cache eviction policies compared, DEMAND last. */
  static final List<String> EVICTIONS = List.of("LRU", "FIFO", "LFU", "RANDOM", "VALUE", "DEMAND");

  /**
   * Issue 16: the same GCC runs under every eviction policy, where caches are short (MI at 1 and
   * 1.5 GB per node) and on SW (SRP as DD2's GCC-SRP, at its 50 GB per node and at 2 GB).
   */
  private static Plan eviction(long seed) {
    List<Case> cases = new ArrayList<>();
    for (double gb : new double[] {1, 1.5}) {
      for (String ev : EVICTIONS) {
        String label = "MI-" + (gb == 1 ? "1" : "1.5") + "GB-" + ev;
        cases.add(new Case(label, "mi", Map.of(), dd1Base(seed).policy("GCC").cacheGb(gb)
            .exec(ExecConfig.defaults(4.0).withEviction(ev)).label(label).build(), Map.of()));
      }
    }
    // SW at DD2's 50 GB never evicts; at 2 GB per node the caches are short, as MI's at 1 GB
    for (double gb : new double[] {50, 2}) {
      for (String ev : EVICTIONS) {
        String label = "SW-" + (int) gb + "GB-" + ev;
        cases.add(new Case(label, "sw", Map.of(), dd2Base(seed).policy("GCC").cacheGb(gb)
            .provisioning(Provisioning.SRP).exec(ExecConfig.defaults(8.0).withEviction(ev))
            .label(label).build(), Map.of()));
      }
    }
    List<Column> cols = new ArrayList<>(ioColumns());
    cols.add(new Column("evictions", row -> Long.toString(row.r().io().evictions())));
    return new Plan("dd-eviction", "Eviction that knows the queue (issue 16): GCC, W = 2500, "
        + "theta = 0.9; MI on DD1's cluster (DRP <= 64 nodes x 2 slots, B_fs = 4 Gb/s) with 1 and "
        + "1.5 GB per node; SW on DD2's (100 nodes x 2 slots, SRP, B_fs = 8 Gb/s) with 50 and 2 "
        + "GB per node",
        cases, null, false, cols, "FS GB: bytes read from the shared file system; DEMAND evicts "
            + "first what no queued task reads, VALUE by Khanna's AccessFreq / NumCopies.");
  }

  // ------------------------------------------------------------------ P2

  private static Plan p2(long seed) {
    SimulationConfig.Builder base = SimulationConfig.builder().nodes(32).minNodes(0).slots(1)
        .policy("FA").cacheGb(0).lrm(LrmConfig.withCapacity(100)).exec(ExecConfig.defaults(4.0))
        .seed(seed);
    List<Case> cases = cases(base, List.of(
        row("LRM_PER_TASK", "stages18", b -> b.provisioning(Provisioning.LRM_PER_TASK)),
        row("DRP-idle15", "stages18", b -> b.provisioning(Provisioning.DRP).idleSeconds(15)),
        row("DRP-idle60", "stages18", b -> b.provisioning(Provisioning.DRP).idleSeconds(60)),
        row("DRP-idle120", "stages18", b -> b.provisioning(Provisioning.DRP).idleSeconds(120)),
        row("DRP-idle180", "stages18", b -> b.provisioning(Provisioning.DRP).idleSeconds(180)),
        // idle release stays at 180 s, as for the row before; SRP does not release
        row("SRP-32", "stages18", b -> b.provisioning(Provisioning.SRP))));
    List<Column> cols = List.of(
        new Column("queue s", row -> Numbers.fixed(row.r().times().meanQueue(), 2)),
        new Column("exec s", row -> Numbers.fixed(row.r().times().meanExec(), 2)),
        new Column("exec %", row -> Numbers.fixed(100 * row.r().times().execTimeShare(), 1)),
        new Column("res. util %", row -> Numbers.fixed(100 * row.r().resources().utilisation(),
            1)),
        new Column("exec eff %", row -> Numbers.fixed(100 * row.r().times().efficiency(), 1)),
        new Column("allocations", row -> Long.toString(row.r().resources().allocations())),
        new Column("wasted CPU-s", row -> Numbers.fixed(row.r().resources().wastedCpuSeconds(),
            0)));
    return new Plan("p2-stages18", "P2 (spec §5): STAGES18, <= 32 machines x 1 slot, min 0, "
        + "all-at-once, LRM with 100 machines (U[30, 60] s, 0.5 requests/s)", cases, null, false,
        cols, "SRP-32 is 'DRP with 32 machines pre-provisioned and held': registered at t = 0, "
            + "so allocation time is excluded. Ideal time 1,260 s (E10).");
  }
}
