package io.locus.sim.cern;

import io.locus.core.split.EventCosts;
import io.locus.core.split.SplitParams;
import io.locus.sim.engine.RunResult;
import io.locus.sim.metrics.Numbers;
import io.locus.sim.output.Csv;
import io.locus.sim.output.Markdown;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The files of a CERN load sweep: {@code results.md} (the tables), {@code lmax.csv}, {@code
 * curves.csv} (every grid point), {@code runs.csv} (every seed), {@code hist-<C>GB.csv} (waiting
 * histograms near 0.95 · Lmax) and, with plots, the charts of {@link CernPlots}.
 */
final class CernReport {
  private final Path out;
  private final boolean plots;
  private final String command;
  private final int nodes;
  private final CernPlots charts;

  CernReport(Path out, boolean plots, String command, int nodes) {
    this.out = out;
    this.plots = plots;
    this.command = command;
    this.nodes = nodes;
    this.charts = new CernPlots(out);
  }

  /** Writes every file of a sweep and returns results.md's text. */
  String writeAll(String key, String title, LoadSweep.Settings s,
      List<LoadSweep.Curve> curves, boolean inclWait) throws IOException {
    writeCurves(curves);
    writeRuns(curves);
    List<Double> cacheList = new ArrayList<>();
    for (LoadSweep.Curve c : curves) {
      if (!cacheList.contains(c.cacheGb())) {
        cacheList.add(c.cacheGb());
      }
    }
    for (double c : cacheList) {
      List<LoadSweep.Curve> cc = curves.stream().filter(x -> x.cacheGb() == c).toList();
      writeHistograms(c, cc);
      if (plots) {
        charts.curves(c, cc, inclWait);
      }
    }
    if (plots) {
      charts.lmax(curves);
    }
    StringBuilder md = new StringBuilder();
    md.append("# ").append(key).append("\n\n").append(title).append(".\n\n")
        .append(settingsLine(s)).append(".\n\nCommand: `").append(command).append("`\n\n");
    md.append(String.format(Locale.ROOT, "Maximal theoretical load (spec §1.4, n = %d): %.2f "
        + "jobs/h.%n%n", s.nodes(), EventCosts.maximalTheoreticalLoad(s.nodes(), 40_000)));
    md.append("## Sustainable load Lmax (jobs/h): the spec's test / the backlog test / both "
        + "tests and the capacity check\n\n");
    md.append(lmaxTable(curves, cacheList)).append('\n');
    md.append("## At the grid point nearest 0.95 Lmax\n\n");
    md.append(nearTable(curves, inclWait)).append('\n');
    String[][] pairs = {
        {"OUT_OF_ORDER", "OUT_OF_ORDER:replication=true",
            "Replication (E3): relative change per load, with vs without"},
        {"OUT_OF_ORDER", "OUT_OF_ORDER:tapePipelining=true",
            "Tape pipelining (E9): relative change per load, tape vs none"},
        {"OUT_OF_ORDER:tapePipelining=true",
            "OUT_OF_ORDER:tapePipelining=true:diskPipelining=true",
            "E11: tape + disk vs tape only"},
        {"OUT_OF_ORDER", "OUT_OF_ORDER:tapePipelining=true:diskPipelining=true",
            "E11: tape + disk vs none"},
        {"FARM", "FARM:tapePipelining=true", "E8: FARM, tape pipelining vs none"},
        {"JOB_SPLITTING", "JOB_SPLITTING:tapePipelining=true",
            "E8: JOB_SPLITTING, tape pipelining vs none"}};
    for (String[] pair : pairs) {
      boolean a = curves.stream().anyMatch(c -> c.variant().label().equals(pair[0]));
      boolean b = curves.stream().anyMatch(c -> c.variant().label().equals(pair[1]));
      if (a && b) {
        md.append("## ").append(pair[2]).append("\n\n")
            .append(relativeTable(curves, pair[0], pair[1])).append('\n');
      }
    }
    md.append("Waiting is W_excl (start minus the end of the arrival period; the same as W_incl "
        + "for policies without periods) unless the title says otherwise; speedup is N_J x 0.8 s "
        + "/ processing time; h counts events read from the processing node's cache, h_remote "
        + "those read from another node's cache. The backlog test applies the spec's quarter rule "
        + "to the time-averaged events of arrived, unfinished jobs (Q4 > 2 x Q2 + one hour of the "
        + "pool's tape work), because waiting times need not grow under overload when jobs may "
        + "overtake each other. cap(h) is spec §1.4's capacity with the measured hit ratios, "
        + "n x 3600 / (40,000 x (h c_hit + h_remote c_remote + (1 - h - h_remote) c_miss)): no "
        + "policy sustains a load above it. The third Lmax (\"Lmax used\", where the curves and "
        + "the near-Lmax point are cut) is the largest load such that it and every smaller grid "
        + "load pass both tests and lie at or below their cap(h). \">=\" marks a test that had "
        + "not failed when the scan stopped (at --max-load, above the maximal theoretical load, "
        + "or where the warm-up exceeds an eighth of the measured window so that no quarter rule "
        + "can see an overload; see lmax.csv, scan_stopped). Full "
        + "per-point metrics: curves.csv; per seed: runs.csv; histograms: hist-*.csv.\n");
    Files.writeString(out.resolve("results.md"), md.toString(), StandardCharsets.UTF_8);
    return md.toString();
  }

