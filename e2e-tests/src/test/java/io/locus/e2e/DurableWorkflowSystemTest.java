package io.locus.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.agent.AgentHost;
import io.locus.cli.EmbeddedLocus;
import io.locus.cli.LocusCli;
import io.locus.cli.chaos.ChildJvm;
import io.locus.connectors.DeliveryMode;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.TopicTail;
import io.locus.kafka.Topics;
import io.locus.operators.SchedulerConfig;
import io.locus.schemas.JobState;
import io.locus.schemas.JobStatus;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.WorkflowState;
import io.locus.schemas.WorkflowStatus;
import io.locus.testkit.Await;
import io.locus.workloads.wf.SyntheticWorkflows;
import io.locus.workloads.wf.WfInstanceWriter;
import io.locus.workloads.wf.WfWorkflow;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Issue 23 item 3, durable workflows, through the whole system: embedded Kafka, the scheduler job
 * on a MiniCluster with RocksDB (its workflow runner included), agents talking only through
 * Kafka. A workflow submitted by {@code locus replay} runs to completion after the replay process
 * is killed right after submitting (the DAG lives in Flink state, not in the client), and the same
 * trace submitted again as a new workflow fails at once naming the first; and a task
 * that fails for good on real agents ends the replay at once, non-zero, naming it, while the
 * runner fails its descendants.
 */
@Tag("integration")
@Timeout(300)
class DurableWorkflowSystemTest {
  @TempDir Path dir;

  @Test
  void aWorkflowCompletesAfterTheReplayThatSubmittedItWasKilled() throws Exception {
    String pool = "e2e-durable";
    String id = "durable-1";
    WfWorkflow wf = SyntheticWorkflows.genome(1, 3, 2);
    Path trace = dir.resolve("genome.json");
    WfInstanceWriter.write(wf, "1.5", trace);
    try (EmbeddedLocus locus = EmbeddedLocus.start(SchedulerConfig.defaults("MCH"),
        DeliveryMode.AT_LEAST_ONCE, Duration.ofSeconds(1));
        AgentHost<?> agents = WholeSystem.simulatedAgents(locus.bootstrapServers(), pool, 3, 2);
        Follower follower = new Follower(locus.bootstrapServers(), id)) {
      assertThat(agents.awaitRegistered(Duration.ofSeconds(30))).isTrue();
      ChildJvm replay = ChildJvm.start("durable-replay", 256, LocusCli.class.getName(), List.of(
          "replay", "--trace", trace.toString(), "--format", "wfcommons", "--pool", pool,
          "--bootstrap-servers", locus.bootstrapServers(), "--speedup", "0", "--time-scale",
          "0.01", "--workflow-id", id, "--quiet"));
      try (replay) {
        // printed once Kafka acknowledged every part: the submission is durable from here
        replay.awaitLine("workflow " + id + ": " + wf.tasks().size() + " jobs", Duration.ofSeconds(60));
        replay.kill();
      }
      Await.atMost(Duration.ofSeconds(180)).pollEvery(Duration.ofMillis(100)).until(
          () -> "workflow " + id + " succeeded; " + follower, () -> {
            locus.checkJobAlive();
            return follower.last(WorkflowState.SUCCEEDED) != null;
          });
      WorkflowStatus done = follower.last(WorkflowState.SUCCEEDED);
      assertThat(done.getJobs()).isEqualTo(wf.tasks().size());
      assertThat(done.getCompleted()).isEqualTo(wf.tasks().size());
      assertThat(done.getFailed()).isZero();
      // every job released once, by the scheduler job, with its workflow
      assertThat(follower.released).hasSize(wf.tasks().size());
      assertThat(follower.twice).isEmpty();
      assertThat(follower.released.values()).allSatisfy(j -> assertThat(j.getWorkflow())
          .isEqualTo(id));

      // the same trace again as a new workflow: its job ids are taken by the finished one, so
      // it fails at once in the scheduler, naming the earlier workflow (it used to stay RUNNING)
      String again = "durable-2";
      try (Follower second = new Follower(locus.bootstrapServers(), again)) {
        Run rerun = locus("replay", "--trace", trace.toString(), "--format", "wfcommons",
            "--pool", pool, "--bootstrap-servers", locus.bootstrapServers(), "--speedup", "0",
            "--workflow-id", again, "--no-wait", "--quiet");
        assertThat(rerun.code()).as(rerun.err()).isZero();
        Await.atMost(Duration.ofSeconds(120)).pollEvery(Duration.ofMillis(100)).until(
            () -> "workflow " + again + " failed; " + second, () -> {
              locus.checkJobAlive();
              return second.last(WorkflowState.FAILED) != null;
            });
        assertThat(second.last(WorkflowState.FAILED).getReason())
            .contains("refused by the scheduler (duplicate-job)")
            .contains("a job of workflow '" + id + "'");
        assertThat(second.last(WorkflowState.FAILED).getCompleted()).isZero();
      }
      locus.checkJobAlive();
    }
  }

