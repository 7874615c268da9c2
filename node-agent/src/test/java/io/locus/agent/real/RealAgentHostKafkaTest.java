package io.locus.agent.real;

import static io.locus.agent.real.Fixture.input;
import static io.locus.agent.real.Fixture.peer;
import static io.locus.agent.real.Fixture.sha256;
import static io.locus.agent.real.Fixture.storage;
import static io.locus.agent.real.Fixture.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.locus.agent.AgentHost;
import io.locus.agent.HostConfig;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.testkit.EmbeddedKafka;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.Topics;
import io.locus.schemas.CachedFile;
import io.locus.schemas.Decision;
import io.locus.schemas.FetchSource;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.testkit.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real agents against a real (embedded) broker: they register, receive decisions from the
 * decisions topic, stage real files, run real processes, learn peers from node-reports, and drain
 * on request and on SIGTERM (as a separate process started by the CLI).
 */
@Tag("integration")
@Timeout(120)
class RealAgentHostKafkaTest {
  private static final Await WAIT = Await.atMost(AwaitingOutput.DEADLINE);

  private static final Duration DEADLINE = Duration.ofSeconds(40);
  private static EmbeddedKafka kafka;
  private static KafkaProducer<byte[], byte[]> decisions;

  @TempDir
  Path tmp;
  private String pool;
  private Path storageDir;
  private KafkaConsumer<byte[], byte[]> observer;
  private final List<TaskEvent> events = new ArrayList<>();
  private final List<NodeReport> reports = new ArrayList<>();
  private final List<AutoCloseable> closeLater = new ArrayList<>();
  private int ids;

  @BeforeAll
  static void startKafka() {
    kafka = EmbeddedKafka.start();
    TopicAdmin.ensureTopics(kafka.bootstrapServers(), Topics.ALL);
    decisions = new KafkaProducer<>(ClientConfigs.producer(kafka.bootstrapServers()));
  }

  @AfterAll
  static void stopKafka() {
    if (decisions != null) {
      decisions.close();
    }
    if (kafka != null) {
      kafka.close();
    }
  }

  @BeforeEach
  void setUp() throws Exception {
    pool = "pool-" + UUID.randomUUID().toString().substring(0, 8);
    storageDir = Files.createDirectories(tmp.resolve("storage"));
    observer = new KafkaConsumer<>(ClientConfigs.consumer(kafka.bootstrapServers(), null, false));
    List<TopicPartition> tps = List.of(
        new TopicPartition(Topics.TASK_EVENTS.name(),
            Topics.partitionOf(pool, Topics.TASK_EVENTS.partitions())),
        new TopicPartition(Topics.NODE_REPORTS.name(),
            Topics.partitionOf(pool, Topics.NODE_REPORTS.partitions())));
    observer.assign(tps);
    observer.seekToBeginning(tps);
  }

  @AfterEach
  void tearDown() throws Exception {
    for (AutoCloseable c : closeLater) {
      c.close();
    }
    observer.close();
  }

  private byte[] storageFile(String name, int size) throws Exception {
    byte[] b = new byte[size];
    new Random(name.hashCode()).nextBytes(b);
    Files.write(storageDir.resolve(name), b);
    return b;
  }

  private RealAgentConfig template() {
    // A host's template: each agent gets its own node id, directories and port.
    return new TestAgentConfig(pool, tmp)
        .nodeId("template")
        .dataDir(tmp.resolve("template"))
        .heartbeatMs(500)
        .cacheCapacityBytes(10_000_000)
        .storageRoot(storageDir.toUri())
        .template("sum", "sha256sum", "{inputs}")
        .defaultTemplate("sum")
        .build();
  }

  private AgentHost<RealAgent> host(List<String> nodes) {
    AgentHost<RealAgent> h = AgentHost.start(HostConfig.builder(kafka.bootstrapServers())
        .nodeIds(nodes).build(), new RealAgents(template(), tmp.resolve("nodes")));
    closeLater.add(h);
    return h;
  }

  private void send(String node, Object action) {
    Decision d = Decision.newBuilder().setDecisionId("d" + ids++).setEpoch(1).setPool(pool)
        .setNode(node).setTimeMs(System.currentTimeMillis()).setAction(action).build();
    decisions.send(new ProducerRecord<>(Topics.DECISIONS.name(), Topics.DECISIONS.key(node),
        Topics.DECISIONS.value(d)));
    decisions.flush();
  }

  private void poll() {
    for (ConsumerRecord<byte[], byte[]> r : observer.poll(Duration.ofMillis(100))) {
      if (r.topic().equals(Topics.TASK_EVENTS.name())) {
        TaskEvent e = Topics.TASK_EVENTS.decode(r.value());
        if (e.getPool().equals(pool)) {
          events.add(e);
        }
      } else {
        NodeReport n = Topics.NODE_REPORTS.decode(r.value());
        if (n.getPool().equals(pool)) {
          reports.add(n);
        }
      }
    }
  }

  private TaskEvent awaitEvent(String what, Predicate<TaskEvent> p) {
    return awaitFirst(what, events, p);
  }