  private String lmaxTable(List<LoadSweep.Curve> curves, List<Double> cacheList) {
    List<String> header = new ArrayList<>(List.of("variant"));
    for (double c : cacheList) {
      header.add(num(c) + " GB");
    }
    Map<String, List<String>> rows = new LinkedHashMap<>();
    for (LoadSweep.Curve c : curves) {
      List<String> r = rows.computeIfAbsent(c.variant().label(), k -> {
        List<String> l = new ArrayList<>(List.of(k));
        for (int i = 0; i < cacheList.size(); i++) {
          l.add("-");
        }
        return l;
      });
      r.set(1 + cacheList.indexOf(c.cacheGb()), c.lmaxText() + " / " + c.lmaxBacklogText()
          + " / " + c.checkedText());
    }
    return Markdown.table(header, new ArrayList<>(rows.values()));
  }

  /** λ_cap for a point's measured mix (see {@link RunStats#capacityLoad}). */
  private double capacity(LoadSweep.Curve c, LoadSweep.Point p) {
    Map<String, String> params = new TreeMap<>(c.variant().params());
    params.put("cacheGb", "100");
    return p.stats().capacityLoad(nodes, SplitParams.parse(c.variant().policy(), params)
        .costs());
  }

  private String nearTable(List<LoadSweep.Curve> curves, boolean inclWait) {
    List<String> header = List.of("variant", "cache GB", "Lmax used", "load", "cap(h)", "seeds",
        inclWait ? "W_incl h" : "wait h", "wait p90 h", "speedup", "h", "h_remote", "resp p50 h",
        "resp p90 h", "resp p99 h", "starved %", "replicating %");
    List<List<String>> rows = new ArrayList<>();
    for (LoadSweep.Curve c : curves) {
      LoadSweep.Point p = c.nearLmax();
      if (p == null) {
        rows.add(List.of(c.variant().label(), num(c.cacheGb()), fix(c.reportLmax(), 2), "-", "-",
            "-", "-",
            "-", "-", "-", "-", "-", "-", "-", "-", "-"));
        continue;
      }
      RunStats st = p.stats();
      rows.add(List.of(c.variant().label(), num(c.cacheGb()), fix(c.reportLmax(), 2),
          fix(p.load(), 2), fix(capacity(c, p), 2), Integer.toString(p.runs().size()),
          fix((inclWait ? st.waitIncl() : st.waitExcl()) / 3600, 2), fix(st.waitP90() / 3600, 2),
          fix(st.speedup(), 2), fix(st.hitRatio(), 3), fix(st.remoteRatio(), 3),
          fix(st.responseP50() / 3600, 2), fix(st.responseP90() / 3600, 2),
          fix(st.responseP99() / 3600, 2), fix(100 * st.starvationShare(), 2),
          fix(100 * st.replicationShare(), 2)));
    }
    return Markdown.table(header, rows);
  }

