package io.locus.sim.khanna;

import io.locus.sim.engine.RunResult;
import io.locus.workloads.KhannaImageTrace;
import io.locus.workloads.TraceJob;
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
 * in the Khanna simulation. Each experiment is data ({@link KhannaPlans}): blocks of points (a
 * series, an x value, a policy configuration, a node count and a trace per seed) and the tables
 * written over them. Each point is run for {@code seeds} seeds (D31: ≥ 5) and reported as mean ±
 * 95 % confidence half-width (Student t). Writes a markdown table, a CSV and a PNG per table into
 * the output directory.
 */
public final class KhannaExperiments {
  public static final List<String> POLICIES = KhannaPlans.POLICIES;
  public static final List<String> NAMES = KhannaPlans.names();

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
  public record MeanInterval(double mean, double half) {
    static MeanInterval of(double[] xs) {
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
      return new MeanInterval(m, tQuantile(xs.length - 1) * Math.sqrt(v / xs.length));
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

  /** The listing of {@code locus experiment --list}. */
  public static String describe() {
    return "  x5 (JDPDLL threshold), x6 (load; also X7 transfers), x8 (compute nodes),\n"
        + "  x9a (Lublin arrivals), x9b (sharing level), hps-budget (re-partitioning budget),\n"
        + "  khanna-all (all of them)\n";
  }

  public void run(String name) throws IOException {
    List<KhannaPlans.Block> blocks = KhannaPlans.blocks(name);
    Files.createDirectories(out);
    for (KhannaPlans.Block b : blocks) {
      Map<String, Map<Integer, RunResult<KhannaSimulation.Metrics>[]>> runs =
          new LinkedHashMap<>();
      for (KhannaPlans.Point p : b.points()) {
        log.println(p.log());
        runs.computeIfAbsent(p.series(), k -> new LinkedHashMap<>()).put(p.x(), runSeeds(p));
      }
      for (KhannaPlans.Table t : b.tables()) {
        table(t, runs);
      }
    }
  }

  @SuppressWarnings("unchecked")
  private RunResult<KhannaSimulation.Metrics>[] runSeeds(KhannaPlans.Point p) {
    RunResult<KhannaSimulation.Metrics>[] rs = new RunResult[seeds];
    for (int s = 0; s < seeds; s++) {
      rs[s] = runOne(p, s + 1);
    }
    return rs;
  }

  private static RunResult<KhannaSimulation.Metrics> runOne(KhannaPlans.Point p, long seed) {
    return KhannaSimulation.run(p.trace().jobs(seed),
        new KhannaSimulation.Config(p.policy(), p.params(), p.nodes(), 15L << 30));
  }

  /**
   * A point of an experiment's first table (the average response time in X6, X8, X9a and X9b),
   * for the leaderboard: the table it belongs to, its x, the policy, and its run for a seed.
   */
  public record ResponsePoint(String table, String xLabel, int x, String policy,
      Map<String, String> params, ToDoubleFunction<Long> response) {}

  /** The points of experiment {@code name}'s response tables, in run order. */
  public static List<ResponsePoint> responsePoints(String name) {
    List<ResponsePoint> out = new ArrayList<>();
    for (KhannaPlans.Block b : KhannaPlans.blocks(name)) {
      KhannaPlans.Table t = b.tables().get(0);
      for (KhannaPlans.Point p : b.points()) {
        out.add(new ResponsePoint(t.file(), t.xLabel(), p.x(), p.series(), p.params(),
            seed -> t.metric().applyAsDouble(runOne(p, seed))));
      }
    }
    return out;
  }

  /** The trace of a workload with these parameters and seed. */
  static List<TraceJob> trace(Map<String, String> params, long seed) {
    return Workloads.create("khanna", params, seed).toList();
  }

  /** X9b's trace at one overlap level: the same expected load as the HIGH trace (§4.5, D29). */
  static List<TraceJob> equalLoadTrace(int n, String overlap, long seed) {
    // L* from the HIGH trace with TLarrival 612 s, then the same expected load per level
    List<TraceJob> high = trace(Map.of("n", "1200", "tlArrival", "612"), seed);
    if (overlap.equals("high")) {
      return high;
    }
    double avg = KhannaImageTrace.avgExecTime(high, KhannaImageTrace.TraceCosts.DEFAULT);
    double lStar = KhannaImageTrace.load(1200, avg, 4, 612);
    return trace(Map.of("n", "" + n, "overlap", overlap, "load", "" + lStar), seed);
  }

  private static MeanInterval stat(RunResult<KhannaSimulation.Metrics>[] rs,
      ToDoubleFunction<RunResult<KhannaSimulation.Metrics>> f) {
    double[] xs = new double[rs.length];
    for (int i = 0; i < rs.length; i++) {
      xs[i] = f.applyAsDouble(rs[i]);
    }
    return MeanInterval.of(xs);
  }

  /** Writes name.md (table), name.csv and name.png (one series per row). */
  private void table(KhannaPlans.Table t,
      Map<String, Map<Integer, RunResult<KhannaSimulation.Metrics>[]>> runs) throws IOException {
    String name = t.file();
    String title = t.title();
    String xLabel = t.xLabel();
    List<Integer> xs = new ArrayList<>();
    runs.values().forEach(m -> m.keySet().forEach(x -> {
      if (!xs.contains(x)) {
        xs.add(x);
      }
    }));
    StringBuilder md = new StringBuilder("**" + title + "** (" + seeds
        + " seeds, mean ± 95 % CI)\n\n| |");
    StringBuilder csv = new StringBuilder("series," + xLabel.replace(',', ' ') + ",mean,ci95\n");
    for (int x : xs) {
      md.append(' ').append(xLabel).append(' ').append(x).append(" |");
    }
    md.append("\n|---|");
    xs.forEach(x -> md.append("---|"));
    md.append('\n');
    XYChart chart = new XYChartBuilder().width(800).height(500).title(title.length() > 90
        ? title.substring(0, 90) + "…" : title).xAxisTitle(xLabel).yAxisTitle("").build();
    for (Map.Entry<String, Map<Integer, RunResult<KhannaSimulation.Metrics>[]>> e
        : runs.entrySet()) {
      md.append("| ").append(e.getKey()).append(" |");
      List<Double> sx = new ArrayList<>();
      List<Double> sy = new ArrayList<>();
      List<Double> err = new ArrayList<>();
      for (int x : xs) {
        RunResult<KhannaSimulation.Metrics>[] rs = e.getValue().get(x);
        if (rs == null) {
          md.append(" |");
          continue;
        }
        MeanInterval s = stat(rs, t.metric());
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
