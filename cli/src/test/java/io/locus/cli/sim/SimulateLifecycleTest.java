package io.locus.cli.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.model.InputFile;
import io.locus.workloads.TraceJob;
import io.locus.workloads.TraceWriter;
import io.locus.workloads.Workload;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code locus simulate} with cancels and the workflow failure policy (issue 23): a trace's
 * {@code cancelAfter} and {@code --on-failure} reach the summary, and bad values exit 2 naming
 * the option or the trace line.
 */
class SimulateLifecycleTest {
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

  private static Map<String, String> summary(Path dir) throws Exception {
    List<String> lines = Files.readAllLines(dir.resolve("summary.csv"));
    String[] head = lines.get(0).split(",");
    String[] row = lines.get(1).split(",");
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i < head.length; i++) {
      m.put(head[i], row[i]);
    }
    return m;
  }

  private static TraceJob job(String id, double compute, Double cancelAfter, String... parents) {
    return new TraceJob(id, null, 0, List.of(InputFile.of("in-" + id, 1_000_000)), compute, 0,
        Map.of(), null, List.of(parents), List.of(), null, List.of(), null, cancelAfter);
  }

  /**
   * One workflow: F runs 100 s and is cancelled at 10 s; H needs F; K needs G (20 s); M needs H
   * and K. Z stands alone.
   */
  private Path trace() throws Exception {
    Path p = tmp.resolve("wf.jsonl");
    TraceWriter.write(p, Workload.of("wf", "lifecycle", List.of(job("F", 100, 10.0),
        job("G", 20, null), job("H", 1, null, "F"), job("K", 1, null, "G"),
        job("M", 1, null, "H", "K"), job("Z", 1, null))));
    return p;
  }

  private Outcome simulate(Path trace, Path out, String... more) {
    List<String> args = new java.util.ArrayList<>(List.of("simulate", "--trace", trace.toString(),
        "--policy", "fa", "--nodes", "2", "--provisioning", "srp", "--cache-gb", "1", "--out",
        out.toString(), "--no-plots", "--quiet"));
    args.addAll(List.of(more));
    return run(args.toArray(String[]::new));
  }

  @Test
  void aTracesCancelAndTheFailurePolicyReachTheSummary() throws Exception {
    Path trace = trace();
    Path desc = tmp.resolve("desc");
    Outcome o = simulate(trace, desc);
    assertThat(o.code()).as(o.err()).isZero();
    Map<String, String> s = summary(desc);
    assertThat(s.get("cancelled")).isEqualTo("1");
    assertThat(s.get("cancelled_running")).isEqualTo("1");
    assertThat(s.get("cancel_wasted_slot_s")).isEqualTo("10");
    assertThat(s.get("cancel_too_late")).isEqualTo("0");
    assertThat(s.get("failed_by_parent")).isEqualTo("2"); // H, then M
    assertThat(s.get("failed_by_workflow")).isEqualTo("0");
    assertThat(s.get("completed")).isEqualTo("3"); // G, K, Z
    assertThat(o.out()).contains("cancels: 1 cancelled (1 while placed or running, 10.0"
        + " slot-seconds wasted), 0 too late");

    Path wf = tmp.resolve("wf");
    o = simulate(trace, wf, "--on-failure", "fail-workflow");
    assertThat(o.code()).as(o.err()).isZero();
    s = summary(wf);
    assertThat(s.get("failed_by_parent")).isEqualTo("2");
    assertThat(s.get("failed_by_workflow")).isEqualTo("1"); // K, waiting for G
    assertThat(s.get("completed")).isEqualTo("2"); // G runs on, Z is another workflow
  }

  @Test
  void drawnCancelsAreRepeatableForASeed() throws Exception {
    Path a = tmp.resolve("a");
    Path b = tmp.resolve("b");
    for (Path out : List.of(a, b)) {
      Outcome o = run("simulate", "--workload", "stages18", "--policy", "gcc", "--nodes", "4",
          "--provisioning", "srp", "--cancel", "0.2", "--out", out.toString(), "--no-plots",
          "--quiet");
      assertThat(o.code()).as(o.err()).isZero();
    }
    assertThat(summary(b).get("decision_digest")).isEqualTo(summary(a).get("decision_digest"));
    assertThat(Long.parseLong(summary(a).get("cancelled"))).isPositive();
  }

  @Test
  void badValuesExit2NamingTheOptionOrTheLine() throws Exception {
    Path trace = trace();
    Outcome o = simulate(trace, tmp.resolve("x"), "--cancel", "1.5", "--cancel-within", "-1",
        "--on-failure", "nope");
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains("--cancel must be a fraction in [0, 1]")
        .contains("--cancel-within must be >= 0")
        .contains("--on-failure: unknown failure policy 'nope'; valid: fail-descendants,"
            + " fail-workflow");

    Path bad = tmp.resolve("bad.jsonl");
    Files.writeString(bad, "{\"format\":\"locus-trace\",\"version\":1,\"name\":\"b\",\"jobs\":1}\n"
        + "{\"jobId\":\"a\",\"arrival\":0,\"inputs\":[],\"computeSeconds\":1,\"cancelAfter\":-2}\n",
        StandardCharsets.UTF_8);
    o = simulate(bad, tmp.resolve("y"));
    assertThat(o.code()).isEqualTo(2);
    assertThat(o.err()).contains(bad + " line 2: job field 'cancelAfter' must be a number of"
        + " seconds >= 0 (after the job's arrival), got -2");
  }
}
