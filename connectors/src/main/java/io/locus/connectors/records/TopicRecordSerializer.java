package io.locus.connectors.records;

import io.locus.kafka.TopicSpec;
import io.locus.kafka.Topics;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.codec.DeadLetterCodes;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.metrics.Counter;
import org.apache.flink.util.function.SerializableFunction;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes records of one registered topic: the key is a UTF-8 string picked from the record, the
 * value the topic's Avro single-object encoding.
 *
 * <p>Flink ships serializers to the task managers with Java serialization, and {@link TopicSpec}
 * (with its codec) is not {@code Serializable}; so this holds only the topic name, the value
 * class and the key function, and looks the spec up in {@link Topics} on first use.
 *
 * <p>An encoding failure is thrown, not swallowed: outputs are built by our own code, so a
 * record that cannot be encoded is a bug that must stop the job rather than silently vanish.
 *
 * <p>A record too large to write is not: the producer would fail it with
 * {@code RecordTooLargeException}, the sink would fail the job, and every restart would replay the
 * same record and fail again (issue 12, finding 1). So a record whose key and value together
 * exceed {@link #maxRecordBytes()} is replaced by a {@link DeadLetter} on {@code dead-letters}
 * (code {@code unwritable}, the reason naming topic, key, size and limit, the value cut to its
 * first {@link #MAX_DEAD_VALUE_BYTES}); it goes through the same producer, hence the same
 * transaction in exactly-once mode, and the job goes on. Counted as {@code unwritableRecords}.
 */
public final class TopicRecordSerializer<V extends SpecificRecord>
    implements KafkaRecordSerializationSchema<V> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(TopicRecordSerializer.class);

  /**
   * Key plus value limit when the producer's {@code max.request.size} is not overridden: below
   * Kafka's defaults ({@code max.request.size} 1 MiB, broker {@code message.max.bytes} 1 MiB + 12)
   * with room for the record's and batch's framing.
   */
  public static final int DEFAULT_MAX_RECORD_BYTES = 1_000_000;

  /** Bytes left for framing (record and batch headers) below an overridden max.request.size. */
  public static final int FRAMING_BYTES = 1024;

  /** Longest copy of an unwritable value kept in its dead letter: 64 KiB. */
  public static final int MAX_DEAD_VALUE_BYTES = 64 * 1024;

  private static final int MAX_QUOTED = 80;

  private final String topic;
  private final Class<V> valueType;
  private final SerializableFunction<V, String> keyOf;
  private final int maxRecordBytes;
  private transient TopicSpec<V> spec;
  private transient Counter unwritable;

  /** A serializer with the default limit ({@link #DEFAULT_MAX_RECORD_BYTES}). */
  public TopicRecordSerializer(TopicSpec<V> topic, SerializableFunction<V, String> keyOf) {
    this(topic, keyOf, DEFAULT_MAX_RECORD_BYTES);
  }

  /**
   * A serializer that dead-letters any record whose key plus value is over {@code maxRecordBytes}
   * (see {@link #maxRecordBytes(Properties)}).
   */
  public TopicRecordSerializer(TopicSpec<V> topic, SerializableFunction<V, String> keyOf,
      int maxRecordBytes) {
    this.topic = Objects.requireNonNull(topic, "topic").name();
    this.valueType = topic.valueType();
    this.keyOf = Objects.requireNonNull(keyOf, "keyOf");
    if (maxRecordBytes < 1) {
      throw new IllegalArgumentException("maxRecordBytes must be positive, got " + maxRecordBytes);
    }
    this.maxRecordBytes = maxRecordBytes;
    // Fail while the job graph is built, not on the first record in a task manager.
    this.spec = resolve(this.topic, valueType);
  }

  /**
   * The key-plus-value limit for a producer configured with {@code producerProps}: its
   * {@code max.request.size} less {@link #FRAMING_BYTES} when set, else
   * {@link #DEFAULT_MAX_RECORD_BYTES}. (Raise the brokers' {@code message.max.bytes} with it: a
   * record the broker refuses still fails the sink.)
   *
   * @throws IllegalArgumentException if {@code max.request.size} is not a number above the framing
   */
  public static int maxRecordBytes(Properties producerProps) {
    Object configured = producerProps == null ? null
        : producerProps.get(ProducerConfig.MAX_REQUEST_SIZE_CONFIG);
    if (configured == null) {
      return DEFAULT_MAX_RECORD_BYTES;
    }
    int max;
    try {
      max = Integer.parseInt(configured.toString().trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(ProducerConfig.MAX_REQUEST_SIZE_CONFIG + " '"
          + configured + "' is not a number of bytes", e);
    }
    if (max <= FRAMING_BYTES) {
      throw new IllegalArgumentException(ProducerConfig.MAX_REQUEST_SIZE_CONFIG + " " + max
          + " leaves no room for a record (framing takes " + FRAMING_BYTES + " bytes)");
    }
    return max - FRAMING_BYTES;
  }

  public String topic() {
    return topic;
  }

  public int maxRecordBytes() {
    return maxRecordBytes;
  }

  @Override
  public void open(SerializationSchema.InitializationContext context, KafkaSinkContext sink) {
    unwritable = context.getMetricGroup().counter("unwritableRecords");
  }

  @Override
  public ProducerRecord<byte[], byte[]> serialize(V element, KafkaSinkContext context,
      Long timestamp) {
    if (spec == null) {
      spec = resolve(topic, valueType);
    }
    String keyText = keyOf.apply(element);
    byte[] key = spec.key(keyText);
    byte[] value = spec.value(element);
    long size = (key == null ? 0L : key.length) + (long) value.length;
    if (size > maxRecordBytes) {
      return unwritable(element, keyText, key, value, size);
    }
    // No explicit partition: Kafka's default partitioner hashes the key (Topics.partitionOf).
    // No timestamp either: the broker-side CreateTime is "now", so time-based retention counts
    // from when the output was written, not from the (possibly replayed, old) input time.
    return new ProducerRecord<>(topic, null, null, key, value);
  }

  private ProducerRecord<byte[], byte[]> unwritable(V element, String keyText, byte[] key,
      byte[] value, long size) {
    // At most a quarter of the limit, so the dead letter itself always fits.
    int keep = Math.min(MAX_DEAD_VALUE_BYTES, maxRecordBytes / 4);
    StringBuilder reason = new StringBuilder()
        .append("output record to ").append(topic).append(" with key ").append(quote(keyText))
        .append(" is ").append(size).append(" bytes (key ").append(key == null ? 0 : key.length)
        .append(" + value ").append(value.length).append("), more than the limit of ")
        .append(maxRecordBytes).append(" bytes; not written");
    if (element instanceof DeadLetter d) {
      reason.append(" (a dead letter for ").append(d.getSourceTopic()).append('-')
          .append(d.getPartition()).append('@').append(d.getOffset()).append(", code ")
          .append(d.getCode()).append(": ").append(cut(d.getReason(), 200)).append(')');
    }
    if (value.length > keep) {
      reason.append("; value cut to its first ").append(keep).append(" bytes");
    }
    DeadLetter dl = DeadLetter.newBuilder()
        .setSourceTopic(topic)
        .setPartition(-1) // never written: no partition, no offset
        .setOffset(-1L)
        .setKey(key == null ? null : ByteBuffer.wrap(key.length > keep ? Arrays.copyOf(key, keep)
            : key))
        .setValue(ByteBuffer.wrap(value.length > keep ? Arrays.copyOf(value, keep) : value))
        .setReason(reason.toString())
        .setTimeMs(System.currentTimeMillis())
        .setCode(DeadLetterCodes.UNWRITABLE)
        .build();
    if (unwritable != null) {
      unwritable.inc();
    }
    LOG.warn("dead-lettering an unwritable record: {}", dl.getReason());
    TopicSpec<DeadLetter> dead = Topics.DEAD_LETTERS;
    return new ProducerRecord<>(dead.name(), null, null, dead.key(topic), dead.value(dl));
  }

  private static String quote(String s) {
    return s == null ? "null" : "'" + cut(s, MAX_QUOTED) + "'";
  }

  private static String cut(String s, int max) {
    if (s == null) {
      return "null";
    }
    return s.length() <= max ? s : s.substring(0, max) + "...(" + s.length() + " chars)";
  }

  @SuppressWarnings("unchecked")
  private static <V extends SpecificRecord> TopicSpec<V> resolve(String name, Class<V> type) {
    TopicSpec<?> registered = Topics.byName(name);
    if (!registered.valueType().equals(type)) {
      throw new IllegalArgumentException("topic '" + name + "' carries "
          + registered.valueType().getName() + ", not " + type.getName());
    }
    return (TopicSpec<V>) registered;
  }
}
