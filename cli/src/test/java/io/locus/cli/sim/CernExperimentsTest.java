package io.locus.cli.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code locus experiment cern-*}: listing, outputs on a tiny setting, and bad arguments. */
class CernExperimentsTest {
  @TempDir Path tmp;

  private record Outcome(int code, String out, String err) {}

  private static Outcome run(String... args) {
    CommandLine cl = io.locus.cli.LocusCli.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int code = cl.execute(args);
    return new Outcome(code, out.toString(), err.toString());
  }

  @Test
  void listShowsTheCernExperiments() {
    Outcome o = run("experiment", "--list");
    assertThat(o.code()).isZero();
    assertThat(o.out()).contains("cern-load", "cern-e1", "cern-e2", "cern-e3", "cern-e4",
        "cern-e5", "cern-point");
  }

  @Test
  void loadSweepWritesTablesCurvesHistogramsAndPlots() throws Exception {
    Outcome o = run("experiment", "cern-load", "--policies", "FARM,OUT_OF_ORDER",
        "--caches-gb", "50", "--jobs", "400", "--seeds", "1", "--load-step", "0.5", "--max-load",
        "1.5", "--out", tmp.toString());
    assertThat(o.code()).as(o.err()).isZero();
    assertThat(o.out()).contains("Sustainable load Lmax", "REDUCED setting", "| FARM |");
    for (String f : List.of("results.md", "lmax.csv", "curves.csv", "runs.csv", "hist-50GB.csv",
        "plots/wait-50GB.png", "plots/speedup-50GB.png", "plots/hist-50GB.png",
        "plots/lmax.png")) {
      assertThat(tmp.resolve(f)).isNotEmptyFile();
    }
    List<String> lmax = Files.readAllLines(tmp.resolve("lmax.csv"));
    assertThat(lmax.get(0)).isEqualTo("variant,cache_GB,lmax_jobs_per_h,"
        + "lmax_backlog_jobs_per_h,grid_points,wall_s,lmax_open,lmax_backlog_open,scan_stopped,"
        + "lmax_checked_jobs_per_h");
    assertThat(lmax).hasSize(3);
    assertThat(Files.readString(tmp.resolve("results.md")))
        .contains("locus experiment cern-load --policies FARM,OUT_OF_ORDER");
  }

  @Test
  void badVariantsAndSettingsSayHowToFixThem() {
    Outcome o = run("experiment", "cern-load", "--policies", "FIFO", "--out", tmp.toString());
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains("unknown split policy 'FIFO'", "OUT_OF_ORDER");
    Outcome p = run("experiment", "cern-load", "--policies", "DELAYED:period", "--out",
        tmp.toString());
    assertThat(p.code()).isEqualTo(2);
    assertThat(p.err()).contains("not key=value");
    Outcome q = run("experiment", "cern-e7", "--out", tmp.toString());
    assertThat(q.code()).isEqualTo(2);
    assertThat(q.err()).contains("--lmax-table");
    Outcome r = run("experiment", "cern-load", "--caches-gb", "0", "--out", tmp.toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("--caches-gb");
  }

}
