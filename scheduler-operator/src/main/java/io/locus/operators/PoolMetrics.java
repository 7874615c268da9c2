package io.locus.operators;

import io.locus.schemas.Decision;
import io.locus.schemas.InputPlan;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.QueueUsage;
import io.locus.schemas.SchedulerMetrics;
import io.locus.core.model.PendingCode;
import io.locus.schemas.state.PoolMeta;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MeterView;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.ThreadSafeSimpleCounter;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;

/**
 * One pool's Flink metrics, on {@code locus.pool=<POOL>} of the scheduler operator's group (the
 * names are a contract with the Grafana dashboard, docs/operations.md lists them).
 *
 * <p>Everything here is written by the task thread and read by the metric reporter's thread: the
 * gauges read volatile snapshots published by {@link #refresh}, never the pool's state (which may
 * live in RocksDB, and is not thread-safe anyway); the counters are thread-safe.
 *
 * <ul>
 *   <li>{@code placements}, {@code placementsPerSecond}, {@code decisionLatencyMs}, {@code
 *       bytesLocal|Peer|Storage}, {@code bytesToMove}: per PlaceTask decision emitted ({@link
 *       #decided}); the bytes are those of its input plans, by the source the plan names (what
 *       the placement asks for, not what the agent later reports: the scheduler-metrics topic
 *       counts the reported bytes of completed tasks). A split placement (event segments, no
 *       input files) adds no bytes.</li>
 *   <li>{@code hitRatioLocal|Peer|Storage}: those byte counters' shares (0 before any byte).</li>
 *   <li>{@code completions}, {@code failures} (tasks given up after their retries): follow the
 *       pool's cumulative counters in {@link PoolMeta} (the topic's), counting what they gained
 *       since this operator instance opened ({@link #follow}).</li>
 *   <li>{@code queueLength}, {@code runningTasks}, {@code registeredNodes}, {@code
 *       drainingNodes}: refreshed with the pool's metrics record on the operator's metrics timer
 *       ({@link #refresh}, every {@code --metrics-interval-ms}).</li>
 *   <li>{@code pendingTasks}, one gauge per pending-reason code on {@code reason=<code>}
 *       (every code of {@link PendingCode}, 0 when none): the metrics record's {@code
 *       pendingByCode}, refreshed with it.</li>
 *   <li>per queue, on {@code queue=<name>} (issue 24): {@code running}, {@code pending},
 *       {@code guarantee}, {@code fairShare}, {@code borrowed} (slots), {@code share} (dominant
 *       share of the pool, 0–1) and {@code preempted} (cumulative): the metrics record's {@code queueUsage}, refreshed with it. A queue's gauges
 *       are registered when it first appears and read 0 once it is gone from the tree (Flink
 *       cannot unregister one metric); at most {@link #MAX_QUEUE_GROUPS} queues get them.</li>
 *   <li>{@code paused}: set by the control path ({@link #paused(boolean)}).</li>
 *   <li>{@code lostNodes}: nodes the input gate declared lost.</li>
 * </ul>
 * Flink counters start at 0 with each operator instance (a restart gives new series, Prometheus
 * handles that as a counter reset).
 */
public final class PoolMetrics {
  /** Latency samples kept for the quantiles. */
  static final int LATENCY_WINDOW = 1024;
  /** The placement rate's window, seconds. */
  static final int RATE_SECONDS = 60;
  /**
   * Queues given gauges, over the pool's life: a tree has at most {@code Limits.MAX_QUEUES}, and
   * renamed queues add more; past this the metrics record still carries them.
   */
  static final int MAX_QUEUE_GROUPS = 1024;

  private final Counter placements = new ThreadSafeSimpleCounter();
  private final Counter completions = new ThreadSafeSimpleCounter();
  private final Counter failures = new ThreadSafeSimpleCounter();
  private final Counter lostNodes = new ThreadSafeSimpleCounter();
  private final Counter bytesLocal = new ThreadSafeSimpleCounter();
  private final Counter bytesPeer = new ThreadSafeSimpleCounter();
  private final Counter bytesStorage = new ThreadSafeSimpleCounter();
  private final Counter bytesToMove = new ThreadSafeSimpleCounter();
  private final Histogram decisionLatencyMs = new DescriptiveStatisticsHistogram(LATENCY_WINDOW);

