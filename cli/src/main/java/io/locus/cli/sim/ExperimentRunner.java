package io.locus.cli.sim;

import io.locus.sim.Simulation;
import io.locus.sim.engine.RunResult;
import io.locus.sim.metrics.DiffusionMetrics;
import io.locus.sim.metrics.Numbers;
import io.locus.sim.metrics.PerformanceIndex;
import io.locus.sim.metrics.TimeSeries;
import io.locus.sim.output.Csv;
import io.locus.sim.output.Markdown;
import io.locus.sim.output.Plots;
import io.locus.sim.output.ResultFiles;
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

/**
 * Runs an {@link Experiments.Plan} case by case and writes its report: {@code results.md} and
 * {@code results.csv} (the experiment's table), {@code summary.csv} (every metric of every case),
 * {@code slowdown.csv}, one directory per case with its per-second {@code series.csv}, and
 * comparison plots.
 */
public final class ExperimentRunner {
  private final Path out;
  private final boolean plots;
  private final PrintWriter log;

  public ExperimentRunner(Path out, boolean plots, PrintWriter log) {
    this.out = out;
    this.plots = plots;
    this.log = log;
  }

  /** Runs every case; returns the rows in plan order. */
  public List<Experiments.Row> run(Experiments.Plan plan, long seed) throws IOException {
    Files.createDirectories(out);
    log.printf(Locale.ROOT, "Experiment %s: %d runs. %s%n", plan.name(), plan.cases().size(),
        plan.description());
    log.flush();
    List<RunResult<DiffusionMetrics>> results = new ArrayList<>();
    for (Experiments.Case c : plan.cases()) {
      var workload = Workloads.create(c.workload(), c.workloadParams(), seed);
      RunResult<DiffusionMetrics> run = Simulation.run(c.config(), workload);
      DiffusionMetrics r = run.detail();
      results.add(run);
      log.printf(Locale.ROOT, "  %-18s T = %10s s  eff %6.3f  local %5.1f%%  miss %5.1f%%"
              + "  (%d tasks, %.1f s wall)%n", c.label(),
          Numbers.seconds(r.times().completionTime()),
          r.times().efficiency(), 100 * r.io().localShare(), 100 * r.io().missShare(),
          r.tasks().completed(), run.wallSeconds());
      log.flush();
      Path dir = out.resolve(c.label());
      ResultFiles.series(dir.resolve("series.csv"), r.series());
      ResultFiles.slowdown(dir.resolve("slowdown.csv"), r);
    }
    List<Experiments.Row> rows = derive(plan, results);
    report(plan, rows);
    return rows;
  }

  /** Speedup over the baseline case and PI normalised over the set (spec §6, D17). */
  static List<Experiments.Row> derive(Experiments.Plan plan,
      List<RunResult<DiffusionMetrics>> results) {
    DiffusionMetrics base = null;
    for (int i = 0; i < results.size(); i++) {
      if (plan.cases().get(i).label().equals(plan.baseline())) {
        base = results.get(i).detail();
      }
    }
    Map<String, PerformanceIndex.Input> pi = new LinkedHashMap<>();
    for (int i = 0; i < results.size(); i++) {
      double sp = base == null ? Double.NaN : results.get(i).detail().speedupOver(base);
      pi.put(plan.cases().get(i).label(),
          new PerformanceIndex.Input(sp, results.get(i).detail().resources().cpuHours()));
    }
    Map<String, Double> norm = plan.performanceIndex() && base != null
        ? PerformanceIndex.normalise(pi)
        : Map.of();
    List<Experiments.Row> rows = new ArrayList<>();
    for (int i = 0; i < results.size(); i++) {
      String label = plan.cases().get(i).label();
      rows.add(new Experiments.Row(plan.cases().get(i), results.get(i), pi.get(label).speedup(),
          norm.getOrDefault(label, Double.NaN)));
    }
    return rows;
  }

  private void report(Experiments.Plan plan, List<Experiments.Row> rows) throws IOException {
    List<Experiments.Column> cols = new ArrayList<>(standardColumns(plan));
    cols.addAll(plan.extraColumns());
    List<String> header = cols.stream().map(Experiments.Column::name).toList();
    List<List<String>> table = new ArrayList<>();
    for (Experiments.Row row : rows) {
      table.add(cols.stream().map(c -> c.value().apply(row)).toList());
    }
    Csv.write(out.resolve("results.csv"), header, table);
    ResultFiles.summary(out.resolve("summary.csv"),
        rows.stream().map(Experiments.Row::run).toList());
    writeSlowdowns(rows);
    Files.writeString(out.resolve("results.md"), markdown(plan, header, table),
        StandardCharsets.UTF_8);
    if (plots) {
      plot(plan, rows);
    }
    log.println();
    log.print(Markdown.table(header, table));
    log.println("Wrote " + out.toAbsolutePath().normalize());
    log.flush();
  }

