package io.locus.cli;

import io.locus.kafka.ClientConfigs;
import io.locus.kafka.TopicTail;
import io.locus.kafka.Topics;
import io.locus.schemas.SchedulerMetrics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The queue tree each pool runs under, as its scheduler last published it: the newest
 * scheduler-metrics record of the pool within a lookback (the scheduler writes one per pool every
 * metrics interval, carrying the tree as last applied). Read without a consumer group, up to the
 * topic's end as it was when reading began.
 */
final class QueueTreeRead {
  /** A pool's newest metrics record and its timestamp. */
  record Seen(SchedulerMetrics metrics, long timestampMs) {}

  final Map<String, Seen> pools = new TreeMap<>();
  List<String> missingTopics = List.of();

  /**
   * Reads scheduler-metrics from {@code sinceMs}, only {@code pool}'s partition when one is given.
   *
   * @throws IllegalStateException when reading does not finish within {@code timeout}
   */
  static QueueTreeRead read(Properties client, String pool, long sinceMs, Duration timeout)
      throws InterruptedException {
    Properties p = ClientConfigs.consumer("unused:0", null, true);
    p.putAll(client);
    QueueTreeRead out = new QueueTreeRead();
    TopicTail tail = TopicTail.builder(p)
        .name("queues-" + Topics.SCHEDULER_METRICS.name())
        .from(TopicTail.Start.at(sinceMs))
        .follow(Topics.SCHEDULER_METRICS, (m, meta) -> {
          String name = m.getPool().toString();
          if (meta.timestampMs() < sinceMs || (pool != null && !pool.equals(name))) {
            return;
          }
          Seen old = out.pools.get(name);
          if (old == null || meta.timestampMs() >= old.timestampMs()) {
            out.pools.put(name, new Seen(m, meta.timestampMs()));
          }
        })
        // keyed by pool: one pool's records are all in its partition
        .partitions((t, partition, count) -> pool == null
            || partition == Topics.partitionOf(pool, count))
        .untilEnd()
        .start();
    try (tail) {
      boolean done = tail.awaitStopped(timeout);
      tail.throwIfFailed();
      if (!done) {
        throw new IllegalStateException("reading " + Topics.SCHEDULER_METRICS.name()
            + " did not finish within " + timeout);
      }
      out.missingTopics = tail.missingTopics();
    }
    return out;
  }
}