  private final AtomicLong queueLength = new AtomicLong();
  private final AtomicLong runningTasks = new AtomicLong();
  private final AtomicLong registeredNodes = new AtomicLong();
  private final AtomicLong drainingNodes = new AtomicLong();
  private volatile boolean paused;
  private final Map<PendingCode, AtomicLong> pending = new EnumMap<>(PendingCode.class);
  private final MetricGroup poolGroup;
  /** Per queue, its latest usage (null once gone), by name; task thread writes, reporter reads. */
  private final Map<String, QueueGauges> queues = new java.util.concurrent.ConcurrentHashMap<>();

  /** One queue's gauges: they read the usage last published, 0 when there is none. */
  private static final class QueueGauges {
    volatile QueueUsage usage;

    double get(java.util.function.ToDoubleFunction<QueueUsage> f) {
      QueueUsage u = usage;
      return u == null ? 0 : f.applyAsDouble(u);
    }
  }

  // Task thread only: the PoolMeta counters last seen.
  private boolean following;
  private long seenCompletions;
  private long seenFailures;

  /** Registers the pool's metrics on {@code locus.pool=<pool>} of {@code operatorGroup}. */
  PoolMetrics(MetricGroup operatorGroup, String pool) {
    MetricGroup g = operatorGroup.addGroup("locus").addGroup("pool", pool);
    poolGroup = g;
    g.counter("placements", placements);
    g.meter("placementsPerSecond", new MeterView(placements, RATE_SECONDS));
    g.counter("completions", completions);
    g.counter("failures", failures);
    g.gauge("queueLength", (Gauge<Long>) queueLength::get);
    g.gauge("runningTasks", (Gauge<Long>) runningTasks::get);
    g.gauge("registeredNodes", (Gauge<Long>) registeredNodes::get);
    g.gauge("drainingNodes", (Gauge<Long>) drainingNodes::get);
    g.counter("lostNodes", lostNodes);
    g.histogram("decisionLatencyMs", decisionLatencyMs);
    g.counter("bytesLocal", bytesLocal);
    g.counter("bytesPeer", bytesPeer);
    g.counter("bytesStorage", bytesStorage);
    g.gauge("hitRatioLocal", (Gauge<Double>) this::hitRatioLocal);
    g.gauge("hitRatioPeer", (Gauge<Double>) this::hitRatioPeer);
    g.gauge("hitRatioStorage", (Gauge<Double>) this::hitRatioStorage);
    g.counter("bytesToMove", bytesToMove);
    g.gauge("paused", (Gauge<Integer>) () -> paused ? 1 : 0);
    for (PendingCode c : PendingCode.values()) {
      AtomicLong n = new AtomicLong();
      pending.put(c, n);
      g.addGroup("reason", c.code()).gauge("pendingTasks", (Gauge<Long>) n::get);
    }
  }

  /**
   * A decision left the operator for an input whose Kafka record was stamped {@code
   * inputTimestampMs} (negative: unknown), at processing time {@code nowMs}. Only placements
   * count.
   */
  void decided(Decision d, long inputTimestampMs, long nowMs) {
    if (!(d.getAction() instanceof PlaceTask p)) {
      return;
    }
    placements.inc();
    for (InputPlan in : p.getInputs()) {
      long b = Math.max(0, in.getBytes());
      switch (in.getSource()) {
        case LOCAL -> bytesLocal.inc(b);
        case PEER -> {
          bytesPeer.inc(b);
          bytesToMove.inc(b);
        }
        case STORAGE -> {
          bytesStorage.inc(b);
          bytesToMove.inc(b);
        }
        default -> { }
      }
    }
    if (inputTimestampMs >= 0) {
      decisionLatencyMs.update(Math.max(0, nowMs - inputTimestampMs));
    }
  }

  /**
   * Follows the pool's cumulative counters after an input. The first call only takes them as the
   * starting point; a counter that went down (a policy family change may restart them) is taken
   * as the new starting point too.
   */
  void follow(PoolMeta m) {
    if (following) {
      completions.inc(gain(m.getCompletions(), seenCompletions));
      failures.inc(gain(m.getFailures(), seenFailures));
    }
    following = true;
    seenCompletions = m.getCompletions();
    seenFailures = m.getFailures();
  }

