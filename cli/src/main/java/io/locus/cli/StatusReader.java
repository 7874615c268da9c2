package io.locus.cli;

import io.locus.kafka.ClientConfigs;
import io.locus.kafka.TopicSpec;
import io.locus.kafka.TopicTail;
import io.locus.kafka.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.apache.avro.specific.SpecificRecord;

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
    this.props = p;
    this.onlyPool = onlyPool;
    this.keepFailures = keepFailures;
    this.deadlineNanos = System.nanoTime() + timeout.toNanos();
  }

  /**
   * Reads every topic status needs; {@code sinceMs} bounds the high-volume ones. The scheduler's
   * node verdicts are read whole: the topic is compacted to each node's latest, and a node
   * registered long ago is still registered.
   */
  StatusReader readAll(long sinceMs) {
    // Control acks are rare and the paused state may be old: the whole topic.
    read(Topics.CONTROL_ACKS, Long.MIN_VALUE,
        (a, ts) -> pool(a.getPool()).ack(a, ts), a -> a.getPool().toString());
    read(Topics.SCHEDULER_METRICS, sinceMs, (m, ts) -> pool(m.getPool()).metrics(m, ts),
        m -> m.getPool().toString());
    read(Topics.NODE_STATUS, Long.MIN_VALUE, (v, ts) -> pool(v.getPool()).verdict(v, ts),
        v -> v.getPool().toString());
    read(Topics.TASK_EVENTS, sinceMs, (e, ts) -> pool(e.getPool()).taskEvent(e, ts),
        e -> e.getPool().toString());
    read(Topics.SHADOW_DECISIONS, sinceMs, (d, ts) -> pool(d.getPool()).shadow(d, ts),
        d -> d.getPool().toString());
    return this;
  }

  private PoolStatus pool(CharSequence name) {
    return pools.computeIfAbsent(name.toString(), p -> new PoolStatus(p, keepFailures));
  }

  /**
   * One topic from {@code sinceMs} up to its end as it was when reading it began (a bounded
   * {@link TopicTail}), only the pool's partition when one pool is asked for. The start is the
   * first record stamped at or after {@code sinceMs}; a later record stamped before it (a
   * producer's own timestamp) is skipped too, so the window holds whatever the order.
   */
  private <V extends SpecificRecord> void read(TopicSpec<V> topic, long sinceMs,
      BiConsumer<V, Long> sink, Function<V, String> poolOf) {
    TopicTail tail = TopicTail.builder(props)
        .name("status-" + topic.name())
        .from(sinceMs == Long.MIN_VALUE ? TopicTail.Start.beginning()
            : TopicTail.Start.at(sinceMs))
        .follow(topic, (v, meta) -> {
          if (meta.timestampMs() >= sinceMs
              && (onlyPool == null || onlyPool.equals(poolOf.apply(v)))) {
            sink.accept(v, meta.timestampMs());
          }
        })
        // Keyed by pool: one pool's records are all in its partition.
        .partitions((t, partition, count) -> onlyPool == null
            || !"pool".equals(t.keyMeaning()) || partition == Topics.partitionOf(onlyPool, count))
        .untilEnd()
        .start();
    try (tail) {
      boolean done;
      try {
        done = tail.awaitStopped(remaining());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while reading " + topic.name(), e);
      }
      tail.throwIfFailed();
      if (!done) {
        throw new IllegalStateException("reading " + topic.name() + " did not finish within the"
            + " --timeout; try a shorter --lookback or a --pool");
      }
      missingTopics.addAll(tail.missingTopics());
      undecodable += tail.undecodable();
    }
  }

  private Duration remaining() {
    return Duration.ofNanos(Math.max(1_000_000L, deadlineNanos - System.nanoTime()));
  }
}
