package io.locus.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.cli.EmbeddedLocus;
import io.locus.connectors.DeliveryMode;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.Topics;
import io.locus.operators.SchedulerConfig;
import io.locus.schemas.DataUnit;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lightweight agent distribution end to end: {@code java -jar node-agent/target/locus-agent.jar
 * real --config FILE}, a child process with nothing of this JVM's class path (no Flink, no broker,
 * no simulator), against an in-JVM broker and the scheduler job on a MiniCluster. Jobs over real
 * files in a storage directory (with their sha256, which the agent checks as it stages) are placed
 * on that agent, which stages the files into its cache, runs the allow-listed {@code sha256sum}
 * template and reports COMPLETED under its node id.
 *
 * <p>Needs the jar, built at node-agent's package phase: a reactor {@code mvn verify} packages
 * node-agent before e2e-tests runs this tier; alone, {@code mvn -pl node-agent -am package
 * -DskipTests} first.
 */
@Tag("integration")
@Timeout(300)
class AgentDistributionSystemTest {
  private static final String POOL = "e2e-agent-dist";
  private static final String NODE = "dist-node-0";
  private static final int FILES = 5;
  private static final int JOBS = 6;
  private static final Duration WAIT = Duration.ofSeconds(120);

  @TempDir Path dir;

  /** The agent jar of this source tree (or -Dlocus.agent.jar=...); fails clearly when missing. */
  static Path agentJar() {
    String given = System.getProperty("locus.agent.jar");
    Path jar = given != null ? Path.of(given)
        // surefire and failsafe set basedir to the module (e2e-tests); the jar is its sibling's
        : Path.of(System.getProperty("basedir", System.getProperty("user.dir"))).toAbsolutePath()
            .getParent().resolve("node-agent/target/locus-agent.jar");
    assertThat(jar)
        .as("the agent distribution %s is missing: it is built at node-agent's package phase "
            + "(mvn -B verify from the root does it before this test; alone: mvn -B -DskipTests "
            + "package -pl node-agent -am)", jar)
        .isRegularFile();
    return jar;
  }

