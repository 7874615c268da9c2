package io.locus.sim.cern;

import io.locus.core.split.EventCosts;
import io.locus.core.split.SplitParams;
import io.locus.sim.engine.RunResult;
import io.locus.sim.output.Csv;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;

/**
 * The experiments of CERN spec §5 in the simulator, each a sustainable-load sweep (§6.2) over
 * policy variants and cache sizes ({@link LoadSweep}). Writes, into the output directory:
 * {@code results.md} (the tables, also printed), {@code lmax.csv}, {@code curves.csv} (every grid
 * point: waiting, speedup, hit ratios, percentiles…), {@code runs.csv} (every seed),
 * {@code hist-<C>GB.csv} (waiting-time histograms, 1 h bins, at the grid point nearest 0.95 · Lmax)
 * and PNG plots of waiting and speedup versus load up to Lmax, the histograms and Lmax.
 */
public final class CernExperiments {
  /** Experiment names (lower case) with a one-line summary. */
  public static final Map<String, String> NAMES = new LinkedHashMap<>();

  static {
    NAMES.put("cern-load", "sustainable load per policy and cache: Lmax, waiting and speedup vs "
        + "load, waiting histograms near 0.95 Lmax, response percentiles");
    NAMES.put("cern-point", "one run (one load, seed 1) per policy and cache, with its wall time");
    NAMES.put("cern-e1", "E1: FARM, JOB_SPLITTING, CACHE_JOB_SPLITTING x 3 caches");
    NAMES.put("cern-e2", "E2: CACHE_JOB_SPLITTING vs OUT_OF_ORDER x 3 caches, histograms");
    NAMES.put("cern-e3", "E3: OUT_OF_ORDER +/- replication per cache, relative change, usage");
    NAMES.put("cern-e4", "E4: DELAYED d in {0,6h,12h,1d,2d,4d,1w} + OUT_OF_ORDER, 100 GB, S=5000"
        + " (with --caches-gb 50,100,200 its Lmax table is E6 vs d)");
    NAMES.put("cern-e5", "E5: DELAYED S in {200..25000}, 100 GB, d=2d (all caches: E6 vs S)");
    NAMES.put("cern-e7", "E7: ADAPTIVE_DELAY (needs --lmax-table from cern-e4) + OUT_OF_ORDER");
    NAMES.put("cern-e12", "E12: master load (scheduler CPU / simulated time) vs n, lambda = 0.1 n,"
        + " D and the pool scaled with n, 100 GB, DELAYED d = 30 days / n");
    NAMES.put("cern-e8", "E8: FARM and JOB_SPLITTING +/- tapePipelining");
    NAMES.put("cern-e9", "E9: OUT_OF_ORDER +/- tapePipelining per cache");
    NAMES.put("cern-e11", "E11: OUT_OF_ORDER none / tape / tape+disk pipelining per cache");
  }

  private final Path out;
  private final CernOptions o;
  private final int seeds;
  private final boolean plots;
  private final PrintWriter log;
  private final String command;

  public CernExperiments(Path out, CernOptions options, int seeds, boolean plots, PrintWriter log,
      String command) {
    this.out = out;
    this.o = options;
    this.seeds = seeds;
    this.plots = plots;
    this.log = log;
    this.command = command;
  }

  public static String describe() {
    StringBuilder sb = new StringBuilder();
    NAMES.forEach((n, d) -> sb.append("  ").append(n).append(": ").append(d).append('\n'));
    return sb.toString();
  }

  /** Parses "NAME[:k=v[:k=v…]]" into a variant labelled with the text given. */
  public static LoadSweep.Variant variant(String text) {
    String t = text.trim();
    int colon = t.indexOf(':');
    String policy = SplitParams.canonical(colon < 0 ? t : t.substring(0, colon));
    // parameters are separated by ':' before a "key=" (an lmaxTable value has ':' inside)
    String[] rest = colon < 0 ? new String[0] : t.substring(colon + 1).split(":(?=[A-Za-z]+=)");
    String[] parts = new String[rest.length + 1];
    System.arraycopy(rest, 0, parts, 1, rest.length);
    Map<String, String> params = new TreeMap<>();
    for (int i = 1; i < parts.length; i++) {
      String[] kv = parts[i].split("=", 2);
      if (kv.length != 2 || kv[0].isBlank()) {
        throw new IllegalArgumentException("variant '" + text + "': '" + parts[i]
            + "' is not key=value; write e.g. DELAYED:period=1d:stripe=2500");
      }
      params.put(kv[0].trim(), kv[1].trim());
    }
    Map<String, String> check = new TreeMap<>(params);
    check.put("cacheGb", "100");
    SplitParams.parse(policy, check); // fail now, with the parameter's message
    return new LoadSweep.Variant(text.trim(), policy, params);
  }

