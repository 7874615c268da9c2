package io.locus.kafka;

import io.locus.schemas.codec.AvroCodec;
import java.util.Map;
import java.util.Objects;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Kafka value (de)serializer for one Avro record type, in the same single-object encoding the
 * Flink job reads and writes ({@link AvroCodec}). For plain-Kafka clients such as the node agent
 * and the demo: pass an instance to the producer or consumer constructor, e.g.
 * {@code new KafkaProducer<>(ClientConfigs.producer(b), new ByteArraySerializer(),
 * AvroKafkaSerde.of(Topics.TASK_EVENTS))}.
 *
 * <p>{@code null} maps to {@code null} both ways (tombstones). A value that cannot be decoded
 * raises a {@link SerializationException}; the consumer reports it as a {@code
 * RecordDeserializationException} carrying the partition and offset, so the caller can send the
 * record to dead-letters and seek past it. Thread-safe, as the codec is.
 */
public final class AvroKafkaSerde<V extends SpecificRecord>
    implements Serializer<V>, Deserializer<V> {
  private final AvroCodec<V> codec;

  public AvroKafkaSerde(AvroCodec<V> codec) {
    this.codec = Objects.requireNonNull(codec, "codec");
  }

  /** The serde for a topic's value type. */
  public static <V extends SpecificRecord> AvroKafkaSerde<V> of(TopicSpec<V> topic) {
    return new AvroKafkaSerde<>(topic.codec());
  }

  @Override
  public byte[] serialize(String topic, V value) {
    if (value == null) {
      return null;
    }
    try {
      return codec.encode(value);
    } catch (RuntimeException e) {
      throw new SerializationException(
          "cannot encode " + codec.type().getSimpleName() + " for topic " + topic, e);
    }
  }

  @Override
  public V deserialize(String topic, byte[] data) {
    if (data == null) {
      return null;
    }
    try {
      return codec.decode(data);
    } catch (RuntimeException e) {
      throw new SerializationException(
          "cannot decode a " + codec.type().getSimpleName() + " from topic " + topic + ": "
              + e.getMessage(), e);
    }
  }

  // Both interfaces declare these as defaults; Java requires choosing. Nothing to configure: the
  // type is fixed at construction.
  @Override
  public void configure(Map<String, ?> configs, boolean isKey) {}

  @Override
  public void close() {}
}