  @Test
  void jobsOverRealFilesCompleteOnTheAgentJarsAgent() throws Exception {
    Path jar = agentJar();
    Path storage = Files.createDirectories(dir.resolve("storage"));
    Map<String, String> sha256 = writeFiles(storage);

    SchedulerConfig.PolicySpec mch = new SchedulerConfig.PolicySpec("MCH", Map.of());
    SchedulerConfig cfg = new SchedulerConfig(mch, Map.of(POOL, mch), 1000, 3)
        .withPools(Set.of(POOL));
    Process agent = null;
    Path log = Path.of("target", "child-logs", "agent-distribution-" + NODE + ".log")
        .toAbsolutePath();
    try (EmbeddedLocus locus = EmbeddedLocus.start(cfg, DeliveryMode.AT_LEAST_ONCE,
            Duration.ofSeconds(1));
        Follower follower = new Follower(locus.bootstrapServers());
        KafkaProducer<byte[], byte[]> producer =
            new KafkaProducer<>(ClientConfigs.producer(locus.bootstrapServers()))) {
      Path data = dir.resolve(NODE);
      Path yaml = dir.resolve(NODE + ".yaml");
      Files.writeString(yaml, yaml(data, storage, locus.bootstrapServers()));

      Files.createDirectories(log.getParent());
      long started = System.nanoTime();
      // The distribution as a user runs it: java -jar, no class path, no JVM flags.
      agent = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Xmx256m", "-jar", jar.toString(), "real", "--config", yaml.toString(),
          "--stats-interval", "PT0S")
          .redirectErrorStream(true).redirectOutput(log.toFile()).start();
      Process p = agent;

      await("the agent's first heartbeat", p, log, () -> {
        follower.poll();
        return follower.firstHeartbeatNanos != 0;
      });
      System.out.printf("agent jar: first heartbeat %.2f s after the process started%n",
          (follower.firstHeartbeatNanos - started) / 1e9);
      assertThat(follower.registered).as("REGISTER before the heartbeat").isTrue();

      List<String> ids = new ArrayList<>(sha256.keySet());
      for (int j = 0; j < JOBS; j++) {
        // one or two inputs each, overlapping, so later jobs read files already cached
        List<DataUnit> inputs = new ArrayList<>();
        for (int k = 0; k <= j % 2; k++) {
          String id = ids.get((j + k) % FILES);
          inputs.add(DataUnit.newBuilder().setId(id).setBytes(Files.size(storage.resolve(id)))
              .setChecksum(sha256.get(id)).build());
        }
        JobSubmitted job = JobSubmitted.newBuilder().setJobId(POOL + "-j" + j).setPool(POOL)
            .setSubmitTimeMs(System.currentTimeMillis()).setInputs(inputs)
            .setTemplate("checksum").build();
        producer.send(new ProducerRecord<>(Topics.JOB_ARRIVALS.name(),
            Topics.JOB_ARRIVALS.key(POOL), Topics.JOB_ARRIVALS.value(job))).get();
      }

      await("COMPLETED task events for all " + JOBS + " jobs", p, log, () -> {
        follower.poll();
        return follower.completedJobs().size() == JOBS;
      });
      locus.checkJobAlive();

      List<TaskEvent> completed = follower.events.stream()
          .filter(e -> e.getType() == TaskEventType.COMPLETED).toList();
      assertThat(follower.completedJobs()).hasSize(JOBS);
      assertThat(completed).allSatisfy(e -> {
        assertThat(e.getNode()).isEqualTo(NODE);
        assertThat(e.getExitCode()).isZero();
      });
      assertThat(follower.events).noneMatch(e -> e.getType() == TaskEventType.FAILED
          || e.getType() == TaskEventType.REFUSED);
      // Every file came from storage (checked against its sha256 as it arrived) into the agent's
      // cache; at least once each (two tasks may both count a file fetched while both wait on it).
      long storageBytes = completed.stream().mapToLong(TaskEvent::getBytesStorage).sum();
      long fileBytes = 0;
      for (String id : ids) {
        fileBytes += Files.size(storage.resolve(id));
        assertThat(data.resolve("cache").resolve(id)).hasSameBinaryContentAs(storage.resolve(id));
      }
      assertThat(storageBytes).isGreaterThanOrEqualTo(fileBytes);
    } catch (AssertionError | Exception e) {
      System.out.println("agent log " + log + ":\n" + tail(log));
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

  /** FILES files of 8 to 64 KiB of seeded random bytes; their sha256 by id. */
  private static Map<String, String> writeFiles(Path storage) throws Exception {
    Random random = new Random(21);
    Map<String, String> sha = new LinkedHashMap<>();
    for (int f = 0; f < FILES; f++) {
      byte[] bytes = new byte[8192 * (1 + random.nextInt(8))];
      random.nextBytes(bytes);
      String id = "dist-file-" + f;
      Files.write(storage.resolve(id), bytes);
      sha.put(id, HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)));
    }
    return sha;
  }

  /** The agent's config, as node-agent/README.md describes it (see agent.example.yaml). */
  private static String yaml(Path data, Path storage, String bootstrap) {
    return RealAgentYaml.of(POOL, NODE, data, storage, bootstrap, false, "earliest",
        java.util.List.of("sha256sum", "{inputs}"));
  }

  /** Waits for {@code done} (polled) with a deadline; fails at once if the agent exits. */
  private static void await(String what, Process agent, Path log,
      java.util.function.BooleanSupplier done) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!done.getAsBoolean()) {
      if (!agent.isAlive()) {
        throw new AssertionError("the agent exited (code " + agent.exitValue() + ") before "
            + what + "; end of " + log + ":\n" + tail(log));
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + WAIT + ": " + what);
      }
      // Follower.poll blocks up to 200 ms: the loop waits on the records, not on a sleep.
    }
  }

  private static String tail(Path log) {
    try {
      String s = Files.readString(log, StandardCharsets.UTF_8);
      return s.substring(Math.max(0, s.length() - 4000));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  /** Reads this pool's node reports and task events from the beginning, without a group. */
  private static final class Follower implements AutoCloseable {
    private final KafkaConsumer<byte[], byte[]> consumer;
    final List<TaskEvent> events = new ArrayList<>();
    boolean registered;
    long firstHeartbeatNanos;

    Follower(String bootstrap) {
      consumer = new KafkaConsumer<>(ClientConfigs.consumer(bootstrap, null, false));
      List<TopicPartition> parts = new ArrayList<>();
      for (String topic : List.of(Topics.NODE_REPORTS.name(), Topics.TASK_EVENTS.name())) {
        consumer.partitionsFor(topic).forEach(i -> parts.add(new TopicPartition(topic, i.partition())));
      }
      consumer.assign(parts);
      consumer.seekToBeginning(parts);
    }

    void poll() {
      for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
        if (r.topic().equals(Topics.TASK_EVENTS.name())) {
          TaskEvent e = Topics.TASK_EVENTS.decode(r.value());
          if (e.getPool().equals(POOL)) {
            events.add(e);
          }
        } else {
          NodeReport n = Topics.NODE_REPORTS.decode(r.value());
          if (n.getNode().equals(NODE)) {
            registered |= n.getType() == NodeReportType.REGISTER;
            if (n.getType() == NodeReportType.HEARTBEAT && firstHeartbeatNanos == 0) {
              firstHeartbeatNanos = System.nanoTime();
            }
          }
        }
      }
    }

    Set<String> completedJobs() {
      Set<String> jobs = new java.util.TreeSet<>();
      events.stream().filter(e -> e.getType() == TaskEventType.COMPLETED)
          .forEach(e -> jobs.add(e.getJobId()));
      return jobs;
    }

    @Override
    public void close() {
      consumer.close();
    }
  }
}