  private List<LoadSweep.Variant> variants(List<String> defaults) {
    List<String> names = o.policies != null && !o.policies.isEmpty() ? o.policies : defaults;
    List<LoadSweep.Variant> vs = new ArrayList<>();
    for (String n : names) {
      vs.add(variant(n));
    }
    return vs;
  }

  private List<Double> caches(List<Double> defaults) {
    List<Double> c = o.cachesGb != null && !o.cachesGb.isEmpty() ? o.cachesGb : defaults;
    for (double gb : c) {
      if (!(gb > 0)) {
        throw new IllegalArgumentException("--caches-gb: sizes must be > 0 GB, got " + gb);
      }
    }
    return c;
  }

  private static final List<Double> ALL_CACHES = List.of(50.0, 100.0, 200.0);
  private static final List<String> DELAYS = List.of("0", "6h", "12h", "1d", "2d", "4d", "1w");
  private static final List<String> STRIPES =
      List.of("200", "500", "1000", "2500", "5000", "10000", "25000");

  public void run(String name) throws IOException, InterruptedException {
    String key = name.toLowerCase(Locale.ROOT);
    if (!NAMES.containsKey(key)) {
      throw new IllegalArgumentException("unknown CERN experiment '" + name + "'; valid: "
          + String.join(", ", NAMES.keySet()));
    }
    if (o.jobs < 100) {
      throw new IllegalArgumentException("--jobs must be >= 100, got " + o.jobs);
    }
    if (seeds < 1) {
      throw new IllegalArgumentException("--seeds must be >= 1, got " + seeds);
    }
    if (o.threads < 1) {
      throw new IllegalArgumentException("--threads must be >= 1, got " + o.threads);
    }
    Files.createDirectories(out);
    List<LoadSweep.Variant> vs;
    List<Double> cs;
    String title;
    boolean inclWait = false;
    switch (key) {
      case "cern-load", "cern-point" -> {
        vs = variants(List.of("FARM", "JOB_SPLITTING", "CACHE_JOB_SPLITTING", "OUT_OF_ORDER",
            "OUT_OF_ORDER:replication=true", "DELAYED"));
        cs = caches(ALL_CACHES);
        title = key.equals("cern-point") ? "One run per policy and cache"
            : "Sustainable load per policy and cache (spec §6.2)";
      }
      case "cern-e1" -> {
        vs = variants(List.of("FARM", "JOB_SPLITTING", "CACHE_JOB_SPLITTING"));
        cs = caches(ALL_CACHES);
        title = "E1: FARM, JOB_SPLITTING, CACHE_JOB_SPLITTING";
      }
      case "cern-e2" -> {
        vs = variants(List.of("CACHE_JOB_SPLITTING", "OUT_OF_ORDER"));
        cs = caches(ALL_CACHES);
        title = "E2: CACHE_JOB_SPLITTING vs OUT_OF_ORDER";
      }
      case "cern-e3" -> {
        vs = variants(List.of("OUT_OF_ORDER", "OUT_OF_ORDER:replication=true"));
        cs = caches(ALL_CACHES);
        title = "E3: OUT_OF_ORDER with and without replication";
      }
      case "cern-e4" -> {
        List<String> d = new ArrayList<>();
        for (String delay : DELAYS) {
          d.add("DELAYED:period=" + delay + ":stripe=5000");
        }
        d.add("OUT_OF_ORDER");
        vs = variants(d);
        cs = caches(List.of(100.0));
        title = "E4: DELAYED over the period d (S = 5,000) and OUT_OF_ORDER; waiting excludes "
            + "the period delay (W_excl)";
      }
      case "cern-e5" -> {
        List<String> d = new ArrayList<>();
        for (String s : STRIPES) {
          d.add("DELAYED:period=2d:stripe=" + s);
        }
        vs = variants(d);
        cs = caches(List.of(100.0));
        title = "E5: DELAYED over the stripe size S (d = 2 days); waiting excludes the delay";
      }
      case "cern-e7" -> {
        if (o.lmaxTable == null || o.lmaxTable.isBlank()) {
          throw new IllegalArgumentException("cern-e7 needs --lmax-table d:Lmax,... (the Lmax of "
              + "DELAYED per period d at this cache and S, from cern-e4's lmax.csv)");
        }
        vs = variants(List.of("ADAPTIVE_DELAY:stripe=5000:lmaxTable="
            + o.lmaxTable.replace(',', ';'), "OUT_OF_ORDER"));
        cs = caches(List.of(100.0));
        title = "E7: ADAPTIVE_DELAY and OUT_OF_ORDER; waiting includes the delay (W_incl)";
        inclWait = true;
      }
      case "cern-e12" -> {
        vs = List.of();
        cs = List.of(100.0);
        title = "E12: scheduler cost vs n";
      }
      case "cern-e8" -> {
        vs = variants(List.of("FARM", "FARM:tapePipelining=true", "JOB_SPLITTING",
            "JOB_SPLITTING:tapePipelining=true"));
        cs = caches(List.of(100.0));
        title = "E8: FARM and JOB_SPLITTING with and without tape pipelining";
      }
      case "cern-e9" -> {
        vs = variants(List.of("OUT_OF_ORDER", "OUT_OF_ORDER:tapePipelining=true"));
        cs = caches(ALL_CACHES);
        title = "E9: OUT_OF_ORDER with and without tape pipelining";
      }
      case "cern-e11" -> {
        vs = variants(List.of("OUT_OF_ORDER", "OUT_OF_ORDER:tapePipelining=true",
            "OUT_OF_ORDER:tapePipelining=true:diskPipelining=true"));
        cs = caches(ALL_CACHES);
        title = "E11: OUT_OF_ORDER: no pipelining, tape, tape + disk";
      }
      default -> throw new IllegalStateException(key);
    }
    LoadSweep.Settings s = new LoadSweep.Settings(o.nodes, o.jobs, seeds, o.allSeeds, o.step,
        o.maxLoad, o.space, !o.uniform, o.measureCpu);
    ExecutorService pool = Executors.newFixedThreadPool(o.threads);
    try {
      LoadSweep sweep = new LoadSweep(s, pool, log);
      log.printf(Locale.ROOT, "%s: %s%n  %d variants x %d caches; %s%n", key, title, vs.size(),
          cs.size(), settingsLine(s));
      log.flush();
      if (key.equals("cern-point")) {
        point(sweep, vs, cs, s);
        return;
      }
      if (key.equals("cern-e12")) {
        scaling();
        return;
      }
      List<LoadSweep.Curve> curves = new ArrayList<>();
      for (double c : cs) {
        for (LoadSweep.Variant v : vs) {
          LoadSweep.Curve curve = sweep.sweep(v, c);
          curves.add(curve);
          log.printf(Locale.ROOT, "  %-30s %5.0f GB: Lmax = %s jobs/h (backlog test: %s; %d"
              + " points, %.0f s; scan stopped: %s)%n", v.label(), c, curve.lmaxText(),
              curve.lmaxBacklogText(), curve.points().size(), curve.wallSeconds(),
              curve.stop());
          log.flush();
          writeAll(key, title, s, curves, inclWait); // partial results survive an interruption
        }
      }
      String md = writeAll(key, title, s, curves, inclWait);
      log.println();
      log.print(md);
      log.println("Wrote " + out.toAbsolutePath().normalize());
      log.flush();
    } finally {
      pool.shutdownNow();
    }
  }

