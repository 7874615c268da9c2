package io.locus.cli.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.workloads.wf.SyntheticWorkflows;
import io.locus.workloads.wf.WfInstanceWriter;
import io.locus.workloads.wf.WfWorkflow;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code locus simulate --trace} reads a WfCommons instance of every WfFormat version and an SWF
 * log (issue 15): the same workflow written as 1.0 … 1.6 simulates to the same decisions, and an
 * SWF excerpt runs with and without its file-set model.
 */
class SimulateTraceFormatsTest {
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

  /** The summary row of a run, by column name. */
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

  @Test
  void everyWfFormatVersionSimulatesToTheSameDecisions() throws Exception {
    WfWorkflow wf = SyntheticWorkflows.genome(1, 4, 2);
    String digest = null;
    for (String v : List.of("1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "1.6")) {
      Path file = tmp.resolve("genome.json");
      WfInstanceWriter.write(wf, v, file);
      Path out = tmp.resolve("out-" + v);
      Outcome o = run("simulate", "--trace", file.toString(), "--format", "wfcommons",
          "--policy", "mch", "--nodes", "4", "--provisioning", "srp", "--cache-gb", "1",
          "--out", out.toString(), "--no-plots", "--quiet");
      assertThat(o.code()).as("%s: %s", v, o.err()).isZero();
      Map<String, String> s = summary(out);
      assertThat(s.get("completed")).as(v).isEqualTo(Integer.toString(wf.tasks().size()));
      if (digest == null) {
        digest = s.get("decision_digest");
      }
      assertThat(s.get("decision_digest")).as("version %s decides as 1.0", v).isEqualTo(digest);
    }
  }

  @Test
  void anSwfLogSimulatesWithAndWithoutItsFileModel() throws Exception {
    Path swf = tmp.resolve("excerpt.swf");
    Files.writeString(swf, String.join("\n",
        "; Version: 2.2",
        "; MaxNodes: 4",
        // job submit wait run procs cpu mem reqprocs reqtime reqmem status user group exe queue part prev think
        "1 0 5 120 1 -1 -1 1 200 -1 1 7 1 3 1 -1 -1 -1",
        "2 10 0 60 2 -1 -1 2 100 -1 1 7 1 3 1 -1 -1 -1",
        "3 30 0 90 1 -1 -1 1 100 -1 1 8 1 4 1 -1 2 5",
        "4 40 0 -1 1 -1 -1 1 100 -1 0 8 1 4 1 -1 -1 -1",
        ""));
    Path with = tmp.resolve("with");
    Outcome o = run("simulate", "--trace", swf.toString(), "--format", "swf", "--policy", "gcc",
        "--nodes", "2", "--provisioning", "srp", "--cache-gb", "4", "--out", with.toString(),
        "--no-plots", "--quiet");
    assertThat(o.code()).as(o.err()).isZero();
    Map<String, String> s = summary(with);
    assertThat(s.get("completed")).isEqualTo("3"); // job 4 has no run time: skipped
    assertThat(Long.parseLong(s.get("bytes_read"))).isPositive();

    Path without = tmp.resolve("without");
    o = run("simulate", "--trace", swf.toString(), "--format", "swf", "--swf-file-model", "false",
        "--policy", "gcc", "--nodes", "2", "--provisioning", "srp", "--cache-gb", "4", "--out",
        without.toString(), "--no-plots", "--quiet");
    assertThat(o.code()).as(o.err()).isZero();
    assertThat(summary(without).get("completed")).isEqualTo("3");
    assertThat(summary(without).get("bytes_read")).isEqualTo("0");
  }
}
