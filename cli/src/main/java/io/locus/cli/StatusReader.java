package io.locus.cli;

import io.locus.kafka.ClientConfigs;
import io.locus.kafka.TopicSpec;
import io.locus.kafka.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads what {@code locus status} shows from the topics, without a consumer group (nothing is
 * committed, nothing rebalances): each topic's records since a point in time up to its end as it
 * was when reading began. Committed records only (the scheduler's sinks are transactional).
 * Records that do not decode are counted and skipped.
 */
final class StatusReader {
  private final Properties props;
  private final String onlyPool;
  private final int keepFailures;
  private final long deadlineNanos;
  final Map<String, PoolStatus> pools = new TreeMap<>();
  final List<String> missingTopics = new ArrayList<>();
  long undecodable;

  StatusReader(Properties clientProps, String onlyPool, int keepFailures, Duration timeout) {
    Properties p = ClientConfigs.consumer("unused:0", null, true);
    p.putAll(clientProps);
    p.put("key.deserializer", ByteArrayDeserializer.class.getName());
    p.put("value.deserializer", ByteArrayDeserializer.class.getName());
    p.put("enable.auto.commit", "false");
    p.put("max.poll.records", "5000");
    this.props = p;
    this.onlyPool = onlyPool;
    this.keepFailures = keepFailures;
    this.deadlineNanos = System.nanoTime() + timeout.toNanos();
  }

  /** Reads every topic status needs; {@code sinceMs} bounds the high-volume ones. */
  StatusReader readAll(long sinceMs) {
    try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(props)) {
      // Control acks are rare and the paused state may be old: the whole topic.
      read(c, Topics.CONTROL_ACKS, Long.MIN_VALUE, (a, ts) -> pool(a.getPool()).ack(a, ts),
          a -> a.getPool().toString());
      read(c, Topics.SCHEDULER_METRICS, sinceMs, (m, ts) -> pool(m.getPool()).metrics(m, ts),
          m -> m.getPool().toString());
      read(c, Topics.NODE_REPORTS, sinceMs, (r, ts) -> pool(r.getPool()).report(r, ts),
          r -> r.getPool().toString());
      read(c, Topics.TASK_EVENTS, sinceMs, (e, ts) -> pool(e.getPool()).taskEvent(e, ts),
          e -> e.getPool().toString());
      read(c, Topics.SHADOW_DECISIONS, sinceMs, (d, ts) -> pool(d.getPool()).shadow(d, ts),
          d -> d.getPool().toString());
    }
    return this;
  }

  private PoolStatus pool(CharSequence name) {
    return pools.computeIfAbsent(name.toString(), p -> new PoolStatus(p, keepFailures));
  }

  private <V extends org.apache.avro.specific.SpecificRecord> void read(
      KafkaConsumer<byte[], byte[]> c, TopicSpec<V> topic, long sinceMs,
      java.util.function.BiConsumer<V, Long> sink, Function<V, String> poolOf) {
    List<PartitionInfo> infos = c.partitionsFor(topic.name(), remaining());
    if (infos == null || infos.isEmpty()) {
      missingTopics.add(topic.name());
      return;
    }
    List<TopicPartition> parts = new ArrayList<>();
    int n = infos.size();
    for (PartitionInfo i : infos) {
      // Keyed by pool: one pool's records are all in its partition.
      if (onlyPool == null || !"pool".equals(topic.keyMeaning())
          || i.partition() == Topics.partitionOf(onlyPool, n)) {
        parts.add(new TopicPartition(topic.name(), i.partition()));
      }
    }
    c.assign(parts);
    Map<TopicPartition, Long> end = c.endOffsets(parts, remaining());
    if (sinceMs == Long.MIN_VALUE) {
      c.seekToBeginning(parts);
    } else {
      Map<TopicPartition, Long> query = new HashMap<>();
      parts.forEach(tp -> query.put(tp, Math.max(0, sinceMs)));
      Map<TopicPartition, OffsetAndTimestamp> from = c.offsetsForTimes(query, remaining());
      for (TopicPartition tp : parts) {
        OffsetAndTimestamp o = from.get(tp);
        c.seek(tp, o == null ? end.get(tp) : o.offset());
      }
    }
    while (parts.stream().anyMatch(tp -> c.position(tp, remaining()) < end.get(tp))) {
      if (System.nanoTime() > deadlineNanos) {
        throw new IllegalStateException("reading " + topic.name() + " did not finish within the"
            + " --timeout; try a shorter --lookback or a --pool");
      }
      for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
        if (r.offset() >= end.get(new TopicPartition(r.topic(), r.partition())) || r.value() == null) {
          continue;
        }
        V v;
        try {
          v = topic.decode(r.value());
        } catch (RuntimeException bad) {
          undecodable++;
          continue;
        }
        if (onlyPool == null || onlyPool.equals(poolOf.apply(v))) {
          sink.accept(v, r.timestamp());
        }
      }
    }
  }

  private Duration remaining() {
    return Duration.ofNanos(Math.max(1_000_000L, deadlineNanos - System.nanoTime()));
  }
}
