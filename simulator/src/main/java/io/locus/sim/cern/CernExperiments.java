package io.locus.sim.cern;

import static io.locus.sim.cern.CernReport.fix;
import static io.locus.sim.cern.CernReport.num;

import io.locus.core.split.SplitParams;
import io.locus.sim.engine.RunResult;
import io.locus.sim.output.Csv;
import io.locus.sim.output.Markdown;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The experiments of CERN spec §5 in the simulator ({@link CernPlans}), most of them a
 * sustainable-load sweep (§6.2) over policy variants and cache sizes ({@link LoadSweep}), whose
 * files {@link CernReport} writes: {@code results.md} (the tables, also printed), {@code lmax.csv},
 * {@code curves.csv} (every grid point: waiting, speedup, hit ratios, percentiles…), {@code
 * runs.csv} (every seed), {@code hist-<C>GB.csv} (waiting-time histograms, 1 h bins, at the grid
 * point nearest 0.95 · Lmax) and PNG plots of waiting and speedup versus load up to Lmax, the
 * histograms and Lmax. {@code cern-point} runs one load; {@code cern-e12} is {@link CernScaling}.
 */
public final class CernExperiments {
  /** Experiment names (lower case) with a one-line summary. */
  public static final Map<String, String> NAMES = CernPlans.summaries();

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

  public void run(String name) throws IOException, InterruptedException {
    CernPlans.Experiment e = CernPlans.get(name);
    String key = e.name();
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
    if (e.needsLmaxTable() && (o.lmaxTable == null || o.lmaxTable.isBlank())) {
      throw new IllegalArgumentException(key + " needs --lmax-table d:Lmax,... (the Lmax of "
          + "DELAYED per period d at this cache and S, from cern-e4's lmax.csv)");
    }
    // E12 parses its variants and fixes its cache per run (CernScaling)
    List<LoadSweep.Variant> vs = e.kind() == CernPlans.Kind.SCALING ? List.of()
        : variants(e.variants().stream().map(v -> v.replace(CernPlans.LMAX_TABLE,
            e.needsLmaxTable() ? o.lmaxTable.replace(',', ';') : "")).toList());
    List<Double> cs = e.kind() == CernPlans.Kind.SCALING ? e.caches() : caches(e.caches());
    LoadSweep.Settings s = new LoadSweep.Settings(o.nodes, o.jobs, seeds, o.allSeeds, o.step,
        o.maxLoad, o.space, !o.uniform, o.measureCpu);
    ExecutorService pool = Executors.newFixedThreadPool(o.threads);
    try {
      LoadSweep sweep = new LoadSweep(s, pool, log);
      log.printf(Locale.ROOT, "%s: %s%n  %d variants x %d caches; %s%n", key, e.title(),
          vs.size(), cs.size(), CernReport.settingsLine(s));
      log.flush();
      switch (e.kind()) {
        case POINT -> point(sweep, vs, cs, s);
        case SCALING -> new CernScaling(out, o, plots, log, command).run(e.variants());
        case SWEEP -> sweep(e, sweep, vs, cs, s);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** A sweep per cache and variant; the files are rewritten after each, so partial results stay. */
  private void sweep(CernPlans.Experiment e, LoadSweep sweep, List<LoadSweep.Variant> vs,
      List<Double> cs, LoadSweep.Settings s) throws IOException, InterruptedException {
    CernReport report = new CernReport(out, plots, command, o.nodes);
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
        report.writeAll(e.name(), e.title(), s, curves, e.inclWait());
      }
    }
    String md = report.writeAll(e.name(), e.title(), s, curves, e.inclWait());
    log.println();
    log.print(md);
    log.println("Wrote " + out.toAbsolutePath().normalize());
    log.flush();
  }

  /** cern-point: one run per variant and cache, seed 1, at --load. */
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
            Boolean.toString(r.detail().overloaded()), fix(st.waitExcl() / 3600, 3),
            fix(st.speedup(), 2), fix(st.hitRatio(), 3), fix(st.remoteRatio(), 3));
        rows.add(row);
        log.println("  " + String.join("  ", row));
        log.flush();
      }
    }
    Csv.write(out.resolve("point.csv"), header, rows);
    String md = "# cern-point\n\nOne run (seed 1) at " + num(o.load) + " jobs/h; "
        + CernReport.settingsLine(s) + "\n\nCommand: `" + command + "`\n\n"
        + Markdown.table(header, rows) + "\nWall seconds measure this host (shared, 2 cores) and are not model output.\n";
    Files.writeString(out.resolve("results.md"), md, StandardCharsets.UTF_8);
    log.print("\n" + md);
    log.flush();
  }
}