  private NodeReport awaitReport(String what, Predicate<NodeReport> p) {
    return awaitFirst(what, reports, p);
  }

  /** The first of {@code seen} matching, polling the topics (poll() waits by itself) for more. */
  private <T> T awaitFirst(String what, List<T> seen, Predicate<T> p) {
    return Await.atMost(DEADLINE).pollEvery(Duration.ZERO).untilPresent(
        () -> "waiting for " + what + "; have " + seen, () -> {
          java.util.Optional<T> hit = seen.stream().filter(p).findFirst();
          if (hit.isEmpty()) {
            poll();
          }
          return hit;
        });
  }

  private TaskEvent awaitEnd(String taskId) {
    return awaitEvent("the end of " + taskId, e -> e.getTaskId().equals(taskId)
        && e.getType() != TaskEventType.STARTED);
  }

  @Test
  void realAgentsRegisterStageRunReportLearnPeersFromNodeReportsAndDrain() throws Exception {
    byte[] f1 = storageFile("f1", 200_000);
    byte[] f2 = storageFile("f2", 50_000);
    AgentHost<RealAgent> a = host(List.of("a"));
    assertThat(a.awaitRegistered(DEADLINE)).isTrue();
    NodeReport reg = awaitReport("REGISTER of a",
        r -> r.getNode().equals("a") && r.getType() == NodeReportType.REGISTER);
    assertThat(reg.getEndpoint()).isEqualTo(a.agent("a").endpoint()).startsWith("http://");

    send("a", task("t1", null, List.of(),
        input("f1", 200_000, FetchSource.STORAGE, null, null, sha256(f1), true),
        storage("f2", 50_000)));
    TaskEvent done = awaitEnd("t1");
    assertThat(done.getType()).as(done.getMessage()).isEqualTo(TaskEventType.COMPLETED);
    assertThat(done.getExitCode()).isZero();
    assertThat(done.getBytesStorage()).isEqualTo(250_000);
    assertThat(done.getDecisionId()).isEqualTo("d0");
    Path wd = a.agent("a").executor().workDir("t1#0").orElseThrow();
    assertThat(Files.readAllLines(wd.resolve("stdout"))).hasSize(2)
        .allSatisfy(l -> assertThat(l).contains(a.agent("a").cache().root().toString()))
        .first().satisfies(l -> assertThat(l).startsWith(sha256(f1)));
    NodeReport delta = awaitReport("a's cache delta",
        r -> r.getNode().equals("a") && r.getType() == NodeReportType.CACHE_DELTA);
    assertThat(delta.getAdded()).extracting(CachedFile::getFileId).containsExactly("f1", "f2");
    assertThat(delta.getSeq()).isEqualTo(1);

    // Another host learns a's endpoint from node-reports and reads f2 from a's cache.
    AgentHost<RealAgent> b = host(List.of("b"));
    assertThat(b.awaitRegistered(DEADLINE)).isTrue();
    WAIT.until("b learns a's endpoint",
        () -> a.agent("a").endpoint().equals(b.agent("b").peers().endpoint("a")));
    send("b", task("t2", "sum", List.of(), peer("f2", 50_000, "a")));
    TaskEvent t2 = awaitEnd("t2");
    assertThat(t2.getType()).as(t2.getMessage()).isEqualTo(TaskEventType.COMPLETED);
    assertThat(t2.getBytesPeer()).isEqualTo(50_000);
    assertThat(Files.readAllBytes(b.agent("b").cache().root().resolve("f2"))).isEqualTo(f2);

    // a drains: draining heartbeat, LEAVE; b forgets a.
    assertThat(a.drain(DEADLINE)).isTrue();
    awaitReport("a draining", r -> r.getNode().equals("a") && r.getDraining()
        && r.getType() == NodeReportType.HEARTBEAT);
    awaitReport("a LEAVE", r -> r.getNode().equals("a") && r.getType() == NodeReportType.LEAVE);
    WAIT.until("b forgets a", () -> b.agent("b").peers().endpoint("a") == null);
    assertThat(a.stats().tasksCompleted()).isEqualTo(1);
    assertThat(b.stats().bytesPeer()).isEqualTo(50_000);
  }

