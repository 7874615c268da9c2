package io.locus.cli.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import io.locus.workloads.TraceWriter;
import io.locus.workloads.Workloads;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The simulate and experiment commands: outputs, and bad arguments (exit 2, say how to fix). */
class CliTest {
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
  void simulateWritesSummarySeriesAndPlots() throws Exception {
    Outcome o = run("simulate", "--workload", "stages18", "--policy", "fa", "--provisioning",
        "srp", "--nodes", "32", "--slots", "1", "--cache-gb", "0", "--out", tmp.toString());
    assertThat(o.code()).as(o.err()).isZero();
    assertThat(o.out()).contains("FA", "1000", "1260.0");
    for (String f : List.of("summary.csv", "series.csv", "slowdown.csv", "throughput.png",
        "queue.png", "hits.png", "nodes.png")) {
      assertThat(tmp.resolve(f)).isNotEmptyFile();
    }
    List<String> summary = Files.readAllLines(tmp.resolve("summary.csv"));
    assertThat(summary).hasSize(2);
    assertThat(summary.get(0)).startsWith("label,workload,policy");
    assertThat(summary.get(1)).contains(",stages18,FA,srp,");
    assertThat(Files.readAllLines(tmp.resolve("series.csv")).get(0)).startsWith("time_s,");
  }

  @Test
  void unknownNamesAreListedWithTheValidOnes() {
    Outcome o = run("simulate", "--workload", "nope", "--policy", "xyz", "--eviction", "mru");
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains("unknown workload 'nope'", "mi, sw", "unknown policy 'xyz'",
        "FA, FCA, MCU, MCH, GCC", "--eviction", "LRU, FIFO, LFU, RANDOM", "--help");
  }

  @Test
  void badNumbersAndBadWorkloadParametersExitWithTwo() {
    Outcome o = run("simulate", "--nodes", "0", "--theta", "1.5", "--provisioning", "sometimes");
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains("--nodes must be > 0", "--theta must be between 0 and 1",
        "srp, drp, lrm-per-task");
    Outcome p = run("simulate", "--workload", "stacking", "--workload-param", "locality=7",
        "--out", tmp.toString());
    assertThat(p.code()).isEqualTo(2);
    assertThat(p.err()).contains("locality");
    Outcome q = run("simulate", "--nodes", "many");
    assertThat(q.code()).isEqualTo(2);
    assertThat(q.err()).contains("--nodes");
  }

  /**
   * Issue 21: the DRP ceiling is --max-nodes (as in locus run), --nodes the static pool; a
   * --nodes given with drp alone is still the ceiling, with a note.
   */
  @Test
  void theDrpCeilingIsMaxNodesAndNodesWithDrpIsTakenAsItWithANote() {
    Outcome o = run("simulate", "--provisioning", "drp", "--max-nodes", "0");
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains("--max-nodes must be > 0");
    Outcome m = run("simulate", "--provisioning", "drp", "--max-nodes", "4", "--min-nodes", "5");
    assertThat(m.err()).contains("--min-nodes must be between 0 and --max-nodes (4)");
    Outcome n = run("simulate", "--provisioning", "drp", "--nodes", "0");
    assertThat(n.err()).contains("--nodes 0 taken as --max-nodes 0")
        .contains("--max-nodes must be > 0");
    Outcome s = run("simulate", "--provisioning", "srp", "--nodes", "0", "--max-nodes", "9");
    assertThat(s.err()).contains("--nodes must be > 0").doesNotContain("--max-nodes must");
    Outcome d = run("simulate", "--provisioning", "dynamic", "--max-nodes", "0");
    assertThat(d.err()).as("locus run's spelling of drp").contains("--max-nodes must be > 0");
  }

  @Test
  void simulateReadsALocusTraceThroughTraceFiles() throws Exception {
    Path trace = tmp.resolve("stages.jsonl");
    TraceWriter.write(trace, Workloads.create("stages18", Map.of(), 1));
    Path out = tmp.resolve("out");
    Outcome o = run("simulate", "--trace", trace.toString(), "--format", "locus", "--policy",
        "fa", "--provisioning", "srp", "--nodes", "32", "--slots", "1", "--cache-gb", "0",
        "--no-plots", "--quiet", "--out", out.toString());
    assertThat(o.code()).as(o.err()).isZero();
    assertThat(o.out()).contains("Simulating stages18 (1000 tasks) with FA", "1000");
    assertThat(Files.readAllLines(out.resolve("summary.csv")).get(1)).contains(",stages18,FA,");
  }

  @Test
  void traceOptionsAreValidated() throws Exception {
    Outcome o = run("simulate", "--trace", tmp.resolve("nope.json").toString(), "--format",
        "csv", "--time-scale", "0");
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains("--trace: " + tmp.resolve("nope.json") + " does not exist",
        "unknown trace format 'csv'", "locus, wfcommons, swf", "--time-scale must be > 0");
    Outcome p = run("simulate", "--workload", "stages18", "--format", "swf",
        "--swf-file-model", "false");
    assertThat(p.code()).isEqualTo(2);
    assertThat(p.err()).contains("--format applies to --trace files only",
        "--swf-file-model applies to --trace files only");
    // a malformed trace is a usage error with the reader's message, not a stack trace
    Path bad = tmp.resolve("bad.jsonl");
    Files.writeString(bad, "{\"not\": \"a header\"}\n");
    Outcome q = run("simulate", "--trace", bad.toString(), "--quiet", "--no-plots", "--out",
        tmp.resolve("o").toString());
    assertThat(q.code()).as(q.out()).isEqualTo(2);
    assertThat(q.err()).contains("--trace: ", "bad.jsonl").doesNotContain("\tat ");
  }

  @Test
  void experimentNamesAreValidated() {
    Outcome o = run("experiment", "dd9");
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains("unknown experiment 'dd9'", "dd1-mi", "p2-stages18");
    Outcome l = run("experiment", "--list");
    assertThat(l.code()).isZero();
    assertThat(l.out()).contains("dd1-mi", "dd2-sw", "dd5-stacking", "dd6-sched-micro",
        "p2-stages18", "hybrid:", "hybrid-h3", "hybrid-cluster");
    assertThat(o.err()).contains("hybrid-cluster");
  }

  @Test
  void p2ExperimentWritesItsTable() throws Exception {
    Outcome o = run("experiment", "p2-stages18", "--out", tmp.toString());
    assertThat(o.code()).as(o.err()).isZero();
    String md = Files.readString(tmp.resolve("results.md"));
    assertThat(md).contains("LRM_PER_TASK", "DRP-idle15", "DRP-idle180", "SRP-32", "allocations");
    assertThat(Files.readAllLines(tmp.resolve("results.csv"))).hasSize(7);
    assertThat(tmp.resolve("plots").resolve("completion-time.png")).isNotEmptyFile();
    assertThat(tmp.resolve("SRP-32").resolve("series.csv")).isNotEmptyFile();
  }
}
