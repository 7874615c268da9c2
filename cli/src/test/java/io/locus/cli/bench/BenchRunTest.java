package io.locus.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.cli.LocusCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code locus bench} small and fast, end to end: embedded broker and scheduler job (heap state),
 * 20 simulated agents in a child JVM, FA, two short steps and one overload step (2 × the
 * sustained rate). Its table and CSV have rows with placements, ordered percentiles, the overload
 * step against the sustained rate, and the agents' process is gone afterwards.
 */
@Tag("integration")
class BenchRunTest {
  @TempDir Path tmp;

  @Test
  void smallBenchWritesTableCsvAndPlotAndStopsItsAgents() throws Exception {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    PrintStream saved = System.out;
    CommandLine cl = LocusCli.commandLine();
    StringWriter err = new StringWriter();
    cl.setErr(new PrintWriter(err));
    int code;
    System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
    try {
      code = cl.execute("bench", "--policy", "FA", "--state-backend", "hashmap",
          "--nodes", "20", "--slots", "2", "--rates", "100,200", "--step", "PT2S",
          "--drain", "PT20S", "--warmup", "PT1S", "--overload", "2", "--out", tmp.toString());
    } finally {
      System.setOut(saved);
    }
    String out = buf.toString(StandardCharsets.UTF_8);
    saved.println(out);
    assertThat(code).as("exit code; stderr: %s; stdout: %s", err, out).isEqualTo(0);

    // the table: one row per step, with placements and ordered percentiles
    Pattern row = Pattern.compile("^FA at-least-once hashmap zipf K=1\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)"
        + "\\s+(\\d+)\\s+([\\d.]+)\\s+([\\d.]+)\\s+([\\d.]+)\\s+(\\d+)\\s+(\\d+)\\s+(yes|no)$",
        Pattern.MULTILINE);
    Matcher m = row.matcher(out);
    int rows = 0;
    while (m.find()) {
      rows++;
      assertThat(Double.parseDouble(m.group(3))).as("placed/s").isPositive();
      double p50 = Double.parseDouble(m.group(5));
      double p99 = Double.parseDouble(m.group(6));
      double max = Double.parseDouble(m.group(7));
      assertThat(p50).isPositive().isLessThanOrEqualTo(p99);
      assertThat(p99).isLessThanOrEqualTo(max);
    }
    // the warm-up is not a row; the overload step is
    assertThat(rows).as("table rows in:%n%s", out).isEqualTo(3);
    assertThat(out).containsPattern("warm-up: \\d+ jobs at 100/s over 1 s \\(not reported\\)");
    assertThat(out).contains("sustained");
    // 20 nodes × 2 slots keep up with 100/s at least: one step at 2 × the sustained rate
    assertThat(out).contains("== locus bench: overload")
        .containsPattern("FA at-least-once hashmap zipf K=1 +2× +(100 +200|200 +400) +\\d+ "
            + "+[\\d.]+ ");

    // the CSV: the same rows
    List<String> csv = Files.readAllLines(tmp.resolve("bench.csv"));
    assertThat(csv.get(0)).isEqualTo(BenchReport.CSV_HEADER);
    assertThat(csv).hasSize(4);
    List<String> cols = List.of(BenchReport.CSV_HEADER.split(","));
    for (String line : csv.subList(1, csv.size())) {
      String[] v = line.split(",", -1);
      assertThat(v).hasSize(cols.size());
      assertThat(v[cols.indexOf("policy")]).isEqualTo("FA");
      assertThat(v[cols.indexOf("nodes")]).isEqualTo("20");
      assertThat(Double.parseDouble(v[cols.indexOf("placements_per_s")])).isPositive();
      boolean overload = !v[cols.indexOf("overload_factor")].isEmpty();
      assertThat(overload).as("only the last row is an overload step: %s", line)
          .isEqualTo(line.equals(csv.get(csv.size() - 1)));
      double p50 = Double.parseDouble(v[cols.indexOf("p50_ms")]);
      double p99 = Double.parseDouble(v[cols.indexOf("p99_ms")]);
      double max = Double.parseDouble(v[cols.indexOf("max_ms")]);
      assertThat(p50).isLessThanOrEqualTo(p99);
      assertThat(p99).isLessThanOrEqualTo(max);
    }
    assertThat(Files.size(tmp.resolve("bench.png"))).isPositive();

    // the agents ran in a child JVM, and it is gone
    assertThat(Files.readString(tmp.resolve("logs/agents-bench-fa-0.log")))
        .contains("20 simulated agents of pool bench-fa-0 registered");
    assertThat(ProcessHandle.current().descendants()
        .filter(p -> p.info().commandLine().orElse("").contains("io.locus.agent.AgentCli"))
        .toList()).isEmpty();
  }
}