  @Test
  void theCliRunsARealAgentAndSigtermDrainsIt() throws Exception {
    Path gate = tmp.resolve("go");
    Path config = tmp.resolve("agent.yaml");
    Files.writeString(config, String.join("\n",
        "pool: " + pool,
        "node-id: cli",
        "heartbeat: 300ms",
        "data-dir: data",
        "storage: {root: storage}",
        "kafka: {bootstrap-servers: '" + kafka.bootstrapServers() + "'}",
        "templates:",
        "  gate:",
        // Runs until the file named by its argument appears: the test decides when it ends.
        "    command: [sh, -c, 'while [ ! -e \"$1\" ]; do sleep 0.02; done', gate, '{arg:0}']",
        "drain-timeout: 30s",
        ""));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(java, "-Xmx256m",
        "-cp", System.getProperty("java.class.path"),
        "io.locus.agent.AgentCli", "real", "--config", config.toString(),
        "--stats-interval", "PT0S")
        .redirectErrorStream(true)
        .redirectOutput(tmp.resolve("agent.log").toFile())
        .start();
    closeLater.add(() -> {
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
    });
    try {
      awaitReport("REGISTER of the CLI agent",
          r -> r.getNode().equals("cli") && r.getType() == NodeReportType.REGISTER);
      send("cli", Fixture.task("t1", "gate", List.of(gate.toString())));
      awaitEvent("t1 started", e -> e.getTaskId().equals("t1")
          && e.getType() == TaskEventType.STARTED);

      p.destroy();   // SIGTERM
      awaitReport("a draining heartbeat", r -> r.getNode().equals("cli")
          && r.getType() == NodeReportType.HEARTBEAT && r.getDraining());
      assertThat(p.isAlive()).as("the agent waits for its running task").isTrue();
      Files.createFile(gate);
      TaskEvent done = awaitEnd("t1");
      assertThat(done.getType()).as(done.getMessage()).isEqualTo(TaskEventType.COMPLETED);
      NodeReport leave = awaitReport("LEAVE", r -> r.getNode().equals("cli")
          && r.getType() == NodeReportType.LEAVE);
      assertThat(leave.getTimeMs()).isGreaterThanOrEqualTo(done.getTimeMs());
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
      // 143 = 128 + SIGTERM: the JVM reports the signal after its shutdown hooks completed.
      assertThat(p.exitValue()).isEqualTo(143);
      // One line says what started and where, one that it stopped (issue 14).
      String log = Files.readString(tmp.resolve("agent.log"));
      assertThat(log).contains("locus agent real: node cli of pool " + pool
          + ": registration sent to Kafka at " + kafka.bootstrapServers()
          + ", waiting for the scheduler")
          .contains("locus agent real: stopping node cli: draining")
          .contains("locus agent real: node cli stopped");
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "\nagent log:\n"
          + Files.readString(tmp.resolve("agent.log")), e);
    }
  }

  /**
   * A real agent holds a STARTED, and a COMPLETED while its local queue is busy, to batch them
   * (BatchingOutput): a SIGTERM in the middle of a queue of short tasks still delivers every
   * task's STARTED and COMPLETED, each task's in order, and the agent exits after LEAVE.
   */
  @Test
  void aSigtermDuringABusyLocalQueueLosesNoHeldEvent() throws Exception {
    Path gate = tmp.resolve("go2");
    Path config = tmp.resolve("busy.yaml");
    Files.writeString(config, String.join("\n",
        "pool: " + pool,
        "node-id: busy",
        "slots: 1",
        "heartbeat: 300ms",
        "data-dir: busy-data",
        "storage: {root: storage}",
        "kafka: {bootstrap-servers: '" + kafka.bootstrapServers() + "'}",
        "tasks: {queue-depth: 4}",
        "templates:",
        "  gate:",
        "    command: [sh, -c, 'while [ ! -e \"$1\" ]; do sleep 0.02; done', gate, '{arg:0}']",
        "  quick:",
        "    command: [/bin/true]",
        "drain-timeout: 30s",
        ""));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(java, "-Xmx256m",
        "-cp", System.getProperty("java.class.path"),
        "io.locus.agent.AgentCli", "real", "--config", config.toString(),
        "--stats-interval", "PT0S")
        .redirectErrorStream(true)
        .redirectOutput(tmp.resolve("busy.log").toFile())
        .start();
    closeLater.add(() -> {
      p.destroyForcibly();
      p.waitFor(10, TimeUnit.SECONDS);
    });
    try {
      awaitReport("REGISTER of the busy agent",
          r -> r.getNode().equals("busy") && r.getType() == NodeReportType.REGISTER);
      send("busy", Fixture.task("g", "gate", List.of(gate.toString())));
      List<String> quick = List.of("q1", "q2", "q3", "q4");
      for (String q : quick) {
        send("busy", Fixture.task(q, "quick", List.of()));
      }
      awaitEvent("g started", e -> e.getTaskId().equals("g")
          && e.getType() == TaskEventType.STARTED);
      p.destroy();   // SIGTERM: the agent drains, the queued tasks still run
      awaitReport("a draining heartbeat", r -> r.getNode().equals("busy")
          && r.getType() == NodeReportType.HEARTBEAT && r.getDraining());
      Files.createFile(gate);
      awaitReport("LEAVE", r -> r.getNode().equals("busy")
          && r.getType() == NodeReportType.LEAVE);
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).isEqualTo(143);
      for (String t : List.of("g", "q1", "q2", "q3", "q4")) {
        TaskEvent done = awaitEnd(t);
        assertThat(done.getType()).as(t + ": " + done.getMessage())
            .isEqualTo(TaskEventType.COMPLETED);
        List<TaskEventType> of = events.stream().filter(e -> e.getTaskId().equals(t))
            .map(TaskEvent::getType).toList();
        assertThat(of).as(t).containsExactly(TaskEventType.STARTED, TaskEventType.COMPLETED);
      }
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "\nagent log:\n"
          + Files.readString(tmp.resolve("busy.log")), e);
    }
  }
}