  private String settingsLine(LoadSweep.Settings s) {
    boolean reduced = s.jobs() < 20_000 || s.seeds() < 5 || Math.abs(s.step() - 0.05) > 1e-9
        || s.nodes() != 10;
    return String.format(Locale.ROOT, "n = %d nodes, %d jobs per run, %d seeds (sustainable: "
            + "%d of %d not overloaded), load step %.2f jobs/h, D = %d events%s%s%s",
        s.nodes(), s.jobs(), s.seeds(), s.seeds() / 2 + 1, s.seeds(), s.step(), s.space(),
        s.hotSpots() ? "" : ", uniform starts", s.allSeeds() ? ", all seeds run" : "",
        reduced ? ". REDUCED setting (the spec's protocol: n = 10, >= 20,000 jobs, 5 seeds, "
            + "step 0.05)" : ". The spec's protocol.");
  }

  private void point(LoadSweep sweep, List<LoadSweep.Variant> vs, List<Double> cs,
      LoadSweep.Settings s) throws IOException {
    List<String> header = List.of("variant", "cache_GB", "load", "wall_s", "sim_events",
        "measured", "overloaded", "wait_h", "speedup", "h", "h_remote");
    List<List<String>> rows = new ArrayList<>();
    for (double c : cs) {
      for (LoadSweep.Variant v : vs) {
        RunResult<CernSimulation.Metrics> r = sweep.runOne(v, c, o.load, 1);
        RunStats st = RunStats.of(List.of(r));
        List<String> row = List.of(v.label(), num(c), num(o.load), fix(r.wallSeconds(), 1),
            Long.toString(r.events()), Integer.toString(st.jobs()),
            Boolean.toString(r.detail().overloaded()), fix(st.waitExcl() / 3600, 3), fix(st.speedup(), 2),
            fix(st.hitRatio(), 3), fix(st.remoteRatio(), 3));
        rows.add(row);
        log.println("  " + String.join("  ", row));
        log.flush();
      }
    }
    Csv.write(out.resolve("point.csv"), header, rows);
    String md = "# cern-point\n\nOne run (seed 1) at " + num(o.load) + " jobs/h; "
        + settingsLine(s) + "\n\nCommand: `" + command + "`\n\n" + table(header, rows)
        + "\nWall seconds measure this host (shared, 2 cores) and are not model output.\n";
    Files.writeString(out.resolve("results.md"), md, StandardCharsets.UTF_8);
    log.print("\n" + md);
    log.flush();
  }