  private static List<Experiments.Column> standardColumns(Experiments.Plan plan) {
    List<Experiments.Column> cols = new ArrayList<>();
    cols.add(col("config", row -> row.c().label()));
    cols.add(col("completed", row -> Long.toString(row.r().tasks().completed())));
    cols.add(col("time s", row -> Numbers.seconds(row.r().times().completionTime())));
    cols.add(col("ideal s", row -> Numbers.fixed(row.r().times().idealTime(), 0)));
    cols.add(col("efficiency", row -> Numbers.fixed(row.r().times().efficiency(), 3)));
    if (plan.baseline() != null) {
      cols.add(col("speedup", row -> Numbers.fixed(row.speedup(), 3)));
    }
    cols.add(col("CPU h", row -> Numbers.fixed(row.r().resources().cpuHours(), 2)));
    if (plan.performanceIndex()) {
      cols.add(col("PI", row -> Numbers.fixed(row.pi(), 3)));
    }
    cols.add(col("resp s", row -> Numbers.seconds(row.r().times().meanResponse())));
    cols.add(col("local %", row -> Numbers.fixed(100 * row.r().io().localShare(), 1)));
    cols.add(col("peer %", row -> Numbers.fixed(100 * row.r().io().peerShare(), 1)));
    cols.add(col("miss %", row -> Numbers.fixed(100 * row.r().io().missShare(), 1)));
    cols.add(col("avg Gb/s", row -> Numbers.fixed(row.r().io().avgThroughputGbps(), 2)));
    cols.add(col("p99 Gb/s", row -> Numbers.fixed(row.r().io().peakThroughputGbps(), 2)));
    cols.add(col("wall s", row -> Numbers.fixed(row.run().wallSeconds(), 1)));
    return cols;
  }

  private static Experiments.Column col(String name,
      java.util.function.Function<Experiments.Row, String> value) {
    return new Experiments.Column(name, value);
  }

  private void writeSlowdowns(List<Experiments.Row> rows) throws IOException {
    int steps = rows.stream().mapToInt(r -> r.r().slowdown().perStep().length).max().orElse(0);
    List<String> header = new ArrayList<>(List.of("step", "start_s"));
    rows.forEach(r -> header.add(r.c().label()));
    List<List<String>> table = new ArrayList<>();
    for (int i = 0; i < steps; i++) {
      List<String> line = new ArrayList<>();
      line.add(Integer.toString(i));
      line.add(Numbers.format(i * rows.get(0).r().slowdown().stepSeconds()));
      for (Experiments.Row r : rows) {
        double[] sl = r.r().slowdown().perStep();
        line.add(i < sl.length ? Numbers.format(sl[i]) : "");
      }
      table.add(line);
    }
    Csv.write(out.resolve("slowdown.csv"), header, table);
  }

  private void plot(Experiments.Plan plan, List<Experiments.Row> rows) throws IOException {
    Map<String, TimeSeries> series = new LinkedHashMap<>();
    Map<String, Double> times = new LinkedHashMap<>();
    for (Experiments.Row r : rows) {
      series.put(r.c().label(), r.r().series());
      times.put(r.c().label(), r.r().times().completionTime());
    }
    if (rows.size() <= 12) { // dozens of lines on one chart are unreadable
      Path p = out.resolve("plots");
      Plots.compare(p.resolve("throughput.png"), plan.name() + ": throughput", "Gb/s",
          TimeSeries.THROUGHPUT_GBPS, series);
      Plots.compare(p.resolve("queue.png"), plan.name() + ": wait-queue length", "tasks",
          TimeSeries.QUEUE, series);
      Plots.compare(p.resolve("local-share.png"), plan.name() + ": local hit share", "share",
          TimeSeries.LOCAL_SHARE, series);
      Plots.compare(p.resolve("busy-cpus.png"), plan.name() + ": busy CPUs", "slots",
          TimeSeries.BUSY_SLOTS, series);
      Plots.compare(p.resolve("nodes.png"), plan.name() + ": allocated nodes", "nodes",
          TimeSeries.NODES, series);
    }
    Plots.bars(out.resolve("plots").resolve("completion-time.png"),
        plan.name() + ": completion time", "seconds", times);
    if (plan.performanceIndex()) {
      Map<String, Double> pi = new LinkedHashMap<>();
      rows.forEach(r -> pi.put(r.c().label(), r.pi()));
      Plots.bars(out.resolve("plots").resolve("pi.png"), plan.name() + ": performance index",
          "PI", pi);
    }
  }

  private static String markdown(Experiments.Plan plan, List<String> header,
      List<List<String>> table) {
    StringBuilder sb = new StringBuilder();
    sb.append("# ").append(plan.name()).append("\n\n").append(plan.description()).append("\n\n");
    sb.append(Markdown.table(header, table)).append('\n');
    if (plan.note() != null && !plan.note().isEmpty()) {
      sb.append(plan.note()).append('\n');
    }
    sb.append("\nWall-clock seconds (\"wall s\") measure this host and are not model output.\n");
    return sb.toString();
  }
}
