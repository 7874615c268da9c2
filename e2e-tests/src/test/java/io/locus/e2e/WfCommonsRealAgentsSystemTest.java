package io.locus.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.agent.real.TaskTemplate;
import io.locus.cli.EmbeddedLocus;
import io.locus.cli.LocusCli;
import io.locus.connectors.DeliveryMode;
import io.locus.operators.SchedulerConfig;
import io.locus.workloads.wf.SyntheticWorkflows;
import io.locus.workloads.wf.WfInstanceWriter;
import io.locus.workloads.wf.WfTask;
import io.locus.workloads.wf.WfWorkflow;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Issue 23 item 5: a WfCommons workflow of the published BLAST shape (a split task declaring one
 * output per chunk, blastall tasks reading the shared database and their chunk, a merge), written
 * as a WfFormat 1.5 instance, runs end to end on two real agent processes ({@code java -jar
 * locus-agent.jar real}) with real files and the chart's default template, which writes every
 * declared output ({@link TaskTemplate#CHECKSUM_COMMAND}). The root inputs are created with
 * {@code locus storage create}; {@code locus replay} publishes the DAG and exits 0 once every
 * task completed; every output is then in storage (staged out by the agent that wrote it) and
 * holds the checksums of its task's inputs. Before the template could name all declared
 * outputs, every task with an output failed.
 */
@Tag("integration")
@Timeout(300)
class WfCommonsRealAgentsSystemTest {
  private static final String POOL = "e2e-wf-real";
  private static final String INSTANCE = "blast-real";

  @TempDir Path dir;

  @Test
  void aBlastShapedWorkflowRunsOnRealAgentsWithTheDefaultTemplate() throws Exception {
    WfWorkflow wf = SyntheticWorkflows.blast(4, 300_000);
    Path trace = dir.resolve(INSTANCE + ".json");
    WfInstanceWriter.write(wf, "1.5", trace);
    Path storage = Files.createDirectories(dir.resolve("storage"));
    Run made = locus("storage", "create", "--trace", trace.toString(), "--storage-root",
        storage.toString());
    assertThat(made.code()).as(made.err()).isZero();

    SchedulerConfig.PolicySpec mch = new SchedulerConfig.PolicySpec("MCH", Map.of());
    SchedulerConfig cfg = new SchedulerConfig(mch, Map.of(POOL, mch), 1000, 3)
        .withPools(Set.of(POOL));
    List<Process> agents = new ArrayList<>();
    List<Path> logs = new ArrayList<>();
    try (EmbeddedLocus locus = EmbeddedLocus.start(cfg, DeliveryMode.AT_LEAST_ONCE,
        Duration.ofSeconds(1))) {
      for (int i = 0; i < 2; i++) {
        String node = "wf-real-" + i;
        Path yaml = dir.resolve(node + ".yaml");
        Files.writeString(yaml, yaml(node, dir.resolve(node), storage,
            locus.bootstrapServers()));
        Path log = Path.of("target", "child-logs", "wf-real-" + node + ".log").toAbsolutePath();
        Files.createDirectories(log.getParent());
        logs.add(log);
        agents.add(new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java")
            .toString(), "-Xmx256m", "-jar", AgentDistributionSystemTest.agentJar().toString(),
            "real", "--config", yaml.toString(), "--stats-interval", "PT0S")
            .redirectErrorStream(true).redirectOutput(log.toFile()).start());
      }
      // The replay waits for every task (it releases children as parents complete) and exits 0
      // only when all completed: that is the assertion that the workflow ran.
      Run replay = locus("replay", "--trace", trace.toString(), "--format", "wfcommons",
          "--pool", POOL, "--bootstrap-servers", locus.bootstrapServers(), "--speedup", "0",
          "--time-scale", "0.001", "--timeout", "PT150S", "--quiet");
      assertThat(replay.code()).as("replay: %s %s%s", replay.out(), replay.err(), tails(logs))
          .isZero();
      locus.checkJobAlive();
      for (Process a : agents) {
        assertThat(a.isAlive()).as("agents still running" + tails(logs)).isTrue();
      }
    } finally {
      for (Process a : agents) {
        a.destroy();
        if (!a.waitFor(30, TimeUnit.SECONDS)) {
          a.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
      }
    }
    // Every declared output of every task exists in storage with the checksum of each of the
    // task's inputs (the stand-in reads them all). The first run of this test found that an
    // output of another size than declared fails every child (staging checks the planned size):
    // hence the stand-in's sizes.
    int outputs = 0;
    for (WfTask t : wf.tasks()) {
      for (String o : t.outputs()) {
        Path written = storage.resolve(INSTANCE).resolve(o);
        assertThat(written).as(t.id() + " wrote " + o).isRegularFile();
        // The stand-in writes the traced size, so children stage exactly what they planned.
        assertThat(Files.size(written)).as(o).isEqualTo(wf.fileSizes().get(o));
        String text = Files.readString(written, StandardCharsets.UTF_8);
        for (String in : t.inputs()) {
          assertThat(text).contains("/" + (INSTANCE + "/" + in).replace("/", "%2F"));
        }
        outputs++;
      }
    }
    assertThat(outputs).isEqualTo(wf.tasks().stream().mapToInt(t -> t.outputs().size()).sum())
        .isGreaterThan(8);
  }

  private record Run(int code, String out, String err) {}

  private static Run locus(String... args) {
    CommandLine cl = LocusCli.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int code = cl.execute(args);
    return new Run(code, out.toString(), err.toString());
  }

  /** A real agent's config with the chart's default template (node-agent/README.md). */
  private static String yaml(String node, Path data, Path storage, String bootstrap) {
    return RealAgentYaml.of(POOL, node, data, storage, bootstrap, false, "earliest",
        TaskTemplate.CHECKSUM_COMMAND);
  }

  private static String tails(List<Path> logs) {
    StringBuilder b = new StringBuilder();
    for (Path log : logs) {
      try {
        String s = Files.readString(log, StandardCharsets.UTF_8);
        b.append("\n--- ").append(log).append(":\n")
            .append(s.substring(Math.max(0, s.length() - 3000)));
      } catch (IOException e) {
        b.append("\n(no log ").append(log).append(")");
      }
    }
    return b.toString();
  }
}
