package io.locus.sim.output;

import io.locus.sim.metrics.SimulationResult;
import io.locus.sim.metrics.TimeSeries;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Writes a run's summary, per-second series and per-step slowdown as CSV files. */
public final class ResultFiles {
  private ResultFiles() {}

  /** {@code summary.csv}: one row per result, the columns of {@link SimulationResult#summary()}. */
  public static void summary(Path file, List<SimulationResult> results) throws IOException {
    if (results.isEmpty()) {
      throw new IllegalArgumentException("no results to write");
    }
    List<String> header = new ArrayList<>(results.get(0).summary().keySet());
    List<List<String>> rows = new ArrayList<>();
    for (SimulationResult r : results) {
      rows.add(new ArrayList<>(r.summary().values()));
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
  public static void slowdown(Path file, SimulationResult r) throws IOException {
    double step = r.slowdown().stepSeconds();
    double[] sl = r.slowdown().perStep();
    List<List<String>> rows = new ArrayList<>();
    for (int i = 0; i < sl.length; i++) {
      rows.add(List.of(Integer.toString(i), Csv.num(i * step), Csv.num(sl[i])));
    }
    Csv.write(file, List.of("step", "start_s", "slowdown"), rows);
  }
}