  /**
   * E12 (D30): for each n, one run per policy at λ = 0.1 · n jobs/h over D = 3,333,333 · n / 10
   * events, 100 GB per node, DELAYED with d = 30 days / n and S = 5,000; master load = scheduler
   * CPU time inside policy calls / simulated time. All jobs are measured (no sustainability test).
   */
  private void scaling() throws IOException {
    List<Integer> ns = o.nodeCounts != null && !o.nodeCounts.isEmpty() ? o.nodeCounts
        : List.of(10, 20, 50, 100, 200);
    List<String> names = o.policies != null && !o.policies.isEmpty() ? o.policies
        : List.of("FARM", "JOB_SPLITTING", "OUT_OF_ORDER", "DELAYED");
    List<String> header = List.of("variant", "n", "load", "D", "jobs", "sim_h",
        "scheduler_cpu_s", "master_load", "policy_calls", "us_per_call", "wall_s");
    List<List<String>> rows = new ArrayList<>();
    for (int n : ns) {
      if (n < 1) {
        throw new IllegalArgumentException("--node-counts: n must be >= 1, got " + n);
      }
      long space = Math.round(3_333_333.0 * n / 10);
      double load = 0.1 * n;
      Map<String, String> wp = new LinkedHashMap<>();
      wp.put("n", Integer.toString(o.jobs));
      wp.put("load", Double.toString(load));
      wp.put("space", Long.toString(space));
      wp.put("hotspots", Boolean.toString(!o.uniform));
      List<io.locus.workloads.TraceJob> jobs = io.locus.workloads.Workloads.create("cern", wp, 1)
          .toList();
      double last = jobs.get(jobs.size() - 1).arrival();
      for (String name : names) {
        LoadSweep.Variant v0 = variant(name);
        Map<String, String> params = new TreeMap<>(v0.params());
        params.put("cacheGb", "100");
        if (v0.policy().equals("DELAYED") && !params.containsKey("period")) {
          params.put("period", Double.toString(30 * 86_400.0 / n));
          params.putIfAbsent("stripe", "5000");
        }
        RunResult<CernSimulation.Metrics> r = CernSimulation.run(new CernSimulation.Config(v0.policy(),
            params, n, true), jobs, new CernSimulation.Window(0, last + 1, false, 0));
        List<String> row = List.of(v0.label(), Integer.toString(n), num(load), Long.toString(space),
            Integer.toString(o.jobs), fix(r.endTime() / 3600, 1),
            fix(r.schedulerCpuSeconds(), 3), String.format(Locale.ROOT, "%.3e", r.schedulerLoad()),
            Long.toString(r.detail().policyCalls()),
            fix(1e6 * r.schedulerCpuSeconds() / r.detail().policyCalls(), 1), fix(r.wallSeconds(), 1));
        rows.add(row);
        log.println("  " + String.join("  ", row));
        log.flush();
      }
    }
    Csv.write(out.resolve("e12.csv"), header, rows);
    String md = "# cern-e12\n\nE12 (D30): master load vs n; " + o.jobs + " jobs per run, seed 1, "
        + "lambda = 0.1 n jobs/h, D = 3,333,333 n / 10 events, 100 GB per node, DELAYED with "
        + "d = 30 days / n and S = 5,000. Master load = scheduler CPU time inside policy calls "
        + "(this host's JVM thread CPU time) / simulated time.\n\nCommand: `" + command
        + "`\n\n" + table(header, rows) + "\nCPU and wall seconds measure this host (2 shared "
        + "cores); they are not model output.\n";
    Files.writeString(out.resolve("results.md"), md, StandardCharsets.UTF_8);
    if (plots) {
      XYChart ch = chart("E12: master load vs n", "nodes n", "scheduler CPU / simulated time");
      ch.getStyler().setYAxisLogarithmic(true);
      ch.getStyler().setXAxisLogarithmic(true);
      Map<String, List<double[]>> byVariant = new LinkedHashMap<>();
      for (List<String> r : rows) {
        double ml = Double.parseDouble(r.get(7));
        if (ml > 0) {
          byVariant.computeIfAbsent(r.get(0), k -> new ArrayList<>())
              .add(new double[] {Double.parseDouble(r.get(1)), ml});
        }
      }
      byVariant.forEach((k, pts) -> ch.addSeries(k, pts.stream().mapToDouble(p -> p[0]).toArray(),
          pts.stream().mapToDouble(p -> p[1]).toArray()));
      save(ch, "e12-master-load");
    }
    log.print("\n" + md);
    log.flush();
  }

