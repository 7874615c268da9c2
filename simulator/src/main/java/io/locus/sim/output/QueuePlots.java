package io.locus.sim.output;

import io.locus.sim.metrics.QueueMetrics;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Plots of the per-queue measures (issue 24): each queue's share of the pool against its fair share
 * over time, and Jain's index over time (one run, or several on one chart). Drawing needs AWT's
 * font libraries; {@link #drawOrWarn} keeps a host without them from failing a run whose CSV files
 * already hold every figure.
 */
public final class QueuePlots {
  private static final int WIDTH = 1100;
  private static final int HEIGHT = 500;
  private static final java.awt.Color[] PALETTE = {new java.awt.Color(0x1f77b4),
      new java.awt.Color(0xd62728), new java.awt.Color(0x2ca02c), new java.awt.Color(0x9467bd),
      new java.awt.Color(0xff7f0e), new java.awt.Color(0x8c564b), new java.awt.Color(0xe377c2),
      new java.awt.Color(0x7f7f7f), new java.awt.Color(0xbcbd22), new java.awt.Color(0x17becf)};

  static {
    System.setProperty("java.awt.headless", "true"); // rendering only; no window
  }

  private QueuePlots() {}

  /** What draws some plots and returns their files. */
  @FunctionalInterface
  public interface Drawing {
    List<Path> draw() throws Exception;
  }

  /**
   * Runs {@code drawing}, or warns on {@code warn} why it could not and returns no file. As the
   * bench's plot ({@code BenchReport.plotOrWarn}): on a host without font libraries AWT fails with
   * an Error (UnsatisfiedLinkError of libfreetype or libfontmanager, then NoClassDefFoundError of
   * the font manager, AWTError, InternalError, fontconfig's plain Error), all caught here; only the
   * JVM running out of memory or stack goes on up.
   */
  public static List<Path> drawOrWarn(Drawing drawing, PrintWriter warn) {
    try {
      return drawing.draw();
    } catch (VirtualMachineError e) {
      if (!(e instanceof InternalError)) {
        throw e;
      }
      warn(warn, e);
    } catch (Throwable e) {
      warn(warn, e);
    }
    return List.of();
  }

  private static void warn(PrintWriter warn, Throwable e) {
    String what = e.getClass().getName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    boolean host = e instanceof Error || e instanceof java.awt.HeadlessException;
    warn.println("warning: no plots: " + what + (host
        ? " (this host cannot draw images: AWT needs font libraries such as fontconfig,"
            + " libfreetype and libharfbuzz)" : "") + "; the CSV files hold every figure");
    warn.flush();
  }

  /** {@code queue-shares.png} and {@code jain.png} of one run into {@code dir}. */
  public static List<Path> run(Path dir, String title, QueueMetrics m) throws IOException {
    QueueMetrics.QueueSeries s = m.series();
    double[] t = time(s.length());
    XYChart shares = chart(title + ": share of the pool's slots per queue (dashed: fair share)",
        "share of slots");
    for (int q = 0; q < s.names().size(); q++) {
      double[] share = new double[s.length()];
      double[] fair = new double[s.length()];
      for (int k = 0; k < s.length(); k++) {
        double slots = s.slots()[k];
        share[k] = slots > 0 ? s.running()[q][k] / slots : 0;
        fair[k] = slots > 0 ? s.fairShare()[q][k] / slots : 0;
      }
      // a queue's share and its fair share in one colour, so the pair reads at a glance
      java.awt.Color colour = PALETTE[q % PALETTE.length];
      colour(add(shares, s.names().get(q), t, share, false), colour);
      colour(add(shares, s.names().get(q) + " fair", t, fair, true), colour);
    }
    List<Path> out = new ArrayList<>();
    out.add(save(shares, dir.resolve("queue-shares.png")));
    out.add(jain(dir.resolve("jain.png"), title + ": Jain's index of running / fair share",
        Map.of(title, m)));
    return out;
  }

  /** Jain's index over time, one line per run (gaps where fewer than two queues were active). */
  public static Path jain(Path file, String title, Map<String, QueueMetrics> runs)
      throws IOException {
    XYChart c = chart(title, "Jain's index");
    for (Map.Entry<String, QueueMetrics> e : runs.entrySet()) {
      double[] j = e.getValue().series().jain();
      add(c, e.getKey(), time(j.length), j, false);
    }
    return save(c, file);
  }

  private static double[] time(int n) {
    double[] t = new double[n];
    for (int k = 0; k < n; k++) {
      t[k] = k;
    }
    return t;
  }

  private static XYChart chart(String title, String yTitle) {
    XYChart c = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
        .xAxisTitle("time (s)").yAxisTitle(yTitle).build();
    c.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
    c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    c.getStyler().setMarkerSize(0);
    return c;
  }

  /** Adds a line, NaN points dropped (XChart draws no gaps), bucket-averaged when long. */
  private static XYSeries add(XYChart c, String name, double[] x, double[] y, boolean dashed) {
    List<Double> xs = new ArrayList<>();
    List<Double> ys = new ArrayList<>();
    for (int i = 0; i < x.length; i++) {
      if (!Double.isNaN(y[i])) {
        xs.add(x[i]);
        ys.add(y[i]);
      }
    }
    if (xs.isEmpty()) {
      return null;
    }
    double[][] xy = Plots.downsample(xs.stream().mapToDouble(Double::doubleValue).toArray(),
        ys.stream().mapToDouble(Double::doubleValue).toArray());
    XYSeries s = c.addSeries(name, xy[0], xy[1]);
    s.setMarker(SeriesMarkers.NONE);
    if (dashed) {
      s.setLineStyle(SeriesLines.DASH_DASH);
    }
    return s;
  }

  private static void colour(XYSeries s, java.awt.Color c) {
    if (s != null) {
      s.setLineColor(c);
    }
  }

  private static Path save(XYChart c, Path file) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    if (c.getSeriesMap().isEmpty()) {
      c.addSeries("(no data)", new double[] {0}, new double[] {0}).setMarker(SeriesMarkers.NONE);
    }
    BitmapEncoder.saveBitmap(c, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    return file;
  }
}
