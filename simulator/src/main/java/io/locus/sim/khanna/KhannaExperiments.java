package io.locus.sim.khanna;

import io.locus.workloads.KhannaImageTrace;
import io.locus.workloads.TraceJob;
import io.locus.workloads.Workload;
import io.locus.workloads.Workloads;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;

/**
 * The hypergraph spec's experiment matrix (§5: X5–X9) and the Online-HPS re-partitioning budget,
 * in the Khanna simulation. Each point is run for {@code seeds} seeds (D31: ≥ 5) and reported as
 * mean ± 95 % confidence half-width (Student t). Writes a markdown table, a CSV and a PNG per
 * experiment into the output directory.
 */
public final class KhannaExperiments {
  public static final List<String> POLICIES = List.of("ONLINE_HPS", "MET", "MCT", "SA", "JDPDLL");
  public static final List<String> NAMES =
      List.of("x5", "x6", "x8", "x9a", "x9b", "hps-budget", "khanna-all");
  private static final int[] JOBS = {800, 1000, 1200, 1400, 1600};

  private final Path out;
  private final int seeds;
  private final PrintStream log;

  public KhannaExperiments(Path out, int seeds, PrintStream log) {
    if (seeds < 2) {
      throw new IllegalArgumentException("need at least 2 seeds for a confidence interval");
    }
    this.out = out;
    this.seeds = seeds;
    this.log = log;
  }

  /** Mean and 95 % half-width over the seeds. */
  public record Stat(double mean, double half) {
    static Stat of(double[] xs) {
      double m = 0;
      for (double x : xs) {
        m += x;
      }
      m /= xs.length;
      double v = 0;
      for (double x : xs) {
        v += (x - m) * (x - m);
      }
      v /= xs.length - 1;
      return new Stat(m, tQuantile(xs.length - 1) * Math.sqrt(v / xs.length));
    }

    @Override
    public String toString() {
      return String.format(Locale.ROOT, "%.2f ± %.2f", mean, half);
    }
  }

  /** Two-sided 97.5 % quantile of Student's t (df 1..30; normal beyond). */
  static double tQuantile(int df) {
    double[] t = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201,
        2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
        2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
    return df <= 30 ? t[df - 1] : 1.96;
  }

  public void run(String name) throws IOException {
    Files.createDirectories(out);
    switch (name) {
      case "x5" -> x5();
      case "x6" -> x6();
      case "x8" -> x8();
      case "x9a" -> x9a();
      case "x9b" -> x9b();
      case "hps-budget" -> budget();
      case "khanna-all" -> {
        x6();
        x5();
        x8();
        x9a();
        x9b();
        budget();
      }
      default -> throw new IllegalArgumentException("unknown Khanna experiment '" + name
          + "'; valid: " + String.join(", ", NAMES));
    }
  }

  private List<TraceJob> trace(Map<String, String> params, long seed) {
    Workload w = Workloads.create("khanna", params, seed);
    return w.toList();
  }

  private KhannaSimulation.Result[] runSeeds(Map<String, String> workload, String policy,
      Map<String, String> policyParams, int nodes) {
    KhannaSimulation.Result[] rs = new KhannaSimulation.Result[seeds];
    for (int s = 0; s < seeds; s++) {
      List<TraceJob> jobs = trace(workload, s + 1);
      rs[s] = KhannaSimulation.run(jobs,
          new KhannaSimulation.Config(policy, policyParams, nodes, 15L << 30));
    }
    return rs;
  }

  private static Stat stat(KhannaSimulation.Result[] rs,
      ToDoubleFunction<KhannaSimulation.Result> f) {
    double[] xs = new double[rs.length];
    for (int i = 0; i < rs.length; i++) {
      xs[i] = f.applyAsDouble(rs[i]);
    }
    return Stat.of(xs);
  }

