package io.locus.dashboard;

import io.locus.schemas.SchedulerMetrics;

/**
 * What the dashboard knows of one pool: its latest SchedulerMetrics (by metrics time) with a short
 * history of its queue length and of its queues' usage, the pool's record clock (as the
 * scheduler's input gate moves it: the newest time of its task events and node reports), and sums
 * over its task events and placements. Not thread-safe: {@link DashboardState} guards it.
 */
final class PoolTally {
  /** Queue-length samples kept for the chart. */
  static final int QUEUE_HISTORY = 120;

  final String pool;
  SchedulerMetrics metrics;
  long clockMs = Long.MIN_VALUE;
  long placements;
  long completed;
  long failed;
  long bytesLocal;
  long bytesPeer;
  long bytesStorage;
  private final long[] queueTimes = new long[QUEUE_HISTORY];
  private final long[] queueLengths = new long[QUEUE_HISTORY];
  private int queueSamples;
  private int queueNext;
  /** Its queues (issue 24): the latest table and their history, sampled with the queue length. */
  final QueueHistory queues = new QueueHistory();

  PoolTally(String pool) {
    this.pool = pool;
  }

  void metrics(SchedulerMetrics m) {
    if (metrics != null && m.getTimeMs() < metrics.getTimeMs()) {
      return; // an older sample (a restarted scheduler's replay): the latest stays
    }
    metrics = m;
    queues.add(m);
    queueTimes[queueNext] = m.getTimeMs();
    queueLengths[queueNext] = m.getQueueLength();
    queueNext = (queueNext + 1) % QUEUE_HISTORY;
    queueSamples = Math.min(QUEUE_HISTORY, queueSamples + 1);
  }

  /** The queue-length history, oldest first: [times, lengths]. */
  long[][] queueHistory() {
    long[] t = new long[queueSamples];
    long[] q = new long[queueSamples];
    int start = (queueNext - queueSamples + QUEUE_HISTORY) % QUEUE_HISTORY;
    for (int k = 0; k < queueSamples; k++) {
      t[k] = queueTimes[(start + k) % QUEUE_HISTORY];
      q[k] = queueLengths[(start + k) % QUEUE_HISTORY];
    }
    return new long[][] {t, q};
  }

  void moveClock(long timeMs) {
    clockMs = Math.max(clockMs, timeMs);
  }

  double localRatio() {
    long all = bytesLocal + bytesPeer + bytesStorage;
    return all == 0 ? 0 : (double) bytesLocal / all;
  }
}
