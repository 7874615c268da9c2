package io.locus.connectors;

import io.locus.kafka.ClientConfigs;
import io.locus.kafka.TopicSpec;
import io.locus.testkit.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/** A read_committed reader of one whole topic, as an agent with exactly-once would read it. */
final class TopicReader<V extends SpecificRecord> implements AutoCloseable {
  private static final Duration DEADLINE = Duration.ofSeconds(60);

  private final TopicSpec<V> topic;
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final List<TopicPartition> partitions = new ArrayList<>();

  TopicReader(String bootstrap, TopicSpec<V> topic) {
    this.topic = topic;
    this.consumer = new KafkaConsumer<>(ClientConfigs.consumer(bootstrap, null, true));
    for (int p = 0; p < topic.partitions(); p++) {
      partitions.add(new TopicPartition(topic.name(), p));
    }
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
  }

  /** One poll (the poll timeout paces the waiting loop). */
  List<V> poll() {
    List<V> out = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
      out.add(topic.decode(r.value()));
    }
    return out;
  }

  /** Everything up to the current end offsets (the last stable offsets, read_committed). */
  List<V> readToEnd() {
    Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
    List<V> out = new ArrayList<>();
    // No pause between checks: poll() waits up to 200 ms by itself.
    Await.atMost(DEADLINE).pollEvery(Duration.ZERO).until("read " + topic.name() + " to " + end,
        () -> {
          if (partitions.stream().allMatch(tp -> consumer.position(tp) >= end.get(tp))) {
            return true;
          }
          out.addAll(poll());
          return false;
        });
    return out;
  }

  @Override
  public void close() {
    consumer.close(Duration.ofSeconds(5));
  }
}
