package io.locus.sim.output;

import io.locus.sim.metrics.TimeSeries;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * PNG plots of runs with XChart: per run, throughput by source (with demand), wait-queue length, hit
 * shares, and busy CPUs with allocated nodes; per experiment, one series per configuration. Long runs
 * are averaged into at most {@link #MAX_POINTS} buckets so files stay small and lines readable.
 */
public final class Plots {
  static final int MAX_POINTS = 1500;
  private static final int WIDTH = 1100;
  private static final int HEIGHT = 500;

  static {
    // Rendering only; no window is ever opened (CI and servers have no display).
    System.setProperty("java.awt.headless", "true");
  }

  private Plots() {}

  /** The four plots of one run; returns the files written. */
  public static List<Path> run(Path dir, String title, TimeSeries s) throws IOException {
    Files.createDirectories(dir);
    List<Path> out = new ArrayList<>();
    out.add(line(dir.resolve("throughput.png"), title + ": throughput", "Gb/s", s,
        Map.of(), List.of(TimeSeries.LOCAL_GBPS, TimeSeries.PEER_GBPS, TimeSeries.STORAGE_GBPS,
            TimeSeries.THROUGHPUT_GBPS, TimeSeries.DEMAND_GBPS)));
    out.add(line(dir.resolve("queue.png"), title + ": wait-queue length", "tasks", s, Map.of(),
        List.of(TimeSeries.QUEUE)));
    out.add(line(dir.resolve("hits.png"), title + ": hit shares per second", "share of accesses",
        s, Map.of(), List.of(TimeSeries.LOCAL_SHARE, TimeSeries.PEER_SHARE,
            TimeSeries.MISS_SHARE)));
    out.add(line(dir.resolve("nodes.png"), title + ": busy CPUs and allocated nodes", "count", s,
        Map.of(), List.of(TimeSeries.BUSY_SLOTS, TimeSeries.REGISTERED_SLOTS, TimeSeries.NODES)));
    return out;
  }

  /** One column of several runs on one chart (experiment comparisons). */
  public static Path compare(Path file, String title, String yTitle, String column,
      Map<String, TimeSeries> runs) throws IOException {
    XYChart c = chart(title, yTitle);
    for (Map.Entry<String, TimeSeries> e : runs.entrySet()) {
      TimeSeries s = e.getValue();
      if (s.length() == 0) {
        continue;
      }
      double[][] xy = downsample(s.column(TimeSeries.TIME), s.column(column));
      add(c, e.getKey(), xy);
    }
    return save(c, file);
  }

  /** A bar chart of one value per configuration. */
  public static Path bars(Path file, String title, String yTitle, Map<String, Double> values)
      throws IOException {
    CategoryChart c = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title)
        .yAxisTitle(yTitle).build();
    c.getStyler().setLegendVisible(false);
    c.getStyler().setXAxisLabelRotation(30);
    List<String> names = new ArrayList<>();
    List<Double> ys = new ArrayList<>();
    values.forEach((k, v) -> {
      names.add(k);
      ys.add(Double.isNaN(v) ? 0.0 : v);
    });
    c.addSeries(yTitle, names, ys);
    Files.createDirectories(file.toAbsolutePath().getParent());
    BitmapEncoder.saveBitmap(c, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    return file;
  }

  private static Path line(Path file, String title, String yTitle, TimeSeries s,
      Map<String, String> rename, List<String> columns) throws IOException {
    XYChart c = chart(title, yTitle);
    if (s.length() > 0) {
      double[] t = s.column(TimeSeries.TIME);
      Map<String, double[]> cols = new LinkedHashMap<>();
      for (String col : columns) {
        cols.put(rename.getOrDefault(col, col), s.column(col));
      }
      cols.forEach((name, y) -> add(c, name, downsample(t, y)));
    }
    return save(c, file);
  }

  private static XYChart chart(String title, String yTitle) {
    XYChart c = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
        .xAxisTitle("time (s)").yAxisTitle(yTitle).build();
    c.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
    c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    c.getStyler().setMarkerSize(0);
    return c;
  }

  private static void add(XYChart c, String name, double[][] xy) {
    if (xy[0].length == 0) {
      return;
    }
    XYSeries series = c.addSeries(name, xy[0], xy[1]);
    series.setMarker(SeriesMarkers.NONE);
  }

  private static Path save(XYChart c, Path file) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    if (c.getSeriesMap().isEmpty()) {
      c.addSeries("(no data)", new double[] {0}, new double[] {0}).setMarker(SeriesMarkers.NONE);
    }
    BitmapEncoder.saveBitmap(c, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    return file;
  }

  /** Bucket means, so a 20,000-second run becomes at most MAX_POINTS points. */
  static double[][] downsample(double[] x, double[] y) {
    int n = x.length;
    if (n <= MAX_POINTS) {
      return new double[][] {x, y};
    }
    int bucket = (n + MAX_POINTS - 1) / MAX_POINTS;
    int m = (n + bucket - 1) / bucket;
    double[] bx = new double[m];
    double[] by = new double[m];
    for (int b = 0; b < m; b++) {
      int from = b * bucket;
      int to = Math.min(n, from + bucket);
      double sy = 0;
      for (int i = from; i < to; i++) {
        sy += y[i];
      }
      bx[b] = x[from];
      by[b] = sy / (to - from);
    }
    return new double[][] {bx, by};
  }
}
