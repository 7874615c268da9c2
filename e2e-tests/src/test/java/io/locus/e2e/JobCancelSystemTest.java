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
import io.locus.schemas.JobCommand;
import io.locus.schemas.JobCommandType;
import io.locus.schemas.JobState;
import io.locus.schemas.JobStatus;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.codec.DeadLetterCodes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23 item 1, cancel in each state, on the whole system: an in-JVM broker, the scheduler job
 * on a MiniCluster with RocksDB, and one real agent process ({@code java -jar locus-agent.jar
 * real}, one slot and the default local queue of one) talking only through Kafka. A job held in
 * the agent's local queue and one queued at the scheduler behind it are cancelled and never run;
 * the running one, a real {@code sleep} whose pid its template writes down, is cancelled and the process is gone; the freed slot then runs the next job to completion; a
 * cancel of that finished job and of a job never submitted are dead-lettered ({@code
 * job-finished}, {@code unknown-job}) naming the command's record. Every transition is read back
 * from the job-status topic.
 *
 * <p>Needs the agent jar (node-agent's package phase), as {@link AgentDistributionSystemTest}.
 */
@Tag("integration")
@Timeout(300)
class JobCancelSystemTest {
  private static final String POOL = "e2e-cancel";
  private static final String NODE = "cancel-node";
  private static final Duration WAIT = Duration.ofSeconds(90);

  @TempDir Path dir;

  private final List<JobStatus> statuses = new CopyOnWriteArrayList<>();
  private final List<DeadLetter> deadLetters = new CopyOnWriteArrayList<>();

  @Test
  void aQueuedARunningAndAFinishedJobAreCancelledOrRefused() throws Exception {
    SchedulerConfig.PolicySpec fa = new SchedulerConfig.PolicySpec("FA", Map.of());
    SchedulerConfig cfg = new SchedulerConfig(fa, Map.of(POOL, fa), 1000, 3)
        .withPools(Set.of(POOL));
    Path storage = Files.createDirectories(dir.resolve("storage"));
    Files.writeString(storage.resolve("in-1"), "twelve bytes");
    Path pidFile = dir.resolve("running.pid");
    Path log = Files.createDirectories(Path.of("target", "child-logs").toAbsolutePath())
        .resolve("cancel-agent.log");
    Process agent = null;
    try (EmbeddedLocus locus = EmbeddedLocus.start(cfg, DeliveryMode.AT_LEAST_ONCE,
            Duration.ofSeconds(1));
        KafkaProducer<byte[], byte[]> producer =
            new KafkaProducer<>(ClientConfigs.producer(locus.bootstrapServers()));
        TopicTail tail = TopicTail.builder(ClientConfigs.base(locus.bootstrapServers()))
            .name("job-cancel-test")
            .follow(Topics.JOB_STATUS, (s, m) -> statuses.add(s))
            .follow(Topics.DEAD_LETTERS, (d, m) -> deadLetters.add(d))
            .start()) {
      String b = locus.bootstrapServers();
      Path yaml = dir.resolve("agent.yaml");
      Files.writeString(yaml, yaml(dir.resolve("data"), storage, b));
      agent = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java")
          .toString(), "-Xmx256m", "-jar", AgentDistributionSystemTest.agentJar().toString(),
          "real", "--config", yaml.toString(), "--stats-interval", "PT0S")
          .redirectErrorStream(true).redirectOutput(log.toFile()).start();
      Process a = agent;
      WholeSystem.await(WAIT, "the agent registered", () -> {
        assertThat(a.isAlive()).as("the agent exited: %s", tail(log)).isTrue();
        return read(log).contains("registered by the scheduler");
      });

      // A running job: a real sleep that wrote its pid down.
      send(producer, Topics.JOB_ARRIVALS.name(), Topics.JOB_ARRIVALS.value(
          job("run-1", "sleeper", List.of(pidFile.toString()))));
      WholeSystem.await(WAIT, "run-1 running", () -> last("run-1") == JobState.RUNNING
          && pidOf(pidFile) > 0);
      long pid = pidOf(pidFile);
      ProcessHandle sleeper = ProcessHandle.of(pid).orElseThrow();
      assertThat(sleeper.isAlive()).isTrue();

      // A placed job: the agent's one slot is taken, and its local queue (a real agent's
      // default depth is its slots: one) holds it.
      send(producer, Topics.JOB_ARRIVALS.name(), Topics.JOB_ARRIVALS.value(
          job("placed-1", "sleeper", List.of(dir.resolve("never-placed.pid").toString()))));
      WholeSystem.await(WAIT, "placed-1 placed", () -> last("placed-1") == JobState.PLACED);

      // A queued job: the slot and the local queue are taken.
      send(producer, Topics.JOB_ARRIVALS.name(), Topics.JOB_ARRIVALS.value(
          job("queued-1", "sleeper", List.of(dir.resolve("never.pid").toString()))));
      WholeSystem.await(WAIT, "queued-1 queued", () -> last("queued-1") == JobState.QUEUED);
      assertThat(of("queued-1").get(0).getPendingCode()).isEqualTo("no-free-slot");

      send(producer, Topics.JOB_COMMANDS.name(), Topics.JOB_COMMANDS.value(
          cancel("queued-1", "req-q")));
      WholeSystem.await(WAIT, "queued-1 cancelled", () -> last("queued-1") == JobState.CANCELLED);
      JobStatus q = latest("queued-1");
      assertThat(q.getRequestId()).isEqualTo("req-q");
      assertThat(q.getNode()).isNull();

      // The placed one leaves the node's local queue without ever starting.
      send(producer, Topics.JOB_COMMANDS.name(), Topics.JOB_COMMANDS.value(
          cancel("placed-1", "req-p")));
      WholeSystem.await(WAIT, "placed-1 cancelled", () -> last("placed-1") == JobState.CANCELLED);
      assertThat(latest("placed-1").getNode()).isEqualTo(NODE);

      send(producer, Topics.JOB_COMMANDS.name(), Topics.JOB_COMMANDS.value(
          cancel("run-1", "req-r")));
      WholeSystem.await(WAIT, "run-1 cancelled", () -> last("run-1") == JobState.CANCELLED);
      assertThat(latest("run-1").getNode()).isEqualTo(NODE);
      assertThat(latest("run-1").getRequestId()).isEqualTo("req-r");
      sleeper.onExit().get(60, TimeUnit.SECONDS);
      assertThat(sleeper.isAlive()).as("the cancelled process is gone").isFalse();

      // The slot is free again once the agent answered: the next job runs there to the end.
      send(producer, Topics.JOB_ARRIVALS.name(), Topics.JOB_ARRIVALS.value(
          job("after-1", "quick", List.of())));
      WholeSystem.await(WAIT, "after-1 completed", () -> last("after-1") == JobState.COMPLETED);
      assertThat(latest("after-1").getNode()).isEqualTo(NODE);

      // Refusals: a finished job, a job never submitted.
      RecordMetadata finished = send(producer, Topics.JOB_COMMANDS.name(),
          Topics.JOB_COMMANDS.value(cancel("after-1", "req-f")));
      RecordMetadata unknown = send(producer, Topics.JOB_COMMANDS.name(),
          Topics.JOB_COMMANDS.value(cancel("never-submitted", "req-u")));
      WholeSystem.await(WAIT, "both refusals dead-lettered",
          () -> letter(finished) != null && letter(unknown) != null);
      assertThat(letter(finished).getCode()).isEqualTo(DeadLetterCodes.JOB_FINISHED);
      assertThat(letter(unknown).getCode()).isEqualTo(DeadLetterCodes.UNKNOWN_JOB);
      assertThat(letter(unknown).getReason()).contains("never-submitted");

      // The cancelled jobs stayed cancelled: queued-1 never ran, run-1 never completed.
      assertThat(of("queued-1")).extracting(JobStatus::getState)
          .containsExactly(JobState.QUEUED, JobState.CANCELLED);
      assertThat(of("run-1")).extracting(JobStatus::getState)
          .containsExactly(JobState.QUEUED, JobState.PLACED, JobState.RUNNING,
              JobState.CANCELLED);
      assertThat(of("placed-1")).extracting(JobStatus::getState)
          .containsExactly(JobState.QUEUED, JobState.PLACED, JobState.CANCELLED);
      assertThat(Files.exists(dir.resolve("never.pid"))).isFalse();
      assertThat(Files.exists(dir.resolve("never-placed.pid"))).isFalse();
      assertThat(agent.isAlive()).isTrue();
      locus.checkJobAlive();
    } catch (AssertionError | Exception e) {
      System.out.println("agent log:\n" + tail(log));
      throw e;
    } finally {
      if (agent != null) {
        agent.destroy();
        if (!agent.waitFor(30, TimeUnit.SECONDS)) {
          agent.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
      }
    }
  }

  private static RecordMetadata send(KafkaProducer<byte[], byte[]> producer, String topic,
      byte[] value) throws Exception {
    return producer.send(new ProducerRecord<>(topic, POOL.getBytes(StandardCharsets.UTF_8),
        value)).get(30, TimeUnit.SECONDS);
  }

  private static JobSubmitted job(String id, String template, List<String> args) {
    return JobSubmitted.newBuilder().setJobId(id).setPool(POOL)
        .setSubmitTimeMs(System.currentTimeMillis()).setTemplate(template).setArgs(args)
        .setInputs(List.of(DataUnit.newBuilder().setId("in-1").setBytes(12).build()))
        .setComputeSeconds(1).build();
  }

  private static JobCommand cancel(String job, String requestId) {
    return JobCommand.newBuilder().setPool(POOL).setJobId(job).setType(JobCommandType.CANCEL)
        .setTimeMs(System.currentTimeMillis()).setReason("test").setRequestId(requestId).build();
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

  private DeadLetter letter(RecordMetadata m) {
    return deadLetters.stream().filter(d -> d.getSourceTopic().equals(m.topic())
        && d.getPartition() == m.partition() && d.getOffset() == m.offset())
        .findFirst().orElse(null);
  }

  private static long pidOf(Path pidFile) {
    String s = read(pidFile).strip();
    return s.matches("[0-9]+") ? Long.parseLong(s) : -1;
  }

  /**
   * One slot, no local queue, heartbeats every 500 ms; a {@code sleeper} template (a sleep that
   * writes its pid to its argument first) and a {@code quick} one that exits 0 at once.
   */
  private static String yaml(Path data, Path storage, String bootstrap) {
    return String.join("\n",
        "pool: " + POOL,
        "node-id: " + NODE,
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
        "templates:",
        "  sleeper:",
        "    command: [sh, -c, 'echo $$ > \"$1\"; exec sleep 300', sleeper, '{arg:0}']",
        "    max-args: 1",
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