  // ------------------------------------------------------------------ reports

  private String writeAll(String key, String title, LoadSweep.Settings s,
      List<LoadSweep.Curve> curves, boolean inclWait) throws IOException {
    writeCurves(curves);
    writeRuns(curves);
    List<Double> cacheList = new ArrayList<>();
    for (LoadSweep.Curve c : curves) {
      if (!cacheList.contains(c.cacheGb())) {
        cacheList.add(c.cacheGb());
      }
    }
    for (double c : cacheList) {
      List<LoadSweep.Curve> cc = curves.stream().filter(x -> x.cacheGb() == c).toList();
      writeHistograms(c, cc);
      if (plots) {
        plotCurves(c, cc, inclWait);
      }
    }
    if (plots) {
      plotLmax(curves);
    }
    StringBuilder md = new StringBuilder();
    md.append("# ").append(key).append("\n\n").append(title).append(".\n\n")
        .append(settingsLine(s)).append(".\n\nCommand: `").append(command).append("`\n\n");
    md.append(String.format(Locale.ROOT, "Maximal theoretical load (spec §1.4, n = %d): %.2f "
        + "jobs/h.%n%n", s.nodes(), EventCosts.maximalTheoreticalLoad(s.nodes(), 40_000)));
    md.append("## Sustainable load Lmax (jobs/h): the spec's test / the backlog test / both "
        + "tests and the capacity check\n\n");
    md.append(lmaxTable(curves, cacheList)).append('\n');
    md.append("## At the grid point nearest 0.95 Lmax\n\n");
    md.append(nearTable(curves, inclWait)).append('\n');
    String[][] pairs = {
        {"OUT_OF_ORDER", "OUT_OF_ORDER:replication=true",
            "Replication (E3): relative change per load, with vs without"},
        {"OUT_OF_ORDER", "OUT_OF_ORDER:tapePipelining=true",
            "Tape pipelining (E9): relative change per load, tape vs none"},
        {"OUT_OF_ORDER:tapePipelining=true",
            "OUT_OF_ORDER:tapePipelining=true:diskPipelining=true",
            "E11: tape + disk vs tape only"},
        {"OUT_OF_ORDER", "OUT_OF_ORDER:tapePipelining=true:diskPipelining=true",
            "E11: tape + disk vs none"},
        {"FARM", "FARM:tapePipelining=true", "E8: FARM, tape pipelining vs none"},
        {"JOB_SPLITTING", "JOB_SPLITTING:tapePipelining=true",
            "E8: JOB_SPLITTING, tape pipelining vs none"}};
    for (String[] pair : pairs) {
      boolean a = curves.stream().anyMatch(c -> c.variant().label().equals(pair[0]));
      boolean b = curves.stream().anyMatch(c -> c.variant().label().equals(pair[1]));
      if (a && b) {
        md.append("## ").append(pair[2]).append("\n\n")
            .append(relativeTable(curves, pair[0], pair[1])).append('\n');
      }
    }
    md.append("Waiting is W_excl (start minus the end of the arrival period; the same as W_incl "
        + "for policies without periods) unless the title says otherwise; speedup is N_J x 0.8 s "
        + "/ processing time; h counts events read from the processing node's cache, h_remote "
        + "those read from another node's cache. The backlog test applies the spec's quarter rule "
        + "to the time-averaged events of arrived, unfinished jobs (Q4 > 2 x Q2 + one hour of the "
        + "pool's tape work), because waiting times need not grow under overload when jobs may "
        + "overtake each other. cap(h) is spec §1.4's capacity with the measured hit ratios, "
        + "n x 3600 / (40,000 x (h c_hit + h_remote c_remote + (1 - h - h_remote) c_miss)): no "
        + "policy sustains a load above it. The third Lmax (\"Lmax used\", where the curves and "
        + "the near-Lmax point are cut) is the largest load such that it and every smaller grid "
        + "load pass both tests and lie at or below their cap(h). \">=\" marks a test that had "
        + "not failed when the scan stopped (at --max-load, above the maximal theoretical load, "
        + "or where the warm-up exceeds an eighth of the measured window so that no quarter rule "
        + "can see an overload; see lmax.csv, scan_stopped). Full "
        + "per-point metrics: curves.csv; per seed: runs.csv; histograms: hist-*.csv.\n");
    Files.writeString(out.resolve("results.md"), md.toString(), StandardCharsets.UTF_8);
    return md.toString();
  }

