package io.locus.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.cli.EmbeddedLocus;
import io.locus.connectors.DeliveryMode;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.TopicTail;
import io.locus.kafka.Topics;
import io.locus.operators.SchedulerConfig;
import io.locus.schemas.DataUnit;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.JobState;
import io.locus.schemas.JobStatus;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.codec.DeadLetterCodes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24, preemption with real agents, on the whole system: an in-JVM broker, the scheduler job
 * on a MiniCluster with RocksDB, and two real agent processes ({@code java -jar locus-agent.jar
 * real}, one slot each, no local queue) talking only through Kafka. Two queues with a guarantee
 * of one slot each share the pool; queue a fills both slots with long real processes (a
 * {@code sleep} whose pid its template writes down); queue b's job arrives; the scheduler preempts
 * one of a's attempts: its agent stops the process (it is gone) and reports PREEMPTED; b's job
 * runs on the freed slot and completes; the preempted job is queued again, runs again later and
 * completes. Every job completes exactly once and nothing fails: the preempted attempt is not a
 * failure.
 *
 * <p>Needs the agent jar (node-agent's package phase), as {@link AgentDistributionSystemTest}.
 */
@Tag("integration")
@Timeout(300)
class PreemptionSystemTest {
  private static final String POOL = "e2e-preempt";
  private static final Duration WAIT = Duration.ofSeconds(90);
  /** How long a's jobs run: long against the preemption, short for the test. */
  private static final String A_SECONDS = "15";

  @TempDir Path dir;

  private final List<JobStatus> statuses = new CopyOnWriteArrayList<>();
  private final List<TaskEvent> events = new CopyOnWriteArrayList<>();
  private final List<DeadLetter> deadLetters = new CopyOnWriteArrayList<>();

  @Test
  void aQueueBelowItsGuaranteePreemptsARealProcessAndEveryJobCompletesOnce() throws Exception {
    SchedulerConfig.PolicySpec fa = new SchedulerConfig.PolicySpec("FA", Map.of());
    SchedulerConfig cfg = new SchedulerConfig(fa, Map.of(POOL, fa), 1000, 3)
        .withPools(Set.of(POOL));
    Path storage = Files.createDirectories(dir.resolve("storage"));
    Files.writeString(storage.resolve("in-1"), "twelve bytes");
    Path logs = Files.createDirectories(Path.of("target", "child-logs").toAbsolutePath());
    List<Process> agents = new ArrayList<>();
    List<Path> logFiles = new ArrayList<>();
    try (EmbeddedLocus locus = EmbeddedLocus.start(cfg, DeliveryMode.AT_LEAST_ONCE,
            Duration.ofSeconds(1));
        KafkaProducer<byte[], byte[]> producer =
            new KafkaProducer<>(ClientConfigs.producer(locus.bootstrapServers()));
        TopicTail tail = TopicTail.builder(ClientConfigs.base(locus.bootstrapServers()))
            .name("preemption-test")
            .follow(Topics.JOB_STATUS, (s, m) -> statuses.add(s))
            .follow(Topics.TASK_EVENTS, (e, m) -> events.add(e))
            .follow(Topics.DEAD_LETTERS, (d, m) -> deadLetters.add(d))
            .start()) {
      String b = locus.bootstrapServers();
      Path tree = dir.resolve("queues.yaml");
      Files.writeString(tree, """
          pool: %s
          queues:
            - name: a
              guaranteedSlots: 1
            - name: b
              guaranteedSlots: 1
          """.formatted(POOL));
      WholeSystem.CliRun applied = WholeSystem.cli("queues", "apply", tree.toString(),
          "--bootstrap-servers", b, "--timeout", "PT60S");
      assertThat(applied.code()).as(applied.err()).isZero();

      for (String node : List.of("pre-1", "pre-2")) {
        Path yaml = dir.resolve(node + ".yaml");
        Files.writeString(yaml, yaml(node, dir.resolve(node), storage, b));
        Path log = logs.resolve("preempt-" + node + ".log");
        logFiles.add(log);
        agents.add(new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java")
            .toString(), "-Xmx256m", "-jar", AgentDistributionSystemTest.agentJar().toString(),
            "real", "--config", yaml.toString(), "--stats-interval", "PT0S")
            .redirectErrorStream(true).redirectOutput(log.toFile()).start());
      }
      for (int i = 0; i < agents.size(); i++) {
        Process a = agents.get(i);
        Path log = logFiles.get(i);
        WholeSystem.await(WAIT, "agent " + i + " registered", () -> {
          assertThat(a.isAlive()).as("the agent exited: %s", tail(log)).isTrue();
          return read(log).contains("registered by the scheduler");
        });
      }

      // Queue a fills both slots with long real processes.
      for (String id : List.of("a-1", "a-2")) {
        send(producer, job(id, "a", "sleeper", List.of(dir.resolve(id + ".pid").toString(),
            A_SECONDS)));
      }
      WholeSystem.await(WAIT, "a-1 and a-2 running", () -> last("a-1") == JobState.RUNNING
          && last("a-2") == JobState.RUNNING && pidOf(dir.resolve("a-1.pid")) > 0
          && pidOf(dir.resolve("a-2.pid")) > 0);
      ProcessHandle a1 = ProcessHandle.of(pidOf(dir.resolve("a-1.pid"))).orElseThrow();
      ProcessHandle a2 = ProcessHandle.of(pidOf(dir.resolve("a-2.pid"))).orElseThrow();

      // Queue b arrives below its guarantee: one of a's attempts is preempted.
      send(producer, job("b-1", "b", "quick", List.of()));
      WholeSystem.await(WAIT, "an a job preempted", () -> of("a-1").stream().anyMatch(
          s -> s.getState() == JobState.PREEMPTED) || of("a-2").stream().anyMatch(
          s -> s.getState() == JobState.PREEMPTED));
      String victim = of("a-1").stream().anyMatch(s -> s.getState() == JobState.PREEMPTED)
          ? "a-1" : "a-2";
      String other = victim.equals("a-1") ? "a-2" : "a-1";
      ProcessHandle stopped = victim.equals("a-1") ? a1 : a2;
      ProcessHandle kept = victim.equals("a-1") ? a2 : a1;
      stopped.onExit().get(60, TimeUnit.SECONDS);
      assertThat(stopped.isAlive()).as("the preempted process is gone").isFalse();
      assertThat(kept.isAlive()).as("the other a job runs on").isTrue();
      TaskEvent preempted = events.stream().filter(e -> e.getTaskId().equals(victim)
          && e.getType() == TaskEventType.PREEMPTED).findFirst().orElseThrow();
      assertThat(preempted.getAttempt()).isZero();

      // b's job runs on the freed slot; then the preempted job runs again and completes.
      WholeSystem.await(WAIT, "b-1 completed", () -> last("b-1") == JobState.COMPLETED);
      assertThat(latest("b-1").getNode()).isEqualTo(preempted.getNode());
      WholeSystem.await(WAIT, "a-1 and a-2 completed", () -> last("a-1") == JobState.COMPLETED
          && last("a-2") == JobState.COMPLETED);

      List<JobState> victimStates = of(victim).stream().map(JobStatus::getState).toList();
      assertThat(victimStates).containsSubsequence(JobState.RUNNING, JobState.PREEMPTED,
          JobState.QUEUED, JobState.PLACED, JobState.RUNNING, JobState.COMPLETED);
      assertThat(latest(victim).getAttempt()).as("re-run as the next attempt").isEqualTo(1);
      for (String id : List.of(victim, other, "b-1")) {
        assertThat(of(id)).as("%s completes exactly once, never fails", id)
            .filteredOn(s -> s.getState() == JobState.COMPLETED).hasSize(1);
        assertThat(of(id)).filteredOn(s -> s.getState() == JobState.FAILED).isEmpty();
      }
      assertThat(of(other)).extracting(JobStatus::getState).doesNotContain(JobState.PREEMPTED);
      assertThat(events).filteredOn(e -> e.getType() == TaskEventType.FAILED).isEmpty();
      assertThat(events).filteredOn(e -> e.getType() == TaskEventType.PREEMPTED).hasSize(1);
      assertThat(deadLetters).extracting(DeadLetter::getCode).as("no task event refused")
          .doesNotContain(DeadLetterCodes.NOT_PREEMPTING, DeadLetterCodes.UNKNOWN_TASK);
      for (Process a : agents) {
        assertThat(a.isAlive()).isTrue();
      }
      locus.checkJobAlive();
    } catch (AssertionError | Exception e) {
      for (Path log : logFiles) {
        System.out.println("agent log " + log + ":\n" + tail(log));
      }
      throw e;
    } finally {
      for (Process a : agents) {
        a.destroy();
        if (!a.waitFor(30, TimeUnit.SECONDS)) {
          a.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
      }
    }
  }

  private static void send(KafkaProducer<byte[], byte[]> producer, JobSubmitted job)
      throws Exception {
    producer.send(new ProducerRecord<>(Topics.JOB_ARRIVALS.name(),
        POOL.getBytes(StandardCharsets.UTF_8), Topics.JOB_ARRIVALS.value(job)))
        .get(30, TimeUnit.SECONDS);
  }

  private static JobSubmitted job(String id, String queue, String template, List<String> args) {
    return JobSubmitted.newBuilder().setJobId(id).setPool(POOL).setQueue(queue)
        .setSubmitTimeMs(System.currentTimeMillis()).setTemplate(template).setArgs(args)
        .setInputs(List.of(DataUnit.newBuilder().setId("in-1").setBytes(12).build()))
        .setComputeSeconds(1).build();
  }

  private List<JobStatus> of(String job) {
    return statuses.stream().filter(s -> s.getJobId().equals(job)).toList();
  }

  private JobStatus latest(String job) {
    List<JobStatus> l = of(job);
    return l.isEmpty() ? null : l.get(l.size() - 1);
  }

  private JobState last(String job) {
    JobStatus s = latest(job);
    return s == null ? null : s.getState();
  }

  private static long pidOf(Path pidFile) {
    String s = read(pidFile).strip();
    return s.matches("[0-9]+") ? Long.parseLong(s) : -1;
  }

  /**
   * One slot, no local queue (a placement waits at the scheduler, where fair share orders it),
   * heartbeats every 500 ms; a {@code sleeper} template (a sleep of its second argument's seconds
   * that writes its pid to its first argument) and a {@code quick} one that exits 0 at once.
   */
  private static String yaml(String node, Path data, Path storage, String bootstrap) {
    return String.join("\n",
        "pool: " + POOL,
        "node-id: " + node,
        "slots: 1",
        "heartbeat: 500ms",
        "data-dir: " + data.toAbsolutePath(),
        "cache:",
        "  quota: 100MB",
        "storage:",
        "  root: " + storage.toAbsolutePath().toUri(),
        "kafka:",
        "  bootstrap-servers: " + bootstrap,
        "  read-committed: false",
        "  create-topics: false",
        "http:",
        "  bind: 127.0.0.1",
        "  port: 0",
        "tasks:",
        "  queue-depth: 0",
        "templates:",
        "  sleeper:",
        "    command: [sh, -c, 'echo $$ > \"$1\"; exec sleep \"$2\"', sleeper, '{arg:0}',"
            + " '{arg:1}']",
        "    max-args: 2",
        "  quick:",
        "    command: [sh, -c, 'exit 0']",
        "    max-args: 0",
        "");
  }

  private static String read(Path p) {
    try {
      return Files.exists(p) ? Files.readString(p, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      return "";
    }
  }

  private static String tail(Path log) {
    String s = read(log);
    return s.substring(Math.max(0, s.length() - 4000));
  }
}
