package io.locus.cli.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.locus.cli.LocusCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A short {@code locus chaos}: both delivery modes, every kind that holds today, real child
 * processes (broker, {@code locus run}, agents) started from this JVM's class path. The command's
 * exit code and its summary (printed and in summary.json) are what is asserted.
 */
@Tag("integration")
@Timeout(600)
class ChaosCommandTest {
  /** Every kind the command injects (TaskManager loss is out of its reach: see its help). */
  private static final String KINDS =
      "scheduler-kill,agent-kill,broker-kill,node-lost,rescale,clock-skew,forge";

  private static int run(StringWriter out, StringWriter err, String... args) {
    CommandLine cl = LocusCli.commandLine();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    return cl.execute(args);
  }

  @Test
  void aShortRunInBothModesInjectsSevenKindsAndLosesNothing(@TempDir Path dir) throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int rc = run(out, err, "chaos", "--tasks", "300", "--failures", "7", "--kinds", KINDS,
        "--delivery", "both", "--nodes", "8", "--agent-processes", "3", "--rate", "40",
        "--node-timeout", "PT10S", "--seed", "5", "--out", dir.toString());
    String text = out + "\n" + err;
    System.out.println(text);
    assertThat(rc).as(text).isZero();
    assertThat(text).contains("== at-least-once: PASSED ==", "== exactly-once: PASSED ==",
        "locus chaos: PASSED");
    JsonNode json = new ObjectMapper().readTree(dir.resolve("summary.json").toFile());
    assertThat(json.get("passed").asBoolean()).isTrue();
    assertThat(json.get("modes")).hasSize(2);
    for (JsonNode m : json.get("modes")) {
      assertThat(m.get("tasks").asInt()).isEqualTo(300);
      assertThat(m.get("completed").asInt()).as(m.toString()).isEqualTo(300);
      assertThat(m.get("lost").asInt()).isZero();
      assertThat(m.get("effectiveDuplicates").asInt()).isZero();
      List<String> kinds = new ArrayList<>();
      for (JsonNode f : m.get("failures")) {
        assertThat(f.get("ok").asBoolean()).as(f.toString()).isTrue();
        kinds.add(f.get("kind").asText());
      }
      assertThat(kinds).containsExactlyInAnyOrder(KINDS.split(","));
      if (m.get("delivery").asText().equals("exactly-once")) {
        assertThat(m.get("executedTwice").asInt()).isZero();
      }
    }
    assertThat(Files.readAllLines(dir.resolve("failures.csv"))).hasSize(1 + 14);
    assertThat(Files.readAllLines(dir.resolve("summary.csv"))).hasSize(3);
  }
}
