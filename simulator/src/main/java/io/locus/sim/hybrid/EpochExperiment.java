package io.locus.sim.hybrid;

import io.locus.core.model.ResourceVector;
import io.locus.sim.engine.Ending;
import io.locus.sim.engine.RunResult;
import io.locus.sim.hybrid.epoch.EpochSchedule;
import io.locus.sim.hybrid.epoch.EpochScheduler;
import io.locus.sim.hybrid.epoch.EpochSchedulers;
import io.locus.sim.output.Csv;
import io.locus.workloads.HybridJob;
import io.locus.workloads.HybridMix;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * H3 (§5): 1000 jobs, epoch model, CAP = ⟨100, 100, 100⟩, R = [CPU, MEM, DISK]; IDEAL_MIX with 5
 * seeds and RANDOM_MIX with 20 (D12: 50/50 ideal mix); GREEDY_SORT_MERGE vs SINGLE_SORTED_CPU and
 * _DISK, and the §2.3 variants, reported separately. Makespan in epochs (× 10 min). The lower bound
 * ⌈max_r Σ j[r] / 100⌉ is given as a reference.
 *
 * <p>The epoch model has no events (a schedule is computed whole, epoch by epoch), so it does not
 * run on the {@link io.locus.sim.engine.Engine}; its runs still report the common {@link
 * RunResult}, with the makespan as end time.
 */
public final class EpochExperiment {
  /** The simulator model name in {@link RunResult#model()}. */
  public static final String MODEL = "hybrid-epoch";
  public static final int JOBS = 1000;
  public static final int IDEAL_SEEDS = 5;
  public static final int RANDOM_SEEDS = 20;
  private static final ResourceVector CAP = ResourceVector.of(100, 100, 100);
  static final String LOWER_BOUND = "lower bound";

  /** One workload's makespans: scheduler (or the lower bound) → one value per seed. */
  public record Table(HybridMix.Kind kind, long firstSeed, Map<String, double[]> makespans) {}

  private EpochExperiment() {}

  /** Runs every scheduler on {@code seeds} seeds of the mix, starting at {@code firstSeed}. */
  public static Table run(HybridMix.Kind kind, int jobs, int seeds, long firstSeed) {
    Map<String, double[]> out = new LinkedHashMap<>();
    for (String name : EpochSchedulers.names()) {
      out.put(name, new double[seeds]);
    }
    out.put(LOWER_BOUND, new double[seeds]);
    for (int s = 0; s < seeds; s++) {
      List<HybridJob> js = HybridMix.jobs(HybridMix.workload(
          HybridMix.Options.batch(kind, jobs), firstSeed + s), 100);
      for (String name : EpochSchedulers.names()) {
        RunResult<EpochSchedule> r = schedule(EpochSchedulers.create(name), js);
        if (r.jobs() != js.size()) {
          throw new IllegalStateException(name + " dispatched " + r.jobs() + " of " + js.size());
        }
        out.get(name)[s] = r.detail().makespan();
      }
      out.get(LOWER_BOUND)[s] = EpochSchedulers.lowerBound(js, CAP);
    }
    return new Table(kind, firstSeed, out);
  }

  /** One schedule of {@code jobs} on CAP as a run; its end time is the makespan in seconds. */
  static RunResult<EpochSchedule> schedule(EpochScheduler scheduler, List<HybridJob> jobs) {
    long wall0 = System.nanoTime(); // host measurement for the report only
    EpochSchedule sc = scheduler.schedule(jobs, CAP);
    return new RunResult<>(MODEL, sc.scheduler(), sc.scheduler(), Ending.FINISHED,
        sc.makespan() * HybridMix.EPOCH_SECONDS, 0, sc.jobs(), Double.NaN,
        (System.nanoTime() - wall0) / 1e9, sc);
  }

  /** The markdown table of both mixes: mean ± sd, min, max (epochs) and hours. */
  static String markdown(List<Table> tables) {
    StringBuilder md = new StringBuilder();
    md.append("| scheduler |");
    for (Table t : tables) {
      md.append(' ').append(t.kind()).append("_MIX (").append(t.makespans().values().iterator()
          .next().length).append(" seeds): mean ± sd | min | max |");
    }
    md.append("\n|---|");
    for (int i = 0; i < tables.size(); i++) {
      md.append("---:|---:|---:|");
    }
    md.append('\n');
    for (String name : tables.get(0).makespans().keySet()) {
      boolean thesis = EpochSchedulers.THESIS.contains(name);
      md.append("| ").append(thesis ? "**" + name + "**" : name).append(" |");
      for (Table t : tables) {
        Stat s = Stat.of(t.makespans().get(name));
        md.append(' ').append(s.meanSd(1)).append(" | ").append(Stat.fmt(s.min(), 0))
            .append(" | ").append(Stat.fmt(s.max(), 0)).append(" |");
      }
      md.append('\n');
    }
    return md.toString();
  }

  static void csv(Path dir, List<Table> tables) throws IOException {
    List<List<String>> agg = new ArrayList<>();
    List<List<String>> runs = new ArrayList<>();
    for (Table t : tables) {
      String mix = t.kind().workloadName();
      for (Map.Entry<String, double[]> e : t.makespans().entrySet()) {
        Stat s = Stat.of(e.getValue());
        agg.add(List.of(mix, e.getKey(), Integer.toString(s.n()), Csv.num(s.mean()),
            Csv.num(s.sd()), Csv.num(s.min()), Csv.num(s.max()), Csv.num(s.mean() / 6)));
        for (int i = 0; i < e.getValue().length; i++) {
          runs.add(List.of(mix, e.getKey(), Long.toString(t.firstSeed() + i),
              Csv.num(e.getValue()[i])));
        }
      }
    }
    Csv.write(dir.resolve("h3-makespan.csv"), List.of("workload", "scheduler", "seeds",
        "mean_epochs", "sd_epochs", "min_epochs", "max_epochs", "mean_hours"), agg);
    Csv.write(dir.resolve("h3-runs.csv"), List.of("workload", "scheduler", "seed",
        "makespan_epochs"), runs);
  }

  static void plot(Path file, List<Table> tables) throws IOException {
    CategoryChart c = new CategoryChartBuilder().width(1100).height(550)
        .title("H3: makespan of 1000 jobs (epochs of 10 min), mean ± sd over seeds")
        .xAxisTitle("scheduler").yAxisTitle("epochs").build();
    c.getStyler().setXAxisLabelRotation(20);
    c.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
    for (Table t : tables) {
      List<String> names = new ArrayList<>(t.makespans().keySet());
      List<Double> mean = new ArrayList<>();
      List<Double> sd = new ArrayList<>();
      for (String n : names) {
        Stat s = Stat.of(t.makespans().get(n));
        mean.add(s.mean());
        sd.add(s.sd());
      }
      List<String> labels = names.stream().map(n -> n.replace("GREEDY_SORT_MERGE", "GSM")
          .replace("SINGLE_SORTED", "SS")).toList();
      c.addSeries(t.kind().workloadName(), labels, mean, sd);
    }
    BitmapEncoder.saveBitmap(c, file.toString(), BitmapEncoder.BitmapFormat.PNG);
  }
}
