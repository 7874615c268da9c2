package io.locus.cli.sim;

import io.locus.sim.metrics.Numbers;
import io.locus.sim.output.Csv;
import io.locus.sim.output.Markdown;
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
 * {@code locus experiment leaderboard} (issue 16): every workload × every policy, the primary
 * metric (lower is better: completion time, or mean response where the paper measures that), the
 * best seed policy's value and each policy's ratio to it. The workloads are data ({@link
 * LeaderboardPlans}): a name, a metric, the seed policies of the workload's family, the policies
 * run (the seed policies and Locus's own), and how to measure one policy. A policy that cannot run
 * on a workload gets the value NaN and the reason.
 */
public final class Leaderboard {
  /** Locus's own policy, the one the summary table follows. */
  public static final String OWN = "EFT";

  /** The columns of leaderboard.csv, in order. */
  public static final List<String> CSV_HEADER = List.of("workload", "metric", "policy", "value",
      "best_seed_policy", "best_seed_value", "ratio");

  /** Measures one policy on a workload (NaN when the run could not finish). */
  @FunctionalInterface
  public interface Measure {
    double run(String policy) throws Exception;
  }

  /**
   * A workload of the leaderboard.
   *
   * @param seedPolicies the seed policies of the workload's family: the best is chosen among them
   * @param policies every policy shown, in order (the seed policies and Locus's own)
   * @param cannotRun policy → why it has no form on this workload (its value is NaN)
   */
  public record Entry(String workload, String metric, List<String> seedPolicies,
      List<String> policies, Map<String, String> cannotRun, Measure measure) {
    public Entry {
      seedPolicies = List.copyOf(seedPolicies);
      policies = List.copyOf(policies);
      cannotRun = Map.copyOf(cannotRun);
    }
  }

  /** One line of the table. {@code note}: why the value is NaN, else empty. */
  public record Row(String workload, String metric, String policy, double value,
      String bestSeedPolicy, double bestSeedValue, double ratio, String note) {}

  private final Path out;
  private final PrintWriter log;

  public Leaderboard(Path out, PrintWriter log) {
    this.out = out;
    this.log = log;
  }

  /** Runs every entry and writes leaderboard.csv and leaderboard.md; returns the rows. */
  public List<Row> run(List<Entry> entries, String header) throws Exception {
    Files.createDirectories(out);
    List<Row> rows = new ArrayList<>();
    for (Entry e : entries) {
      Map<String, Double> values = new LinkedHashMap<>();
      for (String p : e.policies()) {
        if (e.cannotRun().containsKey(p)) {
          values.put(p, Double.NaN);
          continue;
        }
        long t0 = System.nanoTime(); // wall time of the host, for the progress log only
        double v = e.measure().run(p);
        values.put(p, v);
        log.printf(Locale.ROOT, "  %-34s %-26s %12s  (%.1f s wall)%n", e.workload(), p,
            Numbers.fixed(v, 2), (System.nanoTime() - t0) / 1e9);
        log.flush();
      }
      rows.addAll(rows(e, values));
    }
    write(out, rows, header);
    log.println(summary(rows));
    log.println("Wrote " + out.toAbsolutePath().normalize());
    log.flush();
    return rows;
  }

  /**
   * The rows of one workload from the measured values: the best seed policy is the one with the
   * least finite value among {@code e.seedPolicies()} only (the first in their order on a tie);
   * ratio = value / best, NaN when either is NaN (or no seed policy has a value).
   */
  static List<Row> rows(Entry e, Map<String, Double> values) {
    String best = null;
    double bestValue = Double.NaN;
    for (String p : e.seedPolicies()) {
      Double v = values.get(p);
      if (v != null && Double.isFinite(v) && (best == null || v < bestValue)) {
        best = p;
        bestValue = v;
      }
    }
    List<Row> rows = new ArrayList<>();
    for (String p : e.policies()) {
      double v = values.getOrDefault(p, Double.NaN);
      double ratio = best != null && Double.isFinite(v) ? v / bestValue : Double.NaN;
      String note = e.cannotRun().getOrDefault(p,
          Double.isFinite(v) ? "" : "did not finish every task");
      rows.add(new Row(e.workload(), e.metric(), p, v, best == null ? "" : best, bestValue,
          ratio, note));
    }
    return rows;
  }

  /** Writes leaderboard.csv (columns {@link #CSV_HEADER}) and leaderboard.md. */
  static void write(Path dir, List<Row> rows, String header) throws IOException {
    List<List<String>> csv = new ArrayList<>();
    for (Row r : rows) {
      csv.add(List.of(r.workload(), r.metric(), r.policy(), num(r.value()), r.bestSeedPolicy(),
          num(r.bestSeedValue()), num(r.ratio())));
    }
    Csv.write(dir.resolve("leaderboard.csv"), CSV_HEADER, csv);
    Files.writeString(dir.resolve("leaderboard.md"), markdown(rows, header),
        StandardCharsets.UTF_8);
  }

  private static String num(double v) {
    return Double.isNaN(v) ? "NaN" : Csv.num(v);
  }

  /** The markdown: the header, one row per workload with {@link #OWN}'s ratio, the full table. */
  static String markdown(List<Row> rows, String header) {
    StringBuilder sb = new StringBuilder();
    if (header != null && !header.isEmpty()) {
      sb.append(header).append("\n\n");
    }
    sb.append(summary(rows)).append('\n');
    List<String> notes = new ArrayList<>();
    for (Row r : rows) {
      if (!r.note().isEmpty()) {
        String n = "- " + r.workload() + ", " + r.policy() + ": NaN — " + r.note();
        notes.add(n);
      }
    }
    if (!notes.isEmpty()) {
      sb.append(String.join("\n", notes)).append("\n\n");
    }
    sb.append("All policies:\n\n");
    List<List<String>> full = new ArrayList<>();
    for (Row r : rows) {
      full.add(List.of(r.workload(), r.metric(), r.policy(), fixed(r.value()),
          r.bestSeedPolicy(), fixed(r.bestSeedValue()), ratio(r.ratio())));
    }
    sb.append(Markdown.table(CSV_HEADER, full));
    return sb.toString();
  }

  /** One row per workload: {@link #OWN}'s value and ratio beside the best seed policy. */
  static String summary(List<Row> rows) {
    List<List<String>> table = new ArrayList<>();
    for (Row r : rows) {
      if (r.policy().equals(OWN)) {
        table.add(List.of(r.workload(), r.metric(), fixed(r.value()), r.bestSeedPolicy(),
            fixed(r.bestSeedValue()), ratio(r.ratio())));
      }
    }
    return Markdown.table(List.of("workload", "metric", OWN, "best seed policy",
        "best seed value", OWN + " ratio"), table);
  }

  private static String fixed(double v) {
    return Double.isNaN(v) ? "NaN" : Numbers.fixed(v, 2);
  }

  private static String ratio(double v) {
    return Double.isNaN(v) ? "NaN" : Numbers.fixed(v, 3);
  }
}