  /** Per cache and common sustainable load: speedup and wait of {@code b} relative to {@code a}. */
  private String relativeTable(List<LoadSweep.Curve> curves, String a, String b) {
    List<String> header = List.of("cache GB", "load", "speedup " + a, "speedup " + b,
        "speedup change %", "wait h " + a, "wait h " + b, "wait change %", "replicating % " + b);
    List<List<String>> rows = new ArrayList<>();
    for (LoadSweep.Curve ca : curves) {
      if (!ca.variant().label().equals(a)) {
        continue;
      }
      for (LoadSweep.Curve cb : curves) {
        if (!cb.variant().label().equals(b) || cb.cacheGb() != ca.cacheGb()) {
          continue;
        }
        for (LoadSweep.Point pa : ca.sustainable()) {
          for (LoadSweep.Point pb : cb.sustainable()) {
            if (Math.abs(pa.load() - pb.load()) < 1e-9) {
              RunStats x = pa.stats();
              RunStats y = pb.stats();
              rows.add(List.of(num(ca.cacheGb()), fix(pa.load(), 2), fix(x.speedup(), 2),
                  fix(y.speedup(), 2), fix(100 * (y.speedup() / x.speedup() - 1), 1),
                  fix(x.waitExcl() / 3600, 3), fix(y.waitExcl() / 3600, 3),
                  x.waitExcl() > 0 ? fix(100 * (y.waitExcl() / x.waitExcl() - 1), 1) : "-",
                  fix(100 * y.replicationShare(), 1)));
            }
          }
        }
      }
    }
    return rows.isEmpty() ? "(no common sustainable load)\n" : Markdown.table(header, rows);
  }

  private void writeCurves(List<LoadSweep.Curve> curves) throws IOException {
    List<String> header = List.of("variant", "cache_GB", "load", "seeds_run", "overloaded",
        "sustainable", "measured_jobs", "wait_excl_h", "wait_incl_h", "processing_h",
        "response_h", "speedup", "h", "h_remote", "starvation_share", "replication_share",
        "master_load", "wait_p50_h", "wait_p90_h", "wait_p99_h", "resp_p50_h", "resp_p90_h",
        "resp_p99_h", "within_lmax", "backlog_overloaded", "backlog_sustainable",
        "capacity_load");
    List<List<String>> rows = new ArrayList<>();
    for (LoadSweep.Curve c : curves) {
      for (LoadSweep.Point p : c.points()) {
        RunStats st = p.stats();
        rows.add(List.of(c.variant().label(), num(c.cacheGb()), num(p.load()),
            Integer.toString(p.runs().size()), Integer.toString(p.overloaded()),
            Boolean.toString(p.sustainable()), Integer.toString(st.jobs()),
            num(st.waitExcl() / 3600), num(st.waitIncl() / 3600), num(st.processing() / 3600),
            num(st.response() / 3600), num(st.speedup()), num(st.hitRatio()),
            num(st.remoteRatio()), num(st.starvationShare()), num(st.replicationShare()),
            num(st.masterLoad()), num(st.waitP50() / 3600), num(st.waitP90() / 3600),
            num(st.waitP99() / 3600), num(st.responseP50() / 3600),
            num(st.responseP90() / 3600), num(st.responseP99() / 3600),
            Boolean.toString(p.load() <= c.reportLmax() + 1e-9),
            Integer.toString(p.backlogOverloaded()), Boolean.toString(p.backlogSustainable()),
            num(capacity(c, p))));
      }
    }
    Csv.write(out.resolve("curves.csv"), header, rows);
    List<List<String>> lm = new ArrayList<>();
    for (LoadSweep.Curve c : curves) {
      lm.add(List.of(c.variant().label(), num(c.cacheGb()), num(c.lmax()),
          num(c.lmaxBacklog()), Integer.toString(c.points().size()), num(c.wallSeconds()),
          Boolean.toString(c.lmaxOpen()), Boolean.toString(c.lmaxBacklogOpen()), c.stop(),
          num(c.reportLmax())));
    }
    Csv.write(out.resolve("lmax.csv"), List.of("variant", "cache_GB", "lmax_jobs_per_h",
        "lmax_backlog_jobs_per_h", "grid_points", "wall_s", "lmax_open", "lmax_backlog_open",
        "scan_stopped", "lmax_checked_jobs_per_h"), lm);
  }

