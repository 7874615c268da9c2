package io.locus.sim.cern;

import io.locus.sim.metrics.Numbers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;

/** The PNG plots of the CERN experiments, under {@code plots/} of the output directory. */
final class CernPlots {
  private final Path out;

  CernPlots(Path out) {
    this.out = out;
  }

  void curves(double cache, List<LoadSweep.Curve> cc, boolean inclWait)
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

  void lmax(List<LoadSweep.Curve> curves) throws IOException {
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

  /** Waiting-time histograms near 0.95 Lmax, one series per variant (log scale). */
  void histograms(double cache, Map<String, long[]> hs) throws IOException {
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

  /** E12: master load vs n per variant, from the rows of e12.csv (log-log). */
  void masterLoad(List<List<String>> rows) throws IOException {
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

  private static String num(double v) {
    return Numbers.format(v);
  }
}
