package io.locus.cli.replay;

import io.locus.kafka.ClientConfigs;
import io.locus.kafka.TopicTail;
import io.locus.kafka.Topics;
import io.locus.schemas.TaskEvent;
import java.time.Duration;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.TimeoutException;

/**
 * The task events of some pools, from the moment the feed was made: the constructor waits until
 * every partition of task-events is positioned at its current end before it returns, so a replay
 * that makes the feed before publishing misses no completion of its jobs. A {@link TopicTail}
 * decodes; the replay takes events with {@link #poll}. Needs READ on task-events (no group).
 */
public final class TaskEventFeed implements AutoCloseable {
  /** How long the constructor waits for the end offsets. */
  private static final Duration POSITIONED = Duration.ofSeconds(30);
  private final BlockingQueue<TaskEvent> events = new LinkedBlockingQueue<>();
  private final Set<String> pools;
  private final TopicTail tail;

  /**
   * @param client bootstrap servers and security settings
   * @param pools the pools whose events to keep
   * @throws org.apache.kafka.common.KafkaException when task-events cannot be followed (say, no
   *     READ on it, or no end offsets within 30 s)
   */
  public TaskEventFeed(Properties client, Set<String> pools) {
    this.pools = Set.copyOf(pools);
    Properties p = ClientConfigs.withOverrides(
        ClientConfigs.consumer("unused", null, false), toMap(client));
    tail = TopicTail.builder(p)
        .name("replay-task-events")
        .from(TopicTail.Start.end())
        .follow(Topics.TASK_EVENTS, (e, meta) -> keep(e))
        .start();
    try {
      if (!tail.awaitPositioned(POSITIONED)) {
        throw new TimeoutException("no end offsets of " + Topics.TASK_EVENTS.name()
            + " within " + POSITIONED.toSeconds() + " s");
      }
    } catch (InterruptedException e) {
      tail.close();
      throw new InterruptException(e);
    } catch (RuntimeException e) {
      tail.close();
      throw e;
    }
  }

  private static java.util.Map<String, Object> toMap(Properties client) {
    java.util.Map<String, Object> m = new java.util.HashMap<>();
    client.forEach((k, v) -> m.put(String.valueOf(k), v));
    return m;
  }

  private void keep(TaskEvent e) {
    if (pools.contains(e.getPool())) {
      events.add(e);
    }
  }

  /**
   * The next event, waiting at most {@code timeout}; null when none came.
   *
   * @throws IllegalStateException when the consumer failed (say, no READ on task-events)
   */
  public TaskEvent poll(Duration timeout) throws InterruptedException {
    TaskEvent e = events.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    RuntimeException failure = tail.failure();
    if (e == null && failure != null) {
      throw new IllegalStateException("reading task-events failed: " + failure.getMessage(),
          failure);
    }
    return e;
  }

  /** Records on task-events that were not task events (anyone may write to the topic). */
  public long undecodable() {
    return tail.undecodable();
  }

  @Override
  public void close() {
    tail.close();
  }
}
