package io.locus.cli.bench;

import io.locus.kafka.ClientConfigs;
import io.locus.kafka.Topics;
import io.locus.schemas.Decision;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.SchedulerMetrics;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.codec.SchemaException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * The bench's own consumer of the decisions, task-events and scheduler-metrics topics. For each
 * bench job (by the sequence number in its id) it keeps the moment its first PlaceTask became
 * visible here (read_committed under exactly-once: what an agent could see), on this JVM's
 * {@link System#nanoTime()} clock, the clock the publisher stamps arrivals with. It also counts
 * COMPLETED events and keeps each pool's latest metrics (registered slots).
 */
public final class PlacementWatcher implements AutoCloseable {
  private final Set<String> pools;
  private final AtomicLongArray publishedAt;
  private final AtomicLongArray visibleAt;
  private final AtomicLongArray completedAt;
  private final AtomicLong placed = new AtomicLong();
  private final AtomicLong completed = new AtomicLong();
  private final AtomicLong lastCompletedAt = new AtomicLong();
  private final Map<String, SchedulerMetrics> metrics = new ConcurrentHashMap<>();
  private final AtomicBoolean stop = new AtomicBoolean();
  private final Thread thread;
  private volatile RuntimeException failure;

  /**
   * @param capacity the most jobs the run publishes (sequence numbers 0 … capacity-1)
   * @param readCommitted read the decisions as an agent of an exactly-once scheduler does
   */
  public PlacementWatcher(String bootstrap, Set<String> pools, int capacity,
      boolean readCommitted) {
    this.pools = Set.copyOf(pools);
    this.publishedAt = new AtomicLongArray(capacity);
    this.visibleAt = new AtomicLongArray(capacity);
    this.completedAt = new AtomicLongArray(capacity);
    var props = ClientConfigs.consumer(bootstrap, null, readCommitted);
    props.put("max.poll.records", "5000");
    thread = new Thread(() -> run(props), "bench-placement-watcher");
    thread.setDaemon(true);
    thread.start();
  }

  /** Stamps job {@code seq}'s arrival; call just before sending it. */
  public void published(long seq, long nanos) {
    publishedAt.set((int) seq, nanos);
  }

  public int capacity() {
    return publishedAt.length();
  }

  /** Distinct bench jobs placed so far. */
  public long placed() {
    check();
    return placed.get();
  }

  /** Distinct bench jobs completed so far. */
  public long completed() {
    check();
    return completed.get();
  }

  /** nanoTime of the last COMPLETED read (0: none yet). */
  public long lastCompletedNanos() {
    return lastCompletedAt.get();
  }

  /** Slots the scheduler's latest metrics count in {@code pool} (0 before any metrics). */
  public long registeredSlots(String pool) {
    check();
    SchedulerMetrics m = metrics.get(pool);
    return m == null ? 0 : m.getTotalSlots();
  }

  /**
   * Arrival → decision-visible latencies, in nanoseconds, of jobs {@code from} … {@code to}-1
   * that were placed, sorted ascending; {@code unplaced[0]} receives how many were not.
   */
  public long[] latencies(long from, long to, long[] unplaced) {
    return latencies(visibleAt, from, to, unplaced);
  }

  /**
   * Arrival → first COMPLETED read latencies, in nanoseconds, of jobs {@code from} … {@code to}-1
   * that completed, sorted; {@code unfinished[0]} receives how many did not.
   */
  public long[] completionLatencies(long from, long to, long[] unfinished) {
    return latencies(completedAt, from, to, unfinished);
  }

  private long[] latencies(AtomicLongArray at, long from, long to, long[] unplaced) {
    long missing = 0;
    long[] buf = new long[(int) Math.max(0, to - from)];
    int n = 0;
    for (long s = from; s < to; s++) {
      long v = at.get((int) s);
      long p = publishedAt.get((int) s);
      if (v == 0 || p == 0) {
        missing++;
      } else {
        buf[n++] = Math.max(0, v - p);
      }
    }
    unplaced[0] = missing;
    long[] r = java.util.Arrays.copyOf(buf, n);
    java.util.Arrays.sort(r);
    return r;
  }

  private void check() {
    if (failure != null) {
      throw new IllegalStateException("the bench's decisions consumer failed", failure);
    }
  }

  private void run(java.util.Properties props) {
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
      List<TopicPartition> parts = new ArrayList<>();
      for (var t : List.of(Topics.DECISIONS, Topics.TASK_EVENTS, Topics.SCHEDULER_METRICS)) {
        for (int p = 0; p < t.partitions(); p++) {
          parts.add(new TopicPartition(t.name(), p));
        }
      }
      consumer.assign(parts);
      consumer.seekToBeginning(parts);
      while (!stop.get()) {
        var records = consumer.poll(Duration.ofMillis(50));
        long now = System.nanoTime(); // one read per poll: what the poll made visible
        for (ConsumerRecord<byte[], byte[]> r : records) {
          try {
            read(r, now);
          } catch (SchemaException e) {
            // not a record of its topic: not the bench's
          }
        }
      }
    } catch (org.apache.kafka.common.errors.InterruptException e) {
      // closing
    } catch (RuntimeException e) {
      failure = e;
    }
  }

  private void read(ConsumerRecord<byte[], byte[]> r, long now) {
    String topic = r.topic();
    if (topic.equals(Topics.DECISIONS.name())) {
      Decision d = Topics.DECISIONS.decode(r.value());
      if (d.getAction() instanceof PlaceTask p && pools.contains(d.getPool())) {
        long seq = BenchWorkload.seqOf(p.getTaskId());
        if (seq >= 0 && seq < visibleAt.length() && visibleAt.compareAndSet((int) seq, 0, now)) {
          placed.incrementAndGet();
        }
      }
    } else if (topic.equals(Topics.TASK_EVENTS.name())) {
      TaskEvent e = Topics.TASK_EVENTS.decode(r.value());
      if (e.getType() == TaskEventType.COMPLETED && pools.contains(e.getPool())) {
        long seq = BenchWorkload.seqOf(e.getTaskId());
        // distinct bench jobs: a duplicate COMPLETED (redelivery) is not a second completion
        if (seq >= 0 && seq < completedAt.length() && completedAt.compareAndSet((int) seq, 0, now)) {
          completed.incrementAndGet();
          lastCompletedAt.set(now);
        }
      }
    } else {
      SchedulerMetrics m = Topics.SCHEDULER_METRICS.decode(r.value());
      metrics.put(m.getPool(), m);
    }
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