  private String lmaxTable(List<LoadSweep.Curve> curves, List<Double> cacheList) {
    List<String> header = new ArrayList<>(List.of("variant"));
    for (double c : cacheList) {
      header.add(num(c) + " GB");
    }
    Map<String, List<String>> rows = new LinkedHashMap<>();
    for (LoadSweep.Curve c : curves) {
      List<String> r = rows.computeIfAbsent(c.variant().label(), k -> {
        List<String> l = new ArrayList<>(List.of(k));
        for (int i = 0; i < cacheList.size(); i++) {
          l.add("-");
        }
        return l;
      });
      r.set(1 + cacheList.indexOf(c.cacheGb()), c.lmaxText() + " / " + c.lmaxBacklogText()
          + " / " + c.checkedText());
    }
    return table(header, new ArrayList<>(rows.values()));
  }

  /** λ_cap for a point's measured mix (see {@link RunStats#capacityLoad}). */
  private double capacity(LoadSweep.Curve c, LoadSweep.Point p) {
    Map<String, String> params = new TreeMap<>(c.variant().params());
    params.put("cacheGb", "100");
    return p.stats().capacityLoad(o.nodes, SplitParams.parse(c.variant().policy(), params)
        .costs());
  }

  private String nearTable(List<LoadSweep.Curve> curves, boolean inclWait) {
    List<String> header = List.of("variant", "cache GB", "Lmax used", "load", "cap(h)", "seeds",
        inclWait ? "W_incl h" : "wait h", "wait p90 h", "speedup", "h", "h_remote", "resp p50 h",
        "resp p90 h", "resp p99 h", "starved %", "replicating %");
    List<List<String>> rows = new ArrayList<>();
    for (LoadSweep.Curve c : curves) {
      LoadSweep.Point p = c.nearLmax();
      if (p == null) {
        rows.add(List.of(c.variant().label(), num(c.cacheGb()), fix(c.reportLmax(), 2), "-", "-",
            "-", "-",
            "-", "-", "-", "-", "-", "-", "-", "-", "-"));
        continue;
      }
      RunStats st = p.stats();
      rows.add(List.of(c.variant().label(), num(c.cacheGb()), fix(c.reportLmax(), 2),
          fix(p.load(), 2), fix(capacity(c, p), 2), Integer.toString(p.runs().size()),
          fix((inclWait ? st.waitIncl() : st.waitExcl()) / 3600, 2), fix(st.waitP90() / 3600, 2),
          fix(st.speedup(), 2), fix(st.hitRatio(), 3), fix(st.remoteRatio(), 3),
          fix(st.responseP50() / 3600, 2), fix(st.responseP90() / 3600, 2),
          fix(st.responseP99() / 3600, 2), fix(100 * st.starvationShare(), 2),
          fix(100 * st.replicationShare(), 2)));
    }
    return table(header, rows);
  }

  /** Per cache and common sustainable load: speedup and wait of {@code b} relative to {@code a}. */
  private String relativeTable(List<LoadSweep.Curve> curves, String a, String b) {
    List<String> header = List.of("cache GB", "load", "speedup " + a, "speedup " + b,
        "speedup change %", "wait h " + a, "wait h " + b, "wait change %", "replicating % " + b);
    List<List<String>> rows = new ArrayList<>();
    for (LoadSweep.Curve ca : curves) {
      if (!ca.variant().label().equals(a)) {
        continue;
      }
      for (LoadSweep.Curve cb : curves) {
        if (!cb.variant().label().equals(b) || cb.cacheGb() != ca.cacheGb()) {
          continue;
        }
        for (LoadSweep.Point pa : ca.sustainable()) {
          for (LoadSweep.Point pb : cb.sustainable()) {
            if (Math.abs(pa.load() - pb.load()) < 1e-9) {
              RunStats x = pa.stats();
              RunStats y = pb.stats();
              rows.add(List.of(num(ca.cacheGb()), fix(pa.load(), 2), fix(x.speedup(), 2),
                  fix(y.speedup(), 2), fix(100 * (y.speedup() / x.speedup() - 1), 1),
                  fix(x.waitExcl() / 3600, 3), fix(y.waitExcl() / 3600, 3),
                  x.waitExcl() > 0 ? fix(100 * (y.waitExcl() / x.waitExcl() - 1), 1) : "-",
                  fix(100 * y.replicationShare(), 1)));
            }
          }
        }
      }
    }
    return rows.isEmpty() ? "(no common sustainable load)\n" : table(header, rows);
  }