  /** X6 + X7: response and remote transfers vs N (Load ≈ N/800), all policies, both orderings. */
  private void x6() throws IOException {
    for (String order : List.of("clustered", "random")) {
      Map<String, Map<Integer, KhannaSimulation.Result[]>> runs = new LinkedHashMap<>();
      for (String p : POLICIES) {
        for (int n : JOBS) {
          log.printf("x6 %s %s N=%d%n", order, p, n);
          runs.computeIfAbsent(p, k -> new LinkedHashMap<>()).put(n,
              runSeeds(Map.of("n", "" + n, "order", order), p, Map.of(), 4));
        }
      }
      table("x6-" + order, "X6 (" + order + "): average response time (s) vs N, TLarrival 600 s, "
          + "P = 4, HIGH overlap, Poisson", "N", runs, r -> r.averageResponse());
      table("x7-" + order, "X7 (" + order + "): remote transfers (staging + replication) vs N",
          "N", runs, r -> r.remoteTransfers());
      table("x7-replication-" + order, "X7 (" + order + "): of which replication transfers",
          "N", runs, r -> r.replicationTransfers());
    }
  }

  /** X5: JDPDLL's replication threshold. */
  private void x5() throws IOException {
    for (String order : List.of("clustered", "random")) {
      Map<String, Map<Integer, KhannaSimulation.Result[]>> runs = new LinkedHashMap<>();
      for (int thresh : new int[] {1, 2, 4}) {
        for (int n : JOBS) {
          log.printf("x5 %s THRESH=%d N=%d%n", order, thresh, n);
          runs.computeIfAbsent("JDPDLL THRESH=" + thresh, k -> new LinkedHashMap<>()).put(n,
              runSeeds(Map.of("n", "" + n, "order", order), "JDPDLL",
                  Map.of("thresh", "" + thresh), 4));
        }
      }
      table("x5-" + order, "X5 (" + order + "): JDPDLL average response time (s) vs N by "
          + "replication threshold", "N", runs, r -> r.averageResponse());
    }
  }

  /** X8: compute nodes P ∈ {2, 4, 8, 16}, N = 1600. */
  private void x8() throws IOException {
    for (String order : List.of("clustered", "random")) {
      Map<String, Map<Integer, KhannaSimulation.Result[]>> runs = new LinkedHashMap<>();
      for (String p : POLICIES) {
        for (int nodes : new int[] {2, 4, 8, 16}) {
          log.printf("x8 %s %s P=%d%n", order, p, nodes);
          runs.computeIfAbsent(p, k -> new LinkedHashMap<>()).put(nodes,
              runSeeds(Map.of("n", "1600", "order", order), p, Map.of(), nodes));
        }
      }
      table("x8-" + order, "X8 (" + order + "): average response time (s) vs compute nodes P, "
          + "N = 1600, TLarrival 600 s", "P", runs, r -> r.averageResponse());
    }
  }

  /** X9a: Lublin arrivals, N = 1200, clustered. */
  private void x9a() throws IOException {
    Map<String, Map<Integer, KhannaSimulation.Result[]>> runs = new LinkedHashMap<>();
    for (String p : POLICIES) {
      log.printf("x9a %s%n", p);
      runs.put(p, Map.of(1200, runSeeds(Map.of("n", "1200", "arrivals", "lublin"), p, Map.of(),
          4)));
    }
    table("x9a", "X9a: average response time (s), Lublin arrivals, N = 1200, clustered", "N",
        runs, r -> r.averageResponse());
  }

  /** X9b: overlap levels at equal expected load (§4.5, D29). */
  private void x9b() throws IOException {
    Map<String, Map<Integer, KhannaSimulation.Result[]>> resp = new LinkedHashMap<>();
    // rows keyed by the job count of the level: HIGH 1200, MEDIUM 800, LOW 400
    for (String p : POLICIES) {
      for (int level = 0; level < 3; level++) {
        int n = new int[] {1200, 800, 400}[level];
        String overlap = new String[] {"high", "medium", "low"}[level];
        KhannaSimulation.Result[] rs = new KhannaSimulation.Result[seeds];
        for (int s = 0; s < seeds; s++) {
          // L* from the HIGH trace with TLarrival 612 s, then the same expected load per level
          List<TraceJob> high = trace(Map.of("n", "1200", "tlArrival", "612"), s + 1);
          double avg = KhannaImageTrace.avgExecTime(high, KhannaImageTrace.CostModel.DEFAULT);
          double lStar = KhannaImageTrace.load(1200, avg, 4, 612);
          List<TraceJob> jobs = level == 0 ? high
              : trace(Map.of("n", "" + n, "overlap", overlap, "load", "" + lStar), s + 1);
          rs[s] = KhannaSimulation.run(jobs, KhannaSimulation.Config.of(p, 4));
        }
        log.printf("x9b %s %s%n", p, overlap);
        resp.computeIfAbsent(p, k -> new LinkedHashMap<>()).put(n, rs);
      }
    }
    table("x9b-response", "X9b: average response time (s) at equal expected load; N = 1200 "
        + "(HIGH), 800 (MEDIUM), 400 (LOW)", "N (overlap level)", resp, r -> r.averageResponse());
    table("x9b-last", "X9b: time of the last completion (s)", "N (overlap level)", resp,
        r -> r.lastCompletion());
  }

