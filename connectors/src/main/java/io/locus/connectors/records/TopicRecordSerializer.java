package io.locus.connectors.records;

import io.locus.kafka.TopicSpec;
import io.locus.kafka.Topics;
import java.util.Objects;
import org.apache.avro.specific.SpecificRecord;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.util.function.SerializableFunction;
import org.apache.kafka.clients.producer.ProducerRecord;

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
 */
public final class TopicRecordSerializer<V extends SpecificRecord>
    implements KafkaRecordSerializationSchema<V> {
  private static final long serialVersionUID = 1L;

  private final String topic;
  private final Class<V> valueType;
  private final SerializableFunction<V, String> keyOf;
  private transient TopicSpec<V> spec;

  public TopicRecordSerializer(TopicSpec<V> topic, SerializableFunction<V, String> keyOf) {
    this.topic = Objects.requireNonNull(topic, "topic").name();
    this.valueType = topic.valueType();
    this.keyOf = Objects.requireNonNull(keyOf, "keyOf");
    // Fail while the job graph is built, not on the first record in a task manager.
    this.spec = resolve(this.topic, valueType);
  }

  public String topic() {
    return topic;
  }

  @Override
  public ProducerRecord<byte[], byte[]> serialize(V element, KafkaSinkContext context,
      Long timestamp) {
    if (spec == null) {
      spec = resolve(topic, valueType);
    }
    // No explicit partition: Kafka's default partitioner hashes the key (Topics.partitionOf).
    // No timestamp either: the broker-side CreateTime is "now", so time-based retention counts
    // from when the output was written, not from the (possibly replayed, old) input time.
    return new ProducerRecord<>(topic, null, null, spec.key(keyOf.apply(element)),
        spec.value(element));
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