  private void writeCurves(List<LoadSweep.Curve> curves) throws IOException {
    List<String> header = List.of("variant", "cache_GB", "load", "seeds_run", "overloaded",
        "sustainable", "measured_jobs", "wait_excl_h", "wait_incl_h", "processing_h",
        "response_h", "speedup", "h", "h_remote", "starvation_share", "replication_share",
        "master_load", "wait_p50_h", "wait_p90_h", "wait_p99_h", "resp_p50_h", "resp_p90_h",
        "resp_p99_h", "within_lmax", "backlog_overloaded", "backlog_sustainable",
        "capacity_load");
    List<List<String>> rows = new ArrayList<>();
    for (LoadSweep.Curve c : curves) {
      for (LoadSweep.Point p : c.points()) {
        RunStats st = p.stats();
        rows.add(List.of(c.variant().label(), num(c.cacheGb()), num(p.load()),
            Integer.toString(p.runs().size()), Integer.toString(p.overloaded()),
            Boolean.toString(p.sustainable()), Integer.toString(st.jobs()),
            num(st.waitExcl() / 3600), num(st.waitIncl() / 3600), num(st.processing() / 3600),
            num(st.response() / 3600), num(st.speedup()), num(st.hitRatio()),
            num(st.remoteRatio()), num(st.starvationShare()), num(st.replicationShare()),
            num(st.masterLoad()), num(st.waitP50() / 3600), num(st.waitP90() / 3600),
            num(st.waitP99() / 3600), num(st.responseP50() / 3600),
            num(st.responseP90() / 3600), num(st.responseP99() / 3600),
            Boolean.toString(p.load() <= c.reportLmax() + 1e-9),
            Integer.toString(p.backlogOverloaded()), Boolean.toString(p.backlogSustainable()),
            num(capacity(c, p))));
      }
    }
    Csv.write(out.resolve("curves.csv"), header, rows);
    List<List<String>> lm = new ArrayList<>();
    for (LoadSweep.Curve c : curves) {
      lm.add(List.of(c.variant().label(), num(c.cacheGb()), num(c.lmax()),
          num(c.lmaxBacklog()), Integer.toString(c.points().size()), num(c.wallSeconds()),
          Boolean.toString(c.lmaxOpen()), Boolean.toString(c.lmaxBacklogOpen()), c.stop(),
          num(c.reportLmax())));
    }
    Csv.write(out.resolve("lmax.csv"), List.of("variant", "cache_GB", "lmax_jobs_per_h",
        "lmax_backlog_jobs_per_h", "grid_points", "wall_s", "lmax_open", "lmax_backlog_open",
        "scan_stopped", "lmax_checked_jobs_per_h"), lm);
  }

  private void writeRuns(List<LoadSweep.Curve> curves) throws IOException {
    List<String> header = List.of("variant", "cache_GB", "load", "seed_index", "overloaded",
        "cut", "measured", "mean_wait_q2_h", "mean_wait_q4_h", "simulated_h", "policy_calls",
        "events", "replications", "master_load", "wall_s", "mean_backlog_q2_events",
        "mean_backlog_q4_events", "backlog_overloaded");
    List<List<String>> rows = new ArrayList<>();
    for (LoadSweep.Curve c : curves) {
      for (LoadSweep.Point p : c.points()) {
        int i = 1;
        for (RunResult<CernSimulation.Metrics> r : p.runs()) {
          rows.add(List.of(c.variant().label(), num(c.cacheGb()), num(p.load()),
              Integer.toString(i++), Boolean.toString(r.detail().overloaded()), Boolean.toString(r.detail().cut()),
              Integer.toString(r.detail().measured().size()), num(r.detail().meanWaitQ2() / 3600),
              num(r.detail().meanWaitQ4() / 3600), num(r.endTime() / 3600),
              Long.toString(r.detail().policyCalls()), Long.toString(r.events()),
              Long.toString(r.detail().replications()), num(r.schedulerLoad()), num(r.wallSeconds()),
              num(r.detail().meanBacklogQ2()), num(r.detail().meanBacklogQ4()),
              Boolean.toString(r.detail().backlogOverloaded())));
        }
      }
    }
    Csv.write(out.resolve("runs.csv"), header, rows);
  }

  private void writeHistograms(double cache, List<LoadSweep.Curve> cc) throws IOException {
    Map<String, long[]> hs = new LinkedHashMap<>();
    int bins = 0;
    for (LoadSweep.Curve c : cc) {
      LoadSweep.Point p = c.nearLmax();
      if (p != null) {
        long[] h = RunStats.histogram(p.stats().waitsExcl(), 3600);
        hs.put(c.variant().label() + " @" + num(p.load()), h);
        bins = Math.max(bins, h.length);
      }
    }
    List<String> header = new ArrayList<>(List.of("wait_bin_h"));
    header.addAll(hs.keySet());
    List<List<String>> rows = new ArrayList<>();
    for (int b = 0; b < bins; b++) {
      List<String> r = new ArrayList<>(List.of(Integer.toString(b)));
      for (long[] h : hs.values()) {
        r.add(b < h.length ? Long.toString(h[b]) : "0");
      }
      rows.add(r);
    }
    Csv.write(out.resolve("hist-" + num(cache) + "GB.csv"), header, rows);
    if (plots && !hs.isEmpty()) {
      XYChart ch = chart("Waiting-time histogram near 0.95 Lmax, " + num(cache) + " GB",
          "waiting time (h, 1 h bins)", "jobs");
      ch.getStyler().setYAxisLogarithmic(true);
      for (Map.Entry<String, long[]> e : hs.entrySet()) {
        List<Double> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        long[] h = e.getValue();
        for (int b = 0; b < h.length; b++) {
          if (h[b] > 0) {
            x.add(b + 0.5);
            y.add((double) h[b]);
          }
        }
        if (!x.isEmpty()) {
          ch.addSeries(e.getKey(), x, y);
        }
      }
      save(ch, "hist-" + num(cache) + "GB");
    }
  }