  private static long gain(long now, long seen) {
    return Math.max(0, now - seen);
  }

  /** Publishes the gauges from the pool's metrics record and its draining node count. */
  void refresh(SchedulerMetrics s, int draining) {
    queueLength.set(s.getQueueLength());
    runningTasks.set(s.getRunningTasks());
    registeredNodes.set(s.getRegisteredNodes());
    drainingNodes.set(draining);
    Map<String, Long> by = s.getPendingByCode();
    pending.forEach((c, n) -> {
      Long v = by == null ? null : by.get(c.code());
      n.set(v == null ? 0 : v);
    });
    refreshQueues(s.getQueueUsage());
  }

  private void refreshQueues(java.util.List<QueueUsage> usage) {
    Map<String, QueueUsage> now = new java.util.HashMap<>();
    if (usage != null) {
      for (QueueUsage u : usage) {
        now.put(u.getQueue().toString(), u);
      }
    }
    queues.forEach((q, g) -> g.usage = now.get(q));
    now.forEach((q, u) -> {
      QueueGauges g = queues.get(q);
      if (g == null && queues.size() < MAX_QUEUE_GROUPS) {
        g = register(q);
      }
      if (g != null) {
        g.usage = u;
      }
    });
  }

  private QueueGauges register(String queue) {
    QueueGauges q = new QueueGauges();
    queues.put(queue, q);
    MetricGroup g = poolGroup.addGroup("queue", queue);
    g.gauge("running", (Gauge<Long>) () -> (long) q.get(QueueUsage::getRunning));
    g.gauge("pending", (Gauge<Long>) () -> (long) q.get(QueueUsage::getPending));
    g.gauge("guarantee", (Gauge<Double>) () -> q.get(QueueUsage::getGuarantee));
    g.gauge("fairShare", (Gauge<Double>) () -> q.get(QueueUsage::getFairShare));
    g.gauge("borrowed", (Gauge<Double>) () -> q.get(QueueUsage::getBorrowed));
    g.gauge("share", (Gauge<Double>) () -> q.get(QueueUsage::getShare));
    g.gauge("preempted", (Gauge<Long>) () -> (long) q.get(QueueUsage::getPreempted));
    return q;
  }

  private double share(Counter part) {
    double total = (double) bytesLocal.getCount() + bytesPeer.getCount()
        + bytesStorage.getCount();
    return total == 0 ? 0 : part.getCount() / total;
  }

  /** Whether the pool is paused (PAUSE_POOL / RESUME_POOL): the {@code paused} gauge. */
  public void paused(boolean p) {
    paused = p;
  }

  /** A node of the pool was declared lost. */
  void nodeLost() {
    lostNodes.inc();
  }

  // ------------------------------------------------------------------ read (tests, logs)

  long placements() {
    return placements.getCount();
  }

  long completions() {
    return completions.getCount();
  }

  long failures() {
    return failures.getCount();
  }

  long lostNodes() {
    return lostNodes.getCount();
  }

  long bytesLocal() {
    return bytesLocal.getCount();
  }

  long bytesPeer() {
    return bytesPeer.getCount();
  }

  long bytesStorage() {
    return bytesStorage.getCount();
  }

  long bytesToMove() {
    return bytesToMove.getCount();
  }

  long queueLength() {
    return queueLength.get();
  }

  long runningTasks() {
    return runningTasks.get();
  }

  long registeredNodes() {
    return registeredNodes.get();
  }

  long drainingNodes() {
    return drainingNodes.get();
  }

  double hitRatioLocal() {
    return share(bytesLocal);
  }

  double hitRatioPeer() {
    return share(bytesPeer);
  }

  double hitRatioStorage() {
    return share(bytesStorage);
  }

  boolean paused() {
    return paused;
  }

  /** The latest usage of {@code queue} its gauges read, or null (none, or gone). */
  QueueUsage queueUsage(String queue) {
    QueueGauges g = queues.get(queue);
    return g == null ? null : g.usage;
  }

  /** The {@code pendingTasks} gauge of {@code code}. */
  long pendingTasks(PendingCode code) {
    return pending.get(code).get();
  }

  Histogram decisionLatencyMs() {
    return decisionLatencyMs;
  }
}
