package io.locus.sim.cern;

import static io.locus.sim.cern.CernReport.fix;
import static io.locus.sim.cern.CernReport.num;

import io.locus.sim.engine.RunResult;
import io.locus.sim.output.Csv;
import io.locus.sim.output.Markdown;
import io.locus.workloads.TraceJob;
import io.locus.workloads.Workloads;
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

/** {@code cern-e12}: the master load of each policy as the pool grows (D30). */
final class CernScaling {
  private final Path out;
  private final CernOptions o;
  private final boolean plots;
  private final PrintWriter log;
  private final String command;

  CernScaling(Path out, CernOptions o, boolean plots, PrintWriter log, String command) {
    this.out = out;
    this.o = o;
    this.plots = plots;
    this.log = log;
    this.command = command;
  }

  /**
   * E12 (D30): for each n, one run per policy at λ = 0.1 · n jobs/h over D = 3,333,333 · n / 10
   * events, 100 GB per node, DELAYED with d = 30 days / n and S = 5,000; master load = scheduler
   * CPU time inside policy calls / simulated time. All jobs are measured (no sustainability test).
   *
   * @param defaults the policies run unless {@code --policies} names others
   */
  void run(List<String> defaults) throws IOException {
    List<Integer> ns = o.nodeCounts != null && !o.nodeCounts.isEmpty() ? o.nodeCounts
        : List.of(10, 20, 50, 100, 200);
    List<String> names = o.policies != null && !o.policies.isEmpty() ? o.policies : defaults;
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
      List<TraceJob> jobs = Workloads.create("cern", wp, 1)
          .toList();
      double last = jobs.get(jobs.size() - 1).arrival();
      for (String name : names) {
        LoadSweep.Variant v0 = CernExperiments.variant(name);
        Map<String, String> params = new TreeMap<>(v0.params());
        params.put("cacheGb", "100");
        if (v0.policy().equals("DELAYED") && !params.containsKey("period")) {
          params.put("period", Double.toString(30 * 86_400.0 / n));
          params.putIfAbsent("stripe", "5000");
        }
        RunResult<CernSimulation.Metrics> r = CernSimulation.run(
            new CernSimulation.Config(v0.policy(), params, n, true), jobs,
            new CernSimulation.Window(0, last + 1, false, 0));
        List<String> row = List.of(v0.label(), Integer.toString(n), num(load), Long.toString(space),
            Integer.toString(o.jobs), fix(r.endTime() / 3600, 1),
            fix(r.schedulerCpuSeconds(), 3), String.format(Locale.ROOT, "%.3e", r.schedulerLoad()),
            Long.toString(r.detail().policyCalls()),
            fix(1e6 * r.schedulerCpuSeconds() / r.detail().policyCalls(), 1),
            fix(r.wallSeconds(), 1));
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
        + "`\n\n" + Markdown.table(header, rows) + "\nCPU and wall seconds measure this host "
        + "(2 shared cores); they are not model output.\n";
    Files.writeString(out.resolve("results.md"), md, StandardCharsets.UTF_8);
    if (plots) {
      new CernPlots(out).masterLoad(rows);
    }
    log.print("\n" + md);
    log.flush();
  }
}
