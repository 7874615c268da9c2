package io.locus.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.jobs.SchedulerJobMain;
import io.locus.workloads.Workloads;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * What an operator meets on a first day (issue 26, items 1, 4 and 5): each mistake exits with a
 * code a script can test and says what happened, once, at its real place.
 */
class ExitCodesAndMessagesTest {
  @TempDir
  Path tmp;

  private record Run(int code, String out, String err) {}

  private static Run run(CommandLine cl, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int code = cl.execute(args);
    return new Run(code, out.toString(), err.toString());
  }

  private static Run locus(String... args) {
    return run(LocusCli.commandLine(), args);
  }

  // ---- item 4: an unknown command ---------------------------------------------------------------

  @Test
  void anUnknownCommandExits2AndListsTheCommandsEvenWithHelp() {
    for (String[] args : List.of(new String[] {"cancel", "--help"}, new String[] {"cancel"},
        new String[] {"--help", "cancel"})) {
      Run r = locus(args);
      assertThat(r.code()).as(Arrays.toString(args)).isEqualTo(2);
      assertThat(r.err()).as(Arrays.toString(args))
          .contains("locus: unknown command 'cancel'", "Commands:", "replay", "status", "agent");
      // not the top-level help on stdout, as if the line were valid
      assertThat(r.out()).as(Arrays.toString(args)).doesNotContain("Usage:");
    }
  }

  @Test
  void anUnknownSubcommandOfAGroupListsThatGroupsCommands() {
    Run r = locus("agent", "bogus", "--help");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("locus agent: unknown command 'bogus'", "Commands:", "sim",
        "real", "node-key");
    Run s = locus("storage", "wipe");
    assertThat(s.code()).isEqualTo(2);
    assertThat(s.err()).contains("locus storage: unknown command 'wipe'", "create");
  }

  @Test
  void theStandaloneEntryPointsShareTheHandling() {
    Run agent = run(io.locus.agent.AgentCli.commandLine(), "bogus", "--help");
    assertThat(agent.code()).isEqualTo(2);
    assertThat(agent.err()).contains("unknown command 'bogus'", "real");
    // the job's main has no subcommands: a stray word is an unmatched argument, also exit 2
    Run job = run(SchedulerJobMain.commandLine(), "bogus", "--help");
    assertThat(job.code()).isEqualTo(2);
    assertThat(job.err()).contains("'bogus'");
  }

  @Test
  void helpAndAKnownCommandStillWork() {
    assertThat(locus("--help").code()).isZero();
    assertThat(locus("storage", "create", "--help").code()).isZero();
    assertThat(locus("help", "status").code()).isZero();
  }

  // ---- item 5: errors that say what happened ----------------------------------------------------