  private void writeRuns(List<LoadSweep.Curve> curves) throws IOException {
    List<String> header = List.of("variant", "cache_GB", "load", "seed_index", "overloaded",
        "cut", "measured", "mean_wait_q2_h", "mean_wait_q4_h", "simulated_h", "policy_calls",
        "events", "replications", "master_load", "wall_s", "mean_backlog_q2_events",
        "mean_backlog_q4_events", "backlog_overloaded");
    List<List<String>> rows = new ArrayList<>();
    for (LoadSweep.Curve c : curves) {
      for (LoadSweep.Point p : c.points()) {
        int i = 1;
        for (RunResult<CernSimulation.Metrics> r : p.runs()) {
          rows.add(List.of(c.variant().label(), num(c.cacheGb()), num(p.load()),
              Integer.toString(i++), Boolean.toString(r.detail().overloaded()),
              Boolean.toString(r.detail().cut()),
              Integer.toString(r.detail().measured().size()), num(r.detail().meanWaitQ2() / 3600),
              num(r.detail().meanWaitQ4() / 3600), num(r.endTime() / 3600),
              Long.toString(r.detail().policyCalls()), Long.toString(r.events()),
              Long.toString(r.detail().replications()), num(r.schedulerLoad()),
              num(r.wallSeconds()),
              num(r.detail().meanBacklogQ2()), num(r.detail().meanBacklogQ4()),
              Boolean.toString(r.detail().backlogOverloaded())));
        }
      }
    }
    Csv.write(out.resolve("runs.csv"), header, rows);
  }

  private void writeHistograms(double cache, List<LoadSweep.Curve> cc) throws IOException {
    Map<String, long[]> hs = new LinkedHashMap<>();
    int bins = 0;
    for (LoadSweep.Curve c : cc) {
      LoadSweep.Point p = c.nearLmax();
      if (p != null) {
        long[] h = RunStats.histogram(p.stats().waitsExcl(), 3600);
        hs.put(c.variant().label() + " @" + num(p.load()), h);
        bins = Math.max(bins, h.length);
      }
    }
    List<String> header = new ArrayList<>(List.of("wait_bin_h"));
    header.addAll(hs.keySet());
    List<List<String>> rows = new ArrayList<>();
    for (int b = 0; b < bins; b++) {
      List<String> r = new ArrayList<>(List.of(Integer.toString(b)));
      for (long[] h : hs.values()) {
        r.add(b < h.length ? Long.toString(h[b]) : "0");
      }
      rows.add(r);
    }
    Csv.write(out.resolve("hist-" + num(cache) + "GB.csv"), header, rows);
    if (plots && !hs.isEmpty()) {
      charts.histograms(cache, hs);
    }
  }

  /** The protocol settings in one line, saying when they are reduced. */
  static String settingsLine(LoadSweep.Settings s) {
    boolean reduced = s.jobs() < 20_000 || s.seeds() < 5 || Math.abs(s.step() - 0.05) > 1e-9
        || s.nodes() != 10;
    return String.format(Locale.ROOT, "n = %d nodes, %d jobs per run, %d seeds (sustainable: "
            + "%d of %d not overloaded), load step %.2f jobs/h, D = %d events%s%s%s",
        s.nodes(), s.jobs(), s.seeds(), s.seeds() / 2 + 1, s.seeds(), s.step(), s.space(),
        s.hotSpots() ? "" : ", uniform starts", s.allSeeds() ? ", all seeds run" : "",
        reduced ? ". REDUCED setting (the spec's protocol: n = 10, >= 20,000 jobs, 5 seeds, "
            + "step 0.05)" : ". The spec's protocol.");
  }


  static String num(double v) {
    return Numbers.format(v);
  }

  static String fix(double v, int d) {
    return Numbers.fixed(v, d);
  }
}
