package io.locus.agent;

import java.util.PriorityQueue;

/**
 * A virtual clock: scheduled work runs only when a test advances time, in time order (FIFO among
 * equal times), on the test's thread. No test waits for real time.
 */
final class ManualScheduler implements AgentScheduler {
  static final long EPOCH_MS = 1_700_000_000_000L;

  private final PriorityQueue<Job> queue = new PriorityQueue<>();
  private long nowNanos;
  private long nextSeq;
  private Runnable beforeEach = () -> { };
  private Runnable afterEach = () -> { };

  private final class Job implements Comparable<Job> {
    long at;
    long seq = nextSeq++;
    final Runnable task;
    final long period;
    boolean cancelled;

    Job(long at, Runnable task, long period) {
      this.at = at;
      this.task = task;
      this.period = period;
    }

    @Override
    public int compareTo(Job o) {
      int c = Long.compare(at, o.at);
      return c != 0 ? c : Long.compare(seq, o.seq);
    }
  }

  /** Runs around every executed job: a place for invariant checks. */
  void around(Runnable before, Runnable after) {
    this.beforeEach = before;
    this.afterEach = after;
  }

  @Override
  public long nowMs() {
    return EPOCH_MS + nowNanos / 1_000_000;
  }

  @Override
  public long nowNanos() {
    return nowNanos;
  }

  /** Virtual seconds since the start. */
  double nowSeconds() {
    return nowNanos / 1e9;
  }

  @Override
  public Cancellable schedule(long delayNanos, Runnable task) {
    Job j = new Job(nowNanos + Math.max(0, delayNanos), task, 0);
    queue.add(j);
    return () -> j.cancelled = true;
  }

  @Override
  public Cancellable scheduleAtFixedRate(long periodNanos, Runnable task) {
    Job j = new Job(nowNanos + periodNanos, task, periodNanos);
    queue.add(j);
    return () -> j.cancelled = true;
  }

  /** Runs everything due within the next {@code seconds} of virtual time. */
  void advanceSeconds(double seconds) {
    long target = nowNanos + Math.round(seconds * 1e9);
    while (!queue.isEmpty() && queue.peek().at <= target) {
      runOne();
    }
    nowNanos = Math.max(nowNanos, target);
  }

  /** Runs jobs until only periodic ones are left (everything the agent started has finished). */
  void runUntilIdle() {
    int guard = 0;
    while (queue.stream().anyMatch(j -> j.period == 0 && !j.cancelled)) {
      runOne();
      if (++guard > 1_000_000) {
        throw new IllegalStateException("scheduler never goes idle");
      }
    }
  }

  private void runOne() {
    Job j = queue.poll();
    nowNanos = Math.max(nowNanos, j.at);
    if (j.cancelled) {
      return;
    }
    if (j.period > 0) {
      // Same object back in the queue, so the handle given at scheduling time still cancels it.
      j.at += j.period;
      j.seq = nextSeq++;
      queue.add(j);
    }
    beforeEach.run();
    j.task.run();
    afterEach.run();
  }
}
