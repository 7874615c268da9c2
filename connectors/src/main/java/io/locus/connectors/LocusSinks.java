package io.locus.connectors;

import io.locus.connectors.records.TopicRecordSerializer;
import io.locus.kafka.TopicSpec;
import io.locus.kafka.Topics;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.Decision;
import io.locus.schemas.SchedulerMetrics;
import java.time.Duration;
import java.util.Objects;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.sink.KafkaSinkBuilder;
import org.apache.flink.util.function.SerializableFunction;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * Kafka sinks of the scheduler job, each switchable between exactly-once and at-least-once.
 *
 * <p>Exactly-once needs checkpointing: transactions commit only when a checkpoint completes, so
 * without it nothing ever becomes visible to read_committed readers.
 */
public final class LocusSinks {
  /**
   * Kafka producer transaction timeout for exactly-once sinks. The connector's default (1 h) is
   * above a default broker's {@code transaction.max.timeout.ms} (15 min), which makes the
   * producer fail at start-up; 15 min is still far above any sane checkpoint interval, and a
   * transaction left open by a crashed job blocks read_committed readers for at most this long.
   */
  public static final Duration TRANSACTION_TIMEOUT = Duration.ofMinutes(15);

  private LocusSinks() {}

  /** Decisions, keyed by the node they are addressed to (an agent reads only its own). */
  public static KafkaSink<Decision> decisions(String bootstrap, Properties overrides,
      DeliveryMode mode, String transactionalIdPrefix) {
    return sink(Topics.DECISIONS, Decision::getNode, bootstrap, overrides, mode,
        transactionalIdPrefix);
  }

  /** Dead letters, keyed by the topic the bad record came from. */
  public static KafkaSink<DeadLetter> deadLetters(String bootstrap, Properties overrides,
      DeliveryMode mode, String transactionalIdPrefix) {
    return sink(Topics.DEAD_LETTERS, DeadLetter::getSourceTopic, bootstrap, overrides, mode,
        transactionalIdPrefix);
  }

  /** Per-pool scheduler metrics, keyed by pool. */
  public static KafkaSink<SchedulerMetrics> metrics(String bootstrap, Properties overrides,
      DeliveryMode mode, String transactionalIdPrefix) {
    return sink(Topics.SCHEDULER_METRICS, SchedulerMetrics::getPool, bootstrap, overrides, mode,
        transactionalIdPrefix);
  }

  /**
   * A sink writing {@code V} to a registered topic with a UTF-8 string key taken from the record.
   *
   * <p>{@code transactionalIdPrefix} is the job's prefix (required for exactly-once, ignored
   * otherwise). The sink appends the topic name, so several sinks of one job can share the job's
   * prefix without fencing each other's transactions; it must still differ between jobs writing
   * to the same cluster.
   *
   * <p>{@code overrides} (security settings, batching) are applied after the mode's defaults;
   * overriding {@code acks}, idempotence or the transaction timeout weakens the guarantee.
   *
   * <p>A record too large to write (key plus value over
   * {@link TopicRecordSerializer#maxRecordBytes(Properties)}, from {@code max.request.size} in
   * the overrides or 1,000,000 bytes) goes to {@code dead-letters} as {@code unwritable} instead
   * of failing the job on every replay.
   */
  public static <V extends SpecificRecord> KafkaSink<V> sink(TopicSpec<V> topic,
      SerializableFunction<V, String> key, String bootstrap, Properties overrides,
      DeliveryMode mode, String transactionalIdPrefix) {
    Objects.requireNonNull(topic, "topic");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(mode, "mode");
    LocusSources.requireNonBlank(bootstrap, "bootstrap");

    Properties props = new Properties();
    // Both modes: no acknowledged write is lost when a broker fails, and producer retries do not
    // duplicate records within a session.
    props.setProperty(ProducerConfig.ACKS_CONFIG, "all");
    props.setProperty(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    if (mode == DeliveryMode.EXACTLY_ONCE) {
      props.setProperty(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG,
          Long.toString(TRANSACTION_TIMEOUT.toMillis()));
    }
    if (overrides != null) {
      props.putAll(overrides);
    }

    KafkaSinkBuilder<V> builder = KafkaSink.<V>builder()
        .setKafkaProducerConfig(props)
        .setBootstrapServers(bootstrap)
        .setRecordSerializer(new TopicRecordSerializer<>(topic, key,
            TopicRecordSerializer.maxRecordBytes(props)))
        .setDeliveryGuarantee(mode.guarantee());
    if (mode == DeliveryMode.EXACTLY_ONCE) {
      LocusSources.requireNonBlank(transactionalIdPrefix,
          "transactionalIdPrefix (required for exactly-once)");
      builder.setTransactionalIdPrefix(transactionalIdPrefix + "-" + topic.name());
    }
    return builder.build();
  }
}
