package io.locus.cli.bench;

import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;

/**
 * The bench's outputs: a table on stdout, bench.csv and, where the host can draw, bench.png
 * (XChart; {@link #plotOrWarn}).
 */
public final class BenchReport {
  public static final String CSV_HEADER = "configuration,policy,delivery,state_backend,workload,"
      + "pools,parallelism,nodes,slots,queue_depth,offered_per_s,published_per_s,"
      + "placements_per_s,completions_per_s,p50_ms,p99_ms,max_ms,backlog_at_end,unplaced,kept_up,"
      + "overload_factor,sustained_per_s,placed_pct_of_sustained";
  private static final int WIDTH = 1100;
  private static final int HEIGHT = 450;

  static {
    System.setProperty("java.awt.headless", "true"); // rendering only; no window
  }

  private BenchReport() {}

  public static void table(PrintStream out, List<BenchRun.Result> results) {
    out.println();
    out.println("== locus bench: per step ==");
    String head = String.format(Locale.ROOT, "%-38s %9s %10s %10s %10s %9s %9s %9s %9s %8s %4s",
        "configuration", "offered/s", "published/s", "placed/s", "completed/s", "p50 ms",
        "p99 ms", "max ms", "backlog", "unplaced", "kept");
    out.println(head);
    for (BenchRun.Result r : results) {
      for (StepResult s : r.steps()) {
        out.printf(Locale.ROOT, "%-38s %9.0f %10.0f %10.0f %10.0f %9.1f %9.1f %9.1f %9d %8d %4s%n",
            s.label(), s.offeredPerSecond(), s.publishedPerSecond(), s.placementsPerSecond(),
            s.completionsPerSecond(), s.p50Ms(), s.p99Ms(), s.maxMs(), s.backlogAtEnd(),
            s.unplaced(), s.keptUp() ? "yes" : "no");
      }
    }
    out.println();
    out.println("== locus bench: sustained (highest step placed at ≥ 95 % of the offered rate, "
        + "backlog under the cap) ==");
    out.printf(Locale.ROOT, "%-38s %12s %10s %9s %9s%n", "configuration", "sustained/s",
        "placed/s", "p50 ms", "p99 ms");
    for (BenchRun.Result r : results) {
      StepResult s = r.sustained();
      if (s == null) {
        out.printf(Locale.ROOT, "%-38s %12s%n", r.config().label(), "none");
      } else {
        out.printf(Locale.ROOT, "%-38s %12.0f %10.0f %9.1f %9.1f%n", r.config().label(),
            s.offeredPerSecond(), s.placementsPerSecond(), s.p50Ms(), s.p99Ms());
      }
    }
    overloadTable(out, results);
  }

  /**
   * The overload steps ({@code --overload}), when there are any: placed/s against the offered
   * rate and as a share of the sustained rate, and whether issue 25's target holds (placed/s ≥
   * 90 % of the sustained rate).
   */
  static void overloadTable(PrintStream out, List<BenchRun.Result> results) {
    if (results.stream().flatMap(r -> r.steps().stream()).noneMatch(StepResult::isOverload)) {
      return;
    }
    out.println();
    out.println("== locus bench: overload (offered F × the sustained rate; holds: placed/s ≥ "
        + Math.round(StepResult.HOLDS * 100) + " % of the sustained rate) ==");
    out.printf(Locale.ROOT, "%-38s %6s %11s %10s %10s %10s %9s %9s %5s%n", "configuration",
        "factor", "sustained/s", "offered/s", "placed/s", "% sust", "p99 ms", "backlog", "holds");
    for (BenchRun.Result r : results) {
      for (StepResult s : r.steps()) {
        if (s.isOverload()) {
          out.printf(Locale.ROOT, "%-38s %6s %11.0f %10.0f %10.0f %10.1f %9.1f %9d %5s%n",
              s.label(), BenchRun.factor(s.overload()) + "×", s.sustainedPerSecond(),
              s.offeredPerSecond(), s.placementsPerSecond(), s.percentOfSustained(), s.p99Ms(),
              s.backlogAtEnd(), s.holds() ? "yes" : "no");
        }
      }
    }
  }

