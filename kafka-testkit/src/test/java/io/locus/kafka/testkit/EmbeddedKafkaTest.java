package io.locus.kafka.testkit;

import io.locus.kafka.ClientConfigs;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.TopicSpec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.schemas.codec.Codecs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.utils.Exit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Tag("integration")
class EmbeddedKafkaTest {
  /** A test topic; values here are plain text, the codec is only there to fill the spec. */
  private static final TopicSpec<?> NOTES =
      new TopicSpec<>("notes", 1, "none", Codecs.JOB_SUBMITTED, Map.of());

  @Test
  void theBrokerKeepsItsHeapSmallForAJvmThatHostsMore(@TempDir Path dir) {
    // 128 MiB of dedupe buffer per broker start ran the bench's JVM out of heap on its second run
    Map<String, String> c = EmbeddedKafka.brokerConfig(dir, 9092, 9093);
    assertThat(Long.parseLong(c.get("log.cleaner.dedupe.buffer.size")))
        .isLessThanOrEqualTo(16L * 1024 * 1024);
  }

  @Test
  void freePortsAreDistinctSoTheTwoListenersNeverCollide() {
    for (int i = 0; i < 200; i++) {
      int[] ports = EmbeddedKafka.freePorts(2);
      assertThat(ports[0]).isNotEqualTo(ports[1]);
      assertThat(EmbeddedKafka.freePortOtherThan(ports[0])).isNotEqualTo(ports[0]);
    }
  }

  @Test
  void aFormatFailureNamesItsCause(@TempDir Path dir) {
    // The storage tool throws on a bad config without printing anything; the CI failure that
    // shared one port between both listeners said only "cannot format Kafka storage in ...: ".
    Map<String, String> config = EmbeddedKafka.brokerConfig(dir, 45555, 45555);
    assertThatThrownBy(() -> EmbeddedKafka.formatIfNeeded(dir, config))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("same port");
  }

  @Test
  @Timeout(60)
  void startsServesAndDeletesItsTemporaryDataOnClose() throws Exception {
    Path dir;
    try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
      dir = kafka.dataDir();
      assertThat(kafka.bootstrapServers()).startsWith("127.0.0.1:");
      try (Admin admin = Admin.create(ClientConfigs.base(kafka.bootstrapServers()))) {
        assertThat(admin.describeCluster().nodes().get(10, TimeUnit.SECONDS)).hasSize(1);
        // auto.create.topics.enable=false and nothing declared yet: no user topics.
        assertThat(admin.listTopics().names().get(10, TimeUnit.SECONDS)).isEmpty();
      }
      assertThat(dir).isDirectory();
    }
    assertThat(dir).doesNotExist();
  }

  @Test
  @Timeout(60)
  void restartOnTheSameDataDirKeepsTopicsAndRecords(@TempDir Path dir) throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir, Map.of())) {
      TopicAdmin.ensureTopics(kafka.bootstrapServers(), List.of(NOTES));
      try (KafkaProducer<byte[], byte[]> producer =
          new KafkaProducer<>(ClientConfigs.producer(kafka.bootstrapServers()))) {
        producer.send(new ProducerRecord<>(NOTES.name(), bytes("kept"))).get(30, TimeUnit.SECONDS);
      }
    }
    assertThat(dir).isDirectory();

    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir, Map.of());
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
            ClientConfigs.consumer(kafka.bootstrapServers(), "restart-test", false))) {
      consumer.subscribe(List.of(NOTES.name()));
      var records = TestSupport.pollUntil(consumer, r -> !r.isEmpty(), Duration.ofSeconds(30));
      assertThat(records).extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
          .containsExactly("kept");
    }
  }

  @Test
  @Timeout(30)
  void kafkaCannotExitTheJvmOnceAnEmbeddedBrokerWasStarted() {
    EmbeddedKafka.installExitGuard();
    assertThatThrownBy(() -> Exit.exit(3, "simulated fatal fault"))
        .hasMessageContaining("exit(3)");
    assertThatThrownBy(() -> Exit.halt(4)).hasMessageContaining("halt(4)");
  }

  @Test
  @Timeout(30)
  void aDataDirThatIsAFileFailsClearly(@TempDir Path tmp) throws Exception {
    Path file = Files.writeString(tmp.resolve("not-a-dir"), "x");
    assertThatThrownBy(() -> EmbeddedKafka.start(file, Map.of()))
        .hasMessageContaining("not-a-dir");
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