  private void plotCurves(double cache, List<LoadSweep.Curve> cc, boolean inclWait)
      throws IOException {
    XYChart w = chart((inclWait ? "Mean waiting W_incl" : "Mean waiting time") + " vs load, "
        + num(cache) + " GB (up to Lmax)", "load (jobs/h)", "hours");
    XYChart s = chart("Average speedup vs load, " + num(cache) + " GB (up to Lmax)",
        "load (jobs/h)", "speedup");
    for (LoadSweep.Curve c : cc) {
      List<Double> x = new ArrayList<>();
      List<Double> yw = new ArrayList<>();
      List<Double> ys = new ArrayList<>();
      for (LoadSweep.Point p : c.sustainable()) {
        x.add(p.load());
        yw.add((inclWait ? p.stats().waitIncl() : p.stats().waitExcl()) / 3600);
        ys.add(p.stats().speedup());
      }
      if (!x.isEmpty()) {
        w.addSeries(c.variant().label(), x, yw);
        s.addSeries(c.variant().label(), x, ys);
      }
    }
    save(w, "wait-" + num(cache) + "GB");
    save(s, "speedup-" + num(cache) + "GB");
  }

  private void plotLmax(List<LoadSweep.Curve> curves) throws IOException {
    CategoryChart ch = new CategoryChartBuilder().width(1000).height(500)
        .title("Sustainable load Lmax").xAxisTitle("variant").yAxisTitle("jobs/h").build();
    ch.getStyler().setXAxisLabelRotation(30);
    ch.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    Map<Double, Map<String, Double>> byCache = new TreeMap<>();
    List<String> labels = new ArrayList<>();
    for (LoadSweep.Curve c : curves) {
      byCache.computeIfAbsent(c.cacheGb(), k -> new LinkedHashMap<>())
          .put(c.variant().label(), c.lmax());
      if (!labels.contains(c.variant().label())) {
        labels.add(c.variant().label());
      }
    }
    for (Map.Entry<Double, Map<String, Double>> e : byCache.entrySet()) {
      List<Double> ys = new ArrayList<>();
      for (String l : labels) {
        ys.add(e.getValue().getOrDefault(l, 0.0));
      }
      ch.addSeries(num(e.getKey()) + " GB", labels, ys);
    }
    Files.createDirectories(out.resolve("plots"));
    BitmapEncoder.saveBitmap(ch, out.resolve("plots").resolve("lmax.png").toString(),
        BitmapEncoder.BitmapFormat.PNG);
  }

  private static XYChart chart(String title, String x, String y) {
    System.setProperty("java.awt.headless", "true");
    XYChart c = new XYChartBuilder().width(1000).height(500).title(title).xAxisTitle(x)
        .yAxisTitle(y).build();
    c.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
    c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    c.getStyler().setMarkerSize(5);
    return c;
  }

  private void save(XYChart c, String name) throws IOException {
    Files.createDirectories(out.resolve("plots"));
    if (c.getSeriesMap().isEmpty()) {
      c.addSeries("(no sustainable point)", new double[] {0}, new double[] {0});
    }
    BitmapEncoder.saveBitmap(c, out.resolve("plots").resolve(name + ".png").toString(),
        BitmapEncoder.BitmapFormat.PNG);
  }

  static String table(List<String> header, List<List<String>> rows) {
    StringBuilder sb = new StringBuilder();
    sb.append("| ").append(String.join(" | ", header)).append(" |\n|");
    for (int i = 0; i < header.size(); i++) {
      sb.append(i == 0 ? "---|" : "---:|");
    }
    sb.append('\n');
    for (List<String> r : rows) {
      sb.append("| ").append(String.join(" | ", r)).append(" |\n");
    }
    return sb.toString();
  }

  private static String num(double v) {
    return io.locus.sim.metrics.Numbers.format(v);
  }

  private static String fix(double v, int d) {
    return io.locus.sim.metrics.Numbers.fixed(v, d);
  }
}
