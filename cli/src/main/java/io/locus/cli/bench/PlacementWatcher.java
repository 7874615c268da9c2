package io.locus.cli.bench;

import io.locus.kafka.ClientConfigs;
import io.locus.kafka.TopicTail;
import io.locus.kafka.Topics;
import io.locus.schemas.Decision;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.SchedulerMetrics;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The bench's own consumer of the decisions, task-events and scheduler-metrics topics. For each
 * bench job (by the sequence number in its id) it keeps the moment its first PlaceTask became
 * visible here (read_committed under exactly-once: what an agent could see), on this JVM's
 * {@link System#nanoTime()} clock, the clock the publisher stamps arrivals with. It also counts
 * COMPLETED events and keeps each pool's latest metrics (registered slots). Records that do not
 * decode are not the bench's and are skipped.
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
  private final TopicTail tail;

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
    // One stamp per poll (TopicTail.Meta.polledNanos): the moment the poll made them visible.
    tail = TopicTail.builder(ClientConfigs.consumer(bootstrap, null, readCommitted))
        .name("bench-placement-watcher")
        .follow(Topics.DECISIONS, (d, m) -> decision(d, m.polledNanos()))
        .follow(Topics.TASK_EVENTS, (e, m) -> taskEvent(e, m.polledNanos()))
        .follow(Topics.SCHEDULER_METRICS, (m, meta) -> metrics.put(m.getPool(), m))
        .start();
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
    RuntimeException failure = tail.failure();
    if (failure != null) {
      throw new IllegalStateException("the bench's decisions consumer failed", failure);
    }
  }

  private void decision(Decision d, long now) {
    if (d.getAction() instanceof PlaceTask p && pools.contains(d.getPool())) {
      long seq = BenchWorkload.seqOf(p.getTaskId());
      if (seq >= 0 && seq < visibleAt.length() && visibleAt.compareAndSet((int) seq, 0, now)) {
        placed.incrementAndGet();
      }
    }
  }

  private void taskEvent(TaskEvent e, long now) {
    if (e.getType() == TaskEventType.COMPLETED && pools.contains(e.getPool())) {
      long seq = BenchWorkload.seqOf(e.getTaskId());
      // distinct bench jobs: a duplicate COMPLETED (redelivery) is not a second completion
      if (seq >= 0 && seq < completedAt.length() && completedAt.compareAndSet((int) seq, 0, now)) {
        completed.incrementAndGet();
        lastCompletedAt.set(now);
      }
    }
  }

  @Override
  public void close() {
    tail.close();
  }
}