  @Test
  void aMalformedTraceSaysItsLineAndColumnOnce() throws Exception {
    Path bad = tmp.resolve("bad.jsonl");
    Files.writeString(bad, "{\"format\":\"locus-trace\",\"version\":1,\"name\":\"t\",\"jobs\":2}\n"
        + "{\"jobId\":\"a\",\"arrival\":0,\"inputs\":[],\"computeSeconds\":0}\n"
        + "[1\n", StandardCharsets.UTF_8);
    Run r = locus("trace", "--trace", bad.toString(), "-o", tmp.resolve("o.jsonl").toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains(bad + " line 3: invalid JSON at column ")
        .contains("(opened at column 1)")
        .doesNotContain("line: 1").doesNotContain("Source:").doesNotContain("\tat ");
  }

  /**
   * Issue 22: a published WfCommons instance with a quirk in a field scheduling never reads (a
   * date such as 03-23-21T06:04:36Z) is converted, with one warning naming the file and path.
   */
  @Test
  void aWfCommonsQuirkInAnUnusedFieldIsAWarningNotARefusal() throws Exception {
    com.fasterxml.jackson.databind.node.ObjectNode root = io.locus.workloads.wf.WfInstanceWriter
        .toJson(io.locus.workloads.wf.SyntheticWorkflows.blast(3, 1_000), "1.5");
    ((com.fasterxml.jackson.databind.node.ObjectNode) root.get("workflow").get("execution"))
        .put("executedAt", "03-23-21T06:04:36Z");
    Path quirky = tmp.resolve("blast-quirk.json");
    new com.fasterxml.jackson.databind.ObjectMapper().writeValue(quirky.toFile(), root);
    Run r = locus("trace", "--trace", quirky.toString(), "-o", tmp.resolve("q.jsonl").toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("wrote 5 jobs");
    assertThat(r.err()).contains("warning: " + quirky + ": $.workflow.execution.executedAt: "
        + "'03-23-21T06:04:36Z' is not an ISO 8601 date-time");
  }

  @Test
  void aMissingTraceFileSaysItDoesNotExist() {
    Path missing = tmp.resolve("nope.jsonl");
    for (String command : List.of("trace", "storage", "simulate")) {
      List<String> args = new ArrayList<>(switch (command) {
        case "trace" -> List.of("trace", "-o", tmp.resolve("o.jsonl").toString());
        case "storage" -> List.of("storage", "create", "--storage-root", tmp.toString());
        default -> List.of("simulate", "--no-plots", "--out", tmp.resolve("sim").toString());
      });
      args.addAll(List.of("--trace", missing.toString()));
      Run r = locus(args.toArray(String[]::new));
      assertThat(r.code()).as(command).isEqualTo(2);
      assertThat(r.err()).as(command).contains(missing + " does not exist")
          .doesNotContain("cannot read");
    }
  }

  @Test
  void anAgentWhosePortIsTakenSaysTheFileLineAndKey() throws Exception {
    try (ServerSocket held = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = held.getLocalPort();
      Path config = tmp.resolve("agent.yaml");
      Files.writeString(config, "pool: p\nnode-id: n1\ndata-dir: data\nhttp:\n  bind: 127.0.0.1\n"
          + "  port: " + port + "\n");
      ByteArrayOutputStream captured = new ByteArrayOutputStream();
      PrintStream old = System.err;
      System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
      Run r;
      try {
        // no broker here: the port is checked before Kafka is contacted
        r = locus("agent", "real", "--config", config.toString(), "--bootstrap-servers",
            "127.0.0.1:1");
      } finally {
        System.setErr(old);
      }
      String err = captured.toString(StandardCharsets.UTF_8) + r.err();
      assertThat(r.code()).isEqualTo(2);
      assertThat(err).contains(config + ":6: http.port: port " + port
          + " on 127.0.0.1 is in use by another process").doesNotContain("\tat ");
    }
  }

  // ---- item 1: generators and real agents -------------------------------------------------------

  @Test
  void aWorkloadWhoseInputsAllHaveALocationOfTheirOwnIsRefused() {
    Run r = locus("storage", "create", "--workload", "khanna", "--workload-param", "n=20",
        "--storage-root", tmp.toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("khanna: all ", " input files name a location of their own",
        "nothing to write", StorageCommand.Create.SUITED);
    // its help says which generators suit real agents
    Run help = locus("storage", "create", "--help");
    assertThat(help.out().replaceAll("\\s+", " ")).contains("Generators for real agents:",
        "khanna's inputs each name a location of their own");
  }

  @Test
  void aWorkloadThatReadsNoFilesSaysSoAndSucceeds() {
    Run r = locus("storage", "create", "--workload", "stages18", "--storage-root",
        tmp.toString());
    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("nothing to write: the jobs of stages18 read no input files");
  }

  @Test
  void theHelpsListOfGeneratorsCoversEveryGenerator() {
    List<String> named = new ArrayList<>();
    for (String list : List.of(StorageCommand.Create.SUITED, StorageCommand.Create.NO_INPUTS)) {
      named.addAll(Arrays.asList(list.replace(" and ", ", ").replace("the ", "")
          .replace(" workloads", "").split(", ")));
    }
    for (String name : Workloads.names()) {
      boolean listed = name.equals("khanna") || named.contains(name)
          || name.endsWith("-mix") && named.contains("*-mix");
      assertThat(listed).as(name + " is in the storage create help's lists").isTrue();
    }
  }

  @Test
  void sizesTakeUnitsInParametersAndOptions() throws Exception {
    Path root = tmp.resolve("root");
    Files.createDirectories(root);
    Run r = locus("storage", "create", "--workload", "dd-throughput", "--workload-param",
        "fileBytes=10kB", "--storage-root", root.toString(), "--max-bytes", "1MB");
    assertThat(r.err()).isEmpty();
    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("40 input files (400000 bytes)");
    // the limit is read with its unit: 400 kB is more than 100kB
    Run over = locus("storage", "create", "--workload", "dd-throughput", "--workload-param",
        "fileBytes=10kB", "--storage-root", tmp.resolve("other").toString(), "--max-bytes",
        "100kB");
    assertThat(over.code()).isEqualTo(2);
    assertThat(over.err()).contains("more than --max-bytes 100000");
    Run bad = locus("storage", "create", "--workload", "dd-throughput", "--workload-param",
        "fileBytes=10mb", "--storage-root", root.toString());
    assertThat(bad.code()).isEqualTo(2);
    assertThat(bad.err()).contains("parameter 'fileBytes'", "did you mean MB?");
  }
}
