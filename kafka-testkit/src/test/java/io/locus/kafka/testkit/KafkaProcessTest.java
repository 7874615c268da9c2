package io.locus.kafka.testkit;

import io.locus.kafka.AvroKafkaSerde;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.KafkaSecurityAdmin;
import io.locus.kafka.LocusAcls;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.TopicSpec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.schemas.JobSubmitted;
import io.locus.schemas.codec.Codecs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The broker in a child process: what fault tests and the demo rely on. */
@Tag("integration")
class KafkaProcessTest {
  private static final TopicSpec<JobSubmitted> TOPIC =
      new TopicSpec<>("survivors", 1, "pool", Codecs.JOB_SUBMITTED, Map.of());

  @Test
  @Timeout(120)
  void aKilledBrokerRestartsOnItsDataAndClientsCarryOn(@TempDir Path dir) throws Exception {
    try (KafkaProcess kafka = KafkaProcess.start(dir)) {
      String bootstrap = kafka.bootstrapServers();
      TopicAdmin.ensureTopics(bootstrap, List.of(TOPIC));

      // The same producer lives across the crash: it must reconnect to the restarted broker.
      try (KafkaProducer<byte[], JobSubmitted> producer = new KafkaProducer<>(
          ClientConfigs.producer(bootstrap), new ByteArraySerializer(), AvroKafkaSerde.of(TOPIC))) {
        producer.send(new ProducerRecord<>(TOPIC.name(), TestSupport.job("before-crash")))
            .get(30, TimeUnit.SECONDS);

        kafka.kill();
        assertThat(kafka.isAlive()).isFalse();
        assertThat(kafka.lastExitCode()).isNotZero();
        kafka.restart();
        assertThat(kafka.isAlive()).isTrue();
        assertThat(kafka.bootstrapServers()).as("same port after restart").isEqualTo(bootstrap);

        producer.send(new ProducerRecord<>(TOPIC.name(), TestSupport.job("after-restart")))
            .get(60, TimeUnit.SECONDS);
      }

      try (KafkaConsumer<byte[], JobSubmitted> consumer = new KafkaConsumer<>(
          ClientConfigs.consumer(kafka.bootstrapServers(), "survivor-reader", true),
          new ByteArrayDeserializer(), AvroKafkaSerde.of(TOPIC))) {
        consumer.subscribe(List.of(TOPIC.name()));
        var records = TestSupport.pollUntil(consumer, r -> r.size() >= 2, Duration.ofSeconds(30));
        assertThat(records).extracting(r -> r.value().getJobId().toString())
            .containsExactly("before-crash", "after-restart");
      }

      kafka.stop();
      assertThat(kafka.isAlive()).isFalse();
      // 0 means it ended through stdin closing (clean shutdown), not SIGTERM (143) or a kill.
      assertThat(kafka.lastExitCode()).isZero();
    }
  }

  @Test
  @Timeout(60)
  void aBrokerThatCannotStartFailsWithItsOutput(@TempDir Path tmp) throws Exception {
    Path file = Files.writeString(tmp.resolve("not-a-dir"), "x");
    assertThatThrownBy(() -> KafkaProcess.start(file))
        .hasMessageContaining("exited before it was ready")
        .hasMessageContaining("last output")
        .hasMessageContaining("Kafka failed to start");
  }

  @Test
  @Timeout(180)
  void aSecureBrokerInAChildKeepsItsUsersAndAddressesAcrossAKill(@TempDir Path dir)
      throws Exception {
    Path data = dir.resolve("data");
    Path secure = dir.resolve("pki");
    try (KafkaProcess kafka = KafkaProcess.startSecure(data, secure, true)) {
      String plain = kafka.bootstrapServers();
      String tls = kafka.secureBootstrapServers();
      assertThat(tls).isNotEqualTo(plain);
      try (Admin admin = Admin.create(kafka.adminProperties())) {
        TopicAdmin.ensureTopics(kafka.adminProperties(), List.of(TOPIC));
        KafkaSecurityAdmin.upsertScramUser(admin, "survivor", "survivor-password");
        KafkaSecurityAdmin.createAcls(admin, List.of(
            LocusAcls.allow("User:survivor", topic(), AclOperation.WRITE),
            LocusAcls.allow("User:survivor", topic(), AclOperation.READ)));
      }
      Properties user = kafka.clientProperties("survivor", "survivor-password");
      try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
          ClientConfigs.withOverrides(ClientConfigs.producer(tls), toMap(user)))) {
        producer.send(new ProducerRecord<>(TOPIC.name(), bytes("before-kill")))
            .get(30, TimeUnit.SECONDS);
      }

      kafka.kill();
      kafka.restart();
      assertThat(kafka.bootstrapServers()).isEqualTo(plain);
      assertThat(kafka.secureBootstrapServers()).isEqualTo(tls);

      // Same certificates, same broker password (its credential is in the formatted storage),
      // and the user made through the Admin API is still there.
      try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(ClientConfigs
          .withOverrides(ClientConfigs.consumer(tls, null, false), toMap(user)))) {
        consumer.assign(List.of(new TopicPartition(TOPIC.name(), 0)));
        consumer.seekToBeginning(consumer.assignment());
        var records = TestSupport.pollUntil(consumer, r -> !r.isEmpty(), Duration.ofSeconds(60));
        assertThat(records).extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
            .containsExactly("before-kill");
      }
    }
  }

  private static ResourcePattern topic() {
    return new ResourcePattern(ResourceType.TOPIC, TOPIC.name(), PatternType.LITERAL);
  }

  private static Map<String, Object> toMap(Properties p) {
    Map<String, Object> m = new java.util.HashMap<>();
    p.forEach((k, v) -> m.put(k.toString(), v));
    return m;
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