  public static Path csv(Path file, List<BenchRun.Result> results) throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add(CSV_HEADER);
    for (BenchRun.Result r : results) {
      BenchConfig c = r.config();
      for (StepResult s : r.steps()) {
        lines.add(String.format(Locale.ROOT,
            "%s,%s,%s,%s,%s,%d,%d,%d,%d,%d,%.0f,%.1f,%.1f,%.1f,%.3f,%.3f,%.3f,%d,%d,%s,%s,%s,%s",
            s.label(), c.policy(), c.delivery().cliName(), c.stateBackend(),
            c.workload().cliName(), c.pools(), c.parallelism(), c.nodes(), c.slots(),
            c.queueDepth(), s.offeredPerSecond(), s.publishedPerSecond(),
            s.placementsPerSecond(), s.completionsPerSecond(), s.p50Ms(), s.p99Ms(), s.maxMs(),
            s.backlogAtEnd(), s.unplaced(), s.keptUp(),
            // empty for the rising steps: they are no multiple of anything
            s.isOverload() ? BenchRun.factor(s.overload()) : "",
            s.isOverload() ? String.format(Locale.ROOT, "%.0f", s.sustainedPerSecond()) : "",
            s.isOverload() ? String.format(Locale.ROOT, "%.1f", s.percentOfSustained()) : ""));
      }
    }
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.write(file, lines);
    return file;
  }

  /** What draws bench.png: {@link #plot}, or a test's stand-in for a host that cannot draw. */
  @FunctionalInterface
  public interface Plotter {
    Path plot(Path file, List<BenchRun.Result> results) throws Exception;
  }

  /**
   * Draws {@code file} with {@code plotter}, or warns on {@code warn} why it could not and
   * returns null. The plot is an extra (the table and bench.csv hold every figure), so nothing
   * that goes wrong drawing it ends the bench. On a host without font libraries AWT fails with
   * an Error rather than an exception: UnsatisfiedLinkError (libfreetype, libharfbuzz,
   * libfontmanager), then NoClassDefFoundError of the font manager on later tries, AWTError,
   * InternalError, or fontconfig's plain Error; all are caught here. Only the JVM running out of
   * memory or stack goes on up.
   */
  public static Path plotOrWarn(Plotter plotter, Path file, List<BenchRun.Result> results,
      PrintStream warn) {
    try {
      return plotter.plot(file, results);
    } catch (VirtualMachineError e) {
      if (!(e instanceof InternalError)) {
        throw e;
      }
      warnNoPlot(warn, file, e);
    } catch (Throwable e) {
      warnNoPlot(warn, file, e);
    }
    return null;
  }

  private static void warnNoPlot(PrintStream warn, Path file, Throwable e) {
    String what = e.getClass().getName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    boolean host = e instanceof Error || e instanceof java.awt.HeadlessException;
    warn.println("warning: no plot " + file + ": " + what + (host
        ? " (this host cannot draw images: AWT needs font libraries such as fontconfig,"
            + " libfreetype and libharfbuzz)" : "")
        + "; the table above and bench.csv hold every figure");
    warn.flush();
  }

  /** Placements/s vs offered (above) and p99 latency vs offered (below), one series each. */
  public static Path plot(Path file, List<BenchRun.Result> results) throws IOException {
    XYChart rate = chart("locus bench: placements/s vs offered", "placements/s");
    XYChart p99 = chart("locus bench: arrival → decision-visible p99 vs offered (log scale)",
        "p99 (ms)");
    p99.getStyler().setYAxisLogarithmic(true);
    double maxOffered = 0;
    for (BenchRun.Result r : results) {
      List<StepResult> st = r.steps();
      if (st.isEmpty()) {
        continue;
      }
      double[] x = st.stream().mapToDouble(StepResult::offeredPerSecond).toArray();
      double[] y = st.stream().mapToDouble(StepResult::placementsPerSecond).toArray();
      for (double v : x) {
        maxOffered = Math.max(maxOffered, v);
      }
      rate.addSeries(r.config().label(), x, y);
      // a step none of whose jobs was placed has no latency: left out, not drawn as 0
      List<StepResult> timed = st.stream().filter(s -> s.p99Ms() > 0).toList();
      if (!timed.isEmpty()) {
        p99.addSeries(r.config().label(),
            timed.stream().mapToDouble(StepResult::offeredPerSecond).toArray(),
            timed.stream().mapToDouble(StepResult::p99Ms).toArray());
      }
    }
    if (maxOffered > 0) {
      XYSeries ideal = rate.addSeries("offered (ideal)", new double[] {0, maxOffered},
          new double[] {0, maxOffered});
      ideal.setMarker(org.knowm.xchart.style.markers.SeriesMarkers.NONE);
      ideal.setLineStyle(org.knowm.xchart.style.lines.SeriesLines.DASH_DASH);
    }
    BufferedImage a = BitmapEncoder.getBufferedImage(rate);
    BufferedImage b = BitmapEncoder.getBufferedImage(p99);
    BufferedImage both = new BufferedImage(WIDTH, 2 * HEIGHT, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = both.createGraphics();
    g.drawImage(a, 0, 0, null);
    g.drawImage(b, 0, HEIGHT, null);
    g.dispose();
    Files.createDirectories(file.toAbsolutePath().getParent());
    javax.imageio.ImageIO.write(both, "png", file.toFile());
    return file;
  }

  private static XYChart chart(String title, String yTitle) {
    XYChart c = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
        .xAxisTitle("offered tasks/s").yAxisTitle(yTitle).build();
    c.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
    c.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    return c;
  }
}
