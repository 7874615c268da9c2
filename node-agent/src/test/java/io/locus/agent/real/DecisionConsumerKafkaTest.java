package io.locus.agent.real;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.agent.AgentFactory;
import io.locus.agent.AgentHost;
import io.locus.agent.AgentOutput;
import io.locus.agent.AgentScheduler;
import io.locus.agent.HostConfig;
import io.locus.agent.NodeAgent;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.testkit.EmbeddedKafka;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.Topics;
import io.locus.schemas.Decision;
import io.locus.schemas.EvictFiles;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.PlacementReason;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.testkit.Await;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.avro.SchemaNormalization;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The decisions consumer of a host against a real broker: no record on {@code decisions} (garbage,
 * a header declaring a 2 GB string, records over the size limit) and no error of a listener stops
 * it; if it does stop (a VirtualMachineError), every agent's /health says so.
 */
@Tag("integration")
@Timeout(120)
class DecisionConsumerKafkaTest {
  private static final Duration DEADLINE = Duration.ofSeconds(40);
  private static EmbeddedKafka kafka;
  private static KafkaProducer<byte[], byte[]> producer;

  @TempDir
  Path tmp;
  private String pool;
  private KafkaConsumer<byte[], byte[]> observer;
  private final List<TaskEvent> events = new ArrayList<>();
  private final List<AutoCloseable> closeLater = new ArrayList<>();
  private final HttpClient http = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1).build();

  @BeforeAll
  static void startKafka() throws Exception {
    kafka = EmbeddedKafka.start();
    TopicAdmin.ensureTopics(kafka.bootstrapServers(), Topics.ALL);
    // Let records over the agent's 1 MiB limit reach it, as a misconfigured topic would.
    try (Admin admin = Admin.create(ClientConfigs.base(kafka.bootstrapServers()))) {
      admin.incrementalAlterConfigs(Map.of(
          new ConfigResource(ConfigResource.Type.TOPIC, Topics.DECISIONS.name()),
          List.of(new AlterConfigOp(new ConfigEntry("max.message.bytes", "8388608"),
              AlterConfigOp.OpType.SET)))).all().get();
    }
    Properties p = ClientConfigs.producer(kafka.bootstrapServers());
    p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, "8388608");
    producer = new KafkaProducer<>(p);
  }

  @AfterAll
  static void stopKafka() {
    if (producer != null) {
      producer.close();
    }
    if (kafka != null) {
      kafka.close();
    }
  }

  @BeforeEach
  void setUp() {
    pool = "pool-" + UUID.randomUUID().toString().substring(0, 8);
    observer = new KafkaConsumer<>(ClientConfigs.consumer(kafka.bootstrapServers(), null, false));
    TopicPartition tp = new TopicPartition(Topics.TASK_EVENTS.name(),
        Topics.partitionOf(pool, Topics.TASK_EVENTS.partitions()));
    observer.assign(List.of(tp));
    observer.seekToBeginning(List.of(tp));
  }

  @AfterEach
  void tearDown() throws Exception {
    for (AutoCloseable c : closeLater) {
      c.close();
    }
    observer.close();
  }

  /** Real agents whose node-reports listener throws what {@code thrown} holds (if anything). */
  private AgentHost<RealAgent> host(AtomicReference<Throwable> thrown) {
    RealAgentConfig template = new TestAgentConfig(pool, tmp)
        .nodeId("template")
        .dataDir(tmp.resolve("template"))
        .heartbeatMs(200)
        .template("echo", "printf", "%s\\n", "{args}")
        .defaultTemplate("echo")
        .build();
    RealAgents real = new RealAgents(template, tmp.resolve("nodes"));
    AgentFactory<RealAgent> factory = new AgentFactory<>() {
      @Override
      public String pool() {
        return real.pool();
      }

      @Override
      public String clientPrefix() {
        return real.clientPrefix();
      }

      @Override
      public RealAgent create(String nodeId, AgentScheduler scheduler, AgentOutput output) {
        return real.create(nodeId, scheduler, output);
      }

      @Override
      public NodeAgent protocol(RealAgent agent) {
        return real.protocol(agent);
      }

      @Override
      public ReportsListener reports() {
        return new ReportsListener(r -> {
          Throwable t = thrown.get();
          if (t instanceof Error e) {
            throw e;
          }
        }, Duration.ofMinutes(1));
      }

      @Override
      public void closed(RealAgent agent) {
        real.closed(agent);
      }
    };
    AgentHost<RealAgent> h = AgentHost.start(HostConfig.builder(kafka.bootstrapServers())
        .nodeIds(List.of("a")).build(), factory);
    closeLater.add(h);
    return h;
  }

  /**
   * Sends and waits for the broker's acknowledgement. The topic's larger max.message.bytes reaches
   * the broker asynchronously after the alter: a record refused as too large is sent again until
   * it is accepted or the deadline passes. (A retry on one exception, not a wait on a condition:
   * not Await's shape.)
   */
  private void sendRaw(String node, byte[] value) throws Exception {
    long end = System.nanoTime() + DEADLINE.toNanos();
    while (true) {
      try {
        producer.send(new ProducerRecord<>(Topics.DECISIONS.name(), Topics.DECISIONS.key(node),
            value)).get();
        return;
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof RecordTooLargeException)
            || System.nanoTime() > end) {
          throw e;
        }
      }
    }
  }

  private Decision decision(String id, Object action) {
    return Decision.newBuilder().setDecisionId(id).setEpoch(1).setPool(pool).setNode("a")
        .setTimeMs(System.currentTimeMillis()).setAction(action).build();
  }

  private static PlaceTask echo(String taskId) {
    return PlaceTask.newBuilder().setTaskId(taskId).setJobId("job-" + taskId).setAttempt(0)
        .setInputs(List.of()).setArgs(List.of("hi"))
        .setReason(PlacementReason.newBuilder().setPolicy("TEST").build()).build();
  }

  private TaskEvent awaitEvent(String what, String taskId, TaskEventType type) {
    // No pause between checks: the consumer's poll waits up to 100 ms by itself.
    return Await.atMost(DEADLINE).pollEvery(Duration.ZERO).untilPresent(
        () -> "waiting for " + what + "; have " + events, () -> {
          Optional<TaskEvent> hit = events.stream()
              .filter(e -> e.getTaskId().equals(taskId) && e.getType() == type).findFirst();
          if (hit.isEmpty()) {
            for (ConsumerRecord<byte[], byte[]> r : observer.poll(Duration.ofMillis(100))) {
              TaskEvent e = Topics.TASK_EVENTS.decode(r.value());
              if (e.getPool().equals(pool)) {
                events.add(e);
              }
            }
          }
          return hit;
        });
  }

  private HttpResponse<String> health(RealAgent a) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(a.endpoint() + "/health")).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** C3 01, the current Decision schema's fingerprint, then a string length of 2,147,483,000. */
  static byte[] twoGigabyteStringHeader() {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.write(0xC3);
    b.write(0x01);
    long fp = SchemaNormalization.parsingFingerprint64(Decision.getClassSchema());
    for (int i = 0; i < 8; i++) {
      b.write((int) (fp >>> (8 * i)) & 0xff);
    }
    long zz = 2_147_483_000L << 1;   // zig-zag of a positive long
    while ((zz & ~0x7fL) != 0) {
      b.write((int) ((zz & 0x7f) | 0x80));
      zz >>>= 7;
    }
    b.write((int) zz);
    b.writeBytes(new byte[] {1, 2, 3});
    return b.toByteArray();
  }

  @Test
  void noRecordAndNoListenerErrorStopsTheDecisionsConsumer() throws Exception {
    AtomicReference<Throwable> thrown = new AtomicReference<>(new AssertionError("listener bug"));
    AgentHost<RealAgent> host = host(thrown);
    assertThat(host.awaitRegistered(DEADLINE)).isTrue();
    RealAgent a = host.agent("a");

    sendRaw("a", "not avro at all".getBytes(StandardCharsets.UTF_8));
    sendRaw("a", twoGigabyteStringHeader());
    byte[] big = new byte[1_200_000];
    Arrays.fill(big, (byte) 7);
    sendRaw("a", big);
    // A well-formed decision, but over the 1 MiB limit (30,000 file ids of 40 characters).
    List<String> files = new ArrayList<>(Collections.nCopies(30_000, "x".repeat(40)));
    sendRaw("a", Topics.DECISIONS.value(decision("huge", EvictFiles.newBuilder().setFiles(files)
        .setReason("test").build())));
    sendRaw("a", null);
    sendRaw("a", Topics.DECISIONS.value(decision("ok", echo("t1"))));

    awaitEvent("t1 COMPLETED after the bad records", "t1", TaskEventType.COMPLETED);
    assertThat(host.decisionsUndecodable()).isEqualTo(5);
    assertThat(host.recordFailures()).as("the listener's AssertionErrors").isPositive();
    assertThat(host.consumerFailure()).isNull();
    assertThat(host.consumerAlive()).isTrue();
    assertThat(health(a).statusCode()).isEqualTo(200);
  }

  @Test
  void healthSays503OnceTheConsumerThreadIsDead() throws Exception {
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    AgentHost<RealAgent> host = host(thrown);
    assertThat(host.awaitRegistered(DEADLINE)).isTrue();
    RealAgent a = host.agent("a");
    assertThat(health(a).statusCode()).isEqualTo(200);

    // A VirtualMachineError is the one thing the consumer does not survive (the next heartbeat
    // report reaches the listener).
    thrown.set(new InternalError("simulated JVM trouble"));
    Await.until("the consumer to stop", DEADLINE, () -> host.consumerFailure() != null);
    HttpResponse<String> h = health(a);
    assertThat(h.statusCode()).isEqualTo(503);
    assertThat(h.body()).contains("decisions consumer stopped");
    assertThat(host.consumerAlive()).isFalse();
  }
}