  @Test
  void aTaskFailingForGoodEndsTheReplayAtOnceNamingItAndFailsItsDescendants() throws Exception {
    String pool = "e2e-wf-fail";
    String instance = "blast-fail";
    WfWorkflow wf = SyntheticWorkflows.blast(2, 10_000);
    Path trace = dir.resolve(instance + ".json");
    WfInstanceWriter.write(wf, "1.5", trace);
    Path storage = Files.createDirectories(dir.resolve("storage"));
    Run made = locus("storage", "create", "--trace", trace.toString(), "--storage-root",
        storage.toString());
    assertThat(made.code()).as(made.err()).isZero();
    SchedulerConfig.PolicySpec fa = new SchedulerConfig.PolicySpec("FA", Map.of());
    // two attempts per task: the failure is for good after the second
    SchedulerConfig cfg = new SchedulerConfig(fa, Map.of(pool, fa), 1000, 1)
        .withPools(Set.of(pool));
    Process agent = null;
    Path log = Path.of("target", "child-logs", "wf-fail-agent.log").toAbsolutePath();
    try (EmbeddedLocus locus = EmbeddedLocus.start(cfg, DeliveryMode.AT_LEAST_ONCE,
        Duration.ofSeconds(1));
        Follower follower = new Follower(locus.bootstrapServers(), "wf-fail")) {
      Path yaml = dir.resolve("agent.yaml");
      // every task's process exits 1: the workflow's root fails for good
      Files.writeString(yaml, RealAgentYaml.of(pool, "fail-0", dir.resolve("fail-0"), storage,
          locus.bootstrapServers(), false, "earliest", List.of("sh", "-c", "exit 1")));
      Files.createDirectories(log.getParent());
      agent = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java")
          .toString(), "-Xmx256m", "-jar", AgentDistributionSystemTest.agentJar().toString(),
          "real", "--config", yaml.toString(), "--stats-interval", "PT0S")
          .redirectErrorStream(true).redirectOutput(log.toFile()).start();

      long t0 = System.nanoTime();
      Run replay = locus("replay", "--trace", trace.toString(), "--format", "wfcommons",
          "--pool", pool, "--bootstrap-servers", locus.bootstrapServers(), "--speedup", "0",
          "--time-scale", "0.001", "--workflow-id", "wf-fail", "--timeout", "PT10M", "--quiet");
      Duration took = Duration.ofNanos(System.nanoTime() - t0);
      String root = wf.tasks().stream().filter(t -> t.parents().isEmpty()).findFirst()
          .orElseThrow().id();
      assertThat(replay.code()).as("replay: %s %s%s", replay.out(), replay.err(), tail(log))
          .isEqualTo(1);
      // the scheduler's reason, naming the root (its own failure or, when a descendant's is read
      // first, the runner's "parent '<root>' failed"), long before the 10-minute timeout
      assertThat(replay.err()).contains("of workflow wf-fail failed")
          .contains(instance + "/" + root);
      assertThat(took).isLessThan(Duration.ofMinutes(3));
      // the runner fails the root's descendants (never released) with the root's name
      Await.atMost(Duration.ofSeconds(60)).pollEvery(Duration.ofMillis(100)).until(
          () -> "descendants failed; " + follower, () -> follower.jobs.values().stream().filter(s -> s.getState() == JobState.FAILED
              && s.getReason().contains("'" + instance + "/" + root + "' failed")).count()
              == wf.tasks().size() - 1);
      assertThat(follower.released.keySet()).containsExactly(instance + "/" + root);
      locus.checkJobAlive();
    } finally {
      if (agent != null) {
        agent.destroy();
        if (!agent.waitFor(30, TimeUnit.SECONDS)) {
          agent.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
      }
    }
  }

  /** What the scheduler job writes about one workflow, from the beginning of its topics. */
  private static final class Follower implements AutoCloseable {
    final List<WorkflowStatus> workflow = new CopyOnWriteArrayList<>();
    final Map<String, JobStatus> jobs = new ConcurrentHashMap<>();
    final Map<String, JobSubmitted> released = new ConcurrentHashMap<>();
    /** Jobs released more than once (none may be: asserted by the tests through this). */
    final List<String> twice = new CopyOnWriteArrayList<>();
    private final TopicTail tail;

    Follower(String bootstrap, String id) {
      tail = TopicTail.builder(ClientConfigs.consumer(bootstrap, null, false))
          .name("durable-follower")
          .from(TopicTail.Start.beginning())
          .follow(Topics.WORKFLOW_STATUS, (s, m) -> {
            if (s.getWorkflowId().equals(id)) {
              workflow.add(s);
            }
          })
          .follow(Topics.JOB_STATUS, (s, m) -> {
            if (id.equals(s.getWorkflow())) {
              jobs.put(s.getJobId(), s);
            }
          })
          .follow(Topics.JOB_ARRIVALS, (j, m) -> {
            if (id.equals(j.getWorkflow())) {
              if (released.put(j.getJobId(), j) != null) {
                twice.add(j.getJobId());
              }
            }
          })
          .start();
    }

    @Override
    public String toString() {
      return "workflow statuses " + workflow + ", job statuses " + jobs.values()
          + ", released " + released.keySet() + (tail.failure() == null ? ""
          : ", follower failed: " + tail.failure());
    }

    WorkflowStatus last(WorkflowState state) {
      return workflow.stream().filter(s -> s.getState() == state).reduce((a, b) -> b)
          .orElse(null);
    }

    @Override
    public void close() {
      tail.close();
    }
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

  private static String tail(Path log) {
    try {
      String s = Files.readString(log, StandardCharsets.UTF_8);
      return "\n--- " + log + ":\n" + s.substring(Math.max(0, s.length() - 3000));
    } catch (IOException e) {
      return "\n(no log " + log + ")";
    }
  }
}
