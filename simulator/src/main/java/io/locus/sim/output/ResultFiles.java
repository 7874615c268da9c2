package io.locus.sim.output;

import io.locus.sim.engine.RunResult;
import io.locus.sim.metrics.DiffusionMetrics;
import io.locus.sim.metrics.TimeSeries;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Writes a run's summary, per-second series and per-step slowdown as CSV files. */
public final class ResultFiles {
  private ResultFiles() {}

  /** {@code summary.csv}: one row per run, the columns of {@link DiffusionMetrics#summary}. */
  public static void summary(Path file, List<RunResult<DiffusionMetrics>> results)
      throws IOException {
    if (results.isEmpty()) {
      throw new IllegalArgumentException("no results to write");
    }
    List<String> header = new ArrayList<>(DiffusionMetrics.summary(results.get(0)).keySet());
    List<List<String>> rows = new ArrayList<>();
    for (RunResult<DiffusionMetrics> r : results) {
      rows.add(new ArrayList<>(DiffusionMetrics.summary(r).values()));
    }
    Csv.write(file, header, rows);
  }

  /** {@code series.csv}: one row per second, one column per series. */
  public static void series(Path file, TimeSeries s) throws IOException {
    List<String> header = s.names();
    List<double[]> cols = new ArrayList<>();
    for (String n : header) {
      cols.add(s.column(n));
    }
    List<List<String>> rows = new ArrayList<>(s.length());
    for (int k = 0; k < s.length(); k++) {
      List<String> row = new ArrayList<>(cols.size());
      for (double[] c : cols) {
        row.add(Csv.num(c[k]));
      }
      rows.add(row);
    }
    Csv.write(file, header, rows);
  }

  /** {@code slowdown.csv}: SL_i per arrival step (empty for a step without tasks). */
  public static void slowdown(Path file, DiffusionMetrics r) throws IOException {
    double step = r.slowdown().stepSeconds();
    double[] sl = r.slowdown().perStep();
    List<List<String>> rows = new ArrayList<>();
    for (int i = 0; i < sl.length; i++) {
      rows.add(List.of(Integer.toString(i), Csv.num(i * step), Csv.num(sl[i])));
    }
    Csv.write(file, List.of("step", "start_s", "slowdown"), rows);
  }
}