  /** The Online-HPS re-partitioning budget: response vs scheduler CPU, N = 1600 clustered. */
  private void budget() throws IOException {
    Map<String, Map<Integer, KhannaSimulation.Result[]>> runs = new LinkedHashMap<>();
    String[][] settings = {{"0", "1"}, {"1", "1"}, {"5", "1"}, {"30", "1"}, {"0", "10"},
        {"0", "50"}};
    for (String partitioner : List.of("GreedyKm1", "MultilevelKm1")) {
      for (String[] st : settings) {
        String label = partitioner + " Δ=" + st[0] + "s N=" + st[1];
        log.printf("budget %s%n", label);
        runs.put(label, Map.of(1600, runSeeds(Map.of("n", "1600"), "ONLINE_HPS",
            Map.of("partitioner", partitioner, "repartitionInterval", st[0],
                "repartitionEvents", st[1]), 4)));
      }
    }
    table("hps-budget-response", "Online-HPS re-partitioning budget, N = 1600, clustered: "
        + "average response time (s)", "N", runs, r -> r.averageResponse());
    table("hps-budget-cpu", "Online-HPS re-partitioning budget: scheduler CPU seconds per run",
        "N", runs, r -> r.schedulerCpuSeconds());
  }

  /** Writes name.md (table), name.csv and name.png (one series per row). */
  private void table(String name, String title, String xLabel,
      Map<String, Map<Integer, KhannaSimulation.Result[]>> runs,
      ToDoubleFunction<KhannaSimulation.Result> f) throws IOException {
    List<Integer> xs = new ArrayList<>();
    runs.values().forEach(m -> m.keySet().forEach(x -> {
      if (!xs.contains(x)) {
        xs.add(x);
      }
    }));
    StringBuilder md = new StringBuilder("**" + title + "** (" + seeds + " seeds, mean ± 95 % CI)\n\n| |");
    StringBuilder csv = new StringBuilder("series," + xLabel.replace(',', ' ') + ",mean,ci95\n");
    for (int x : xs) {
      md.append(' ').append(xLabel).append(' ').append(x).append(" |");
    }
    md.append("\n|---|");
    xs.forEach(x -> md.append("---|"));
    md.append('\n');
    XYChart chart = new XYChartBuilder().width(800).height(500).title(title.length() > 90
        ? title.substring(0, 90) + "…" : title).xAxisTitle(xLabel).yAxisTitle("").build();
    for (Map.Entry<String, Map<Integer, KhannaSimulation.Result[]>> e : runs.entrySet()) {
      md.append("| ").append(e.getKey()).append(" |");
      List<Double> sx = new ArrayList<>();
      List<Double> sy = new ArrayList<>();
      List<Double> err = new ArrayList<>();
      for (int x : xs) {
        KhannaSimulation.Result[] rs = e.getValue().get(x);
        if (rs == null) {
          md.append(" |");
          continue;
        }
        Stat s = stat(rs, f);
        md.append(' ').append(s).append(" |");
        csv.append(String.format(Locale.ROOT, "%s,%d,%.6f,%.6f%n", e.getKey(), x, s.mean(),
            s.half()));
        sx.add((double) x);
        sy.add(s.mean());
        err.add(s.half());
      }
      md.append('\n');
      if (!sx.isEmpty()) {
        chart.addSeries(e.getKey(), sx, sy, err);
      }
    }
    Files.writeString(out.resolve(name + ".md"), md.toString());
    Files.writeString(out.resolve(name + ".csv"), csv.toString());
    if (xs.size() > 1) {
      BitmapEncoder.saveBitmap(chart, out.resolve(name + ".png").toString(),
          BitmapEncoder.BitmapFormat.PNG);
    }
    log.println(md);
  }
}
