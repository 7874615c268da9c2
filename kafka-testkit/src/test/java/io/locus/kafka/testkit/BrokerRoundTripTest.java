package io.locus.kafka.testkit;

import io.locus.kafka.AvroKafkaSerde;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.TopicSpec;
import io.locus.kafka.Topics;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.JobSubmitted;
import io.locus.schemas.codec.Codecs;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Topic creation and client round trips against one shared in-JVM broker. */
@Tag("integration")
@Timeout(60)
class BrokerRoundTripTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static EmbeddedKafka kafka;

  @BeforeAll
  static void startBroker() {
    kafka = EmbeddedKafka.start();
    TopicAdmin.ensureTopics(kafka.bootstrapServers(), Topics.ALL);
  }

  @AfterAll
  static void stopBroker() {
    if (kafka != null) {
      kafka.close();
    }
  }

  @Test
  void ensureTopicsIsIdempotentAndCreatesTheDeclaredPartitionsAndConfigs() throws Exception {
    // Already run once in @BeforeAll; a second and third run must change nothing and not fail.
    TopicAdmin.ensureTopics(kafka.bootstrapServers(), Topics.ALL);
    TopicAdmin.ensureTopics(ClientConfigs.base(kafka.bootstrapServers()), Topics.ALL, (short) 1);

    List<String> names = Topics.ALL.stream().map(TopicSpec::name).toList();
    try (Admin admin = Admin.create(ClientConfigs.base(kafka.bootstrapServers()))) {
      Map<String, TopicDescription> described =
          admin.describeTopics(names).allTopicNames().get(30, TimeUnit.SECONDS);
      List<ConfigResource> resources = names.stream()
          .map(n -> new ConfigResource(ConfigResource.Type.TOPIC, n)).toList();
      Map<ConfigResource, Config> configs =
          admin.describeConfigs(resources).all().get(30, TimeUnit.SECONDS);

      for (TopicSpec<?> spec : Topics.ALL) {
        TopicDescription d = described.get(spec.name());
        assertThat(d.partitions()).as(spec.name()).hasSize(spec.partitions());
        assertThat(d.partitions()).allSatisfy(p -> assertThat(p.replicas()).hasSize(1));
        Config config = configs.get(new ConfigResource(ConfigResource.Type.TOPIC, spec.name()));
        spec.configs().forEach((key, value) ->
            assertThat(config.get(key).value()).as(spec.name() + " " + key).isEqualTo(value));
      }
    }
  }

  @Test
  void anExistingTopicWithOtherPartitionsIsLeftAlone() throws Exception {
    String name = "narrow-topic";
    try (Admin admin = Admin.create(ClientConfigs.base(kafka.bootstrapServers()))) {
      admin.createTopics(List.of(new NewTopic(name, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
      TopicSpec<JobSubmitted> wider =
          new TopicSpec<>(name, 3, "pool", Codecs.JOB_SUBMITTED, Map.of("retention.ms", "1000"));

      TopicAdmin.ensureTopics(kafka.bootstrapServers(), List.of(wider));

      assertThat(admin.describeTopics(List.of(name)).allTopicNames().get(30, TimeUnit.SECONDS)
          .get(name).partitions()).hasSize(1);
      ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, name);
      assertThat(admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS)
          .get(resource).get("retention.ms").value()).isNotEqualTo("1000");
    }
  }

  @Test
  void aJobSubmittedIsConsumedAndDecodedEqual() throws Exception {
    JobSubmitted job = TestSupport.job("job-42");
    String bootstrap = kafka.bootstrapServers();
    try (KafkaProducer<byte[], JobSubmitted> producer = new KafkaProducer<>(
        ClientConfigs.producer(bootstrap), new ByteArraySerializer(),
        AvroKafkaSerde.of(Topics.JOB_ARRIVALS))) {
      producer.send(new ProducerRecord<>(Topics.JOB_ARRIVALS.name(),
          Topics.JOB_ARRIVALS.key(job.getPool().toString()), job)).get(30, TimeUnit.SECONDS);
    }

    // Read back as raw bytes and decode with the registry's codec, as the Flink job does.
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(ClientConfigs.consumer(bootstrap, "job-roundtrip", false))) {
      consumer.subscribe(List.of(Topics.JOB_ARRIVALS.name()));
      List<ConsumerRecord<byte[], byte[]>> records =
          TestSupport.pollUntil(consumer, r -> !r.isEmpty(), WAIT);
      assertThat(records).hasSize(1);
      ConsumerRecord<byte[], byte[]> record = records.get(0);
      assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo("pool-a");
      assertThat(record.partition())
          .isEqualTo(Topics.partitionOf("pool-a", Topics.JOB_ARRIVALS.partitions()));
      JobSubmitted decoded = Topics.JOB_ARRIVALS.decode(record.value());
      assertThat(decoded).isEqualTo(job);
      assertThat(decoded.getInputs()).hasSize(2);
    }
  }

  @Test
  void readCommittedSeesCommittedTransactionsOnly() throws Exception {
    TopicSpec<JobSubmitted> topic =
        new TopicSpec<>("tx-test", 1, "pool", Codecs.JOB_SUBMITTED, Map.of());
    TopicAdmin.ensureTopics(kafka.bootstrapServers(), List.of(topic));

    Properties props = ClientConfigs.producer(kafka.bootstrapServers());
    props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "locus-test-tx");
    // The Flink KafkaSink's default transaction timeout (1 h): a default broker (15 min max)
    // would refuse it in initTransactions.
    props.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG,
        Long.toString(Duration.ofHours(1).toMillis()));
    try (KafkaProducer<byte[], JobSubmitted> producer = new KafkaProducer<>(
        props, new ByteArraySerializer(), AvroKafkaSerde.of(topic))) {
      producer.initTransactions();
      producer.beginTransaction();
      producer.send(new ProducerRecord<>(topic.name(), TestSupport.job("aborted")));
      producer.flush();
      producer.abortTransaction();
      producer.beginTransaction();
      producer.send(new ProducerRecord<>(topic.name(), TestSupport.job("committed")));
      producer.commitTransaction();
    }

    // One partition: the committed record comes after the aborted one, so once it is read,
    // the aborted one would have been read too if it were visible.
    assertThat(jobIds(readUntilCommitted(topic, true))).containsExactly("committed");
    assertThat(jobIds(readUntilCommitted(topic, false))).containsExactly("aborted", "committed");
  }

  private static List<ConsumerRecord<byte[], JobSubmitted>> readUntilCommitted(
      TopicSpec<JobSubmitted> topic, boolean readCommitted) {
    Properties props = ClientConfigs.consumer(
        kafka.bootstrapServers(), "tx-reader-" + readCommitted, readCommitted);
    AvroKafkaSerde<JobSubmitted> serde = AvroKafkaSerde.of(topic);
    try (KafkaConsumer<byte[], JobSubmitted> consumer = new KafkaConsumer<>(
        props, new ByteArrayDeserializer(), serde)) {
      consumer.subscribe(List.of(topic.name()));
      return TestSupport.pollUntil(consumer,
          r -> jobIds(r).contains("committed"), WAIT);
    }
  }

  private static List<String> jobIds(Collection<ConsumerRecord<byte[], JobSubmitted>> records) {
    return records.stream().map(r -> r.value().getJobId().toString())
        .collect(Collectors.toList());
  }
}
