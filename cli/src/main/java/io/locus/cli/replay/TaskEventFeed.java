package io.locus.cli.replay;

import io.locus.kafka.ClientConfigs;
import io.locus.kafka.Topics;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.codec.SchemaException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * The task events of some pools, from the moment the feed was made: the constructor assigns every
 * partition of task-events and fixes the current end as the start before it returns, so a replay
 * that makes the feed before publishing misses no completion of its jobs. A background thread
 * decodes; the replay takes events with {@link #poll}. Needs READ on task-events (no group).
 */
public final class TaskEventFeed implements AutoCloseable {
  private final BlockingQueue<TaskEvent> events = new LinkedBlockingQueue<>();
  private final AtomicBoolean stop = new AtomicBoolean();
  private final Set<String> pools;
  private final Thread thread;
  private volatile RuntimeException failure;
  private volatile long undecodable;

  /**
   * @param client bootstrap servers and security settings
   * @param pools the pools whose events to keep
   */
  public TaskEventFeed(Properties client, Set<String> pools) {
    this.pools = Set.copyOf(pools);
    Properties p = ClientConfigs.withOverrides(
        ClientConfigs.consumer("unused", null, false), toMap(client));
    KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p);
    try {
      List<TopicPartition> parts = new ArrayList<>();
      for (int i = 0; i < Topics.TASK_EVENTS.partitions(); i++) {
        parts.add(new TopicPartition(Topics.TASK_EVENTS.name(), i));
      }
      consumer.assign(parts);
      consumer.seekToEnd(parts);
      parts.forEach(tp -> consumer.position(tp, Duration.ofSeconds(30)));
    } catch (RuntimeException e) {
      consumer.close(Duration.ZERO);
      throw e;
    }
    thread = new Thread(() -> run(consumer), "replay-task-events");
    thread.setDaemon(true);
    thread.start();
  }

  private static java.util.Map<String, Object> toMap(Properties client) {
    java.util.Map<String, Object> m = new java.util.HashMap<>();
    client.forEach((k, v) -> m.put(String.valueOf(k), v));
    return m;
  }

  private void run(KafkaConsumer<byte[], byte[]> consumer) {
    try (consumer) {
      while (!stop.get()) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
          TaskEvent e;
          try {
            e = Topics.TASK_EVENTS.decode(r.value());
          } catch (SchemaException ex) {
            undecodable++; // anyone may write to the topic: not a reason to stop
            continue;
          }
          if (pools.contains(e.getPool())) {
            events.add(e);
          }
        }
      }
    } catch (org.apache.kafka.common.errors.InterruptException | org.apache.kafka.common.errors.WakeupException e) {
      // closing
    } catch (RuntimeException e) {
      failure = e;
    }
  }

  /**
   * The next event, waiting at most {@code timeout}; null when none came.
   *
   * @throws IllegalStateException when the consumer failed (say, no READ on task-events)
   */
  public TaskEvent poll(Duration timeout) throws InterruptedException {
    TaskEvent e = events.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    if (e == null && failure != null) {
      throw new IllegalStateException("reading task-events failed: " + failure.getMessage(),
          failure);
    }
    return e;
  }

  /** Records on task-events that were not task events. */
  public long undecodable() {
    return undecodable;
  }

  @Override
  public void close() {
    stop.set(true);
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
