package io.locus.core.model;

/**
 * A job's priority and the queue order it gives: higher priority first, arrival order ({@code seq})
 * within one priority (the Kueue and Slurm model: a workload's priority orders the queue, its
 * creation order breaks ties). The default is 0, so a pool where nobody sets a priority orders its
 * queue exactly by arrival, as before priorities existed.
 *
 * <p>The range is {@value #MIN}..{@value #MAX}: 2,001 levels are more than any scheduler's classes
 * use (Kubernetes ships two system classes, Slurm QOS and Kueue priority classes are a handful in
 * practice), a value outside it is almost always a mistake (a Kubernetes class value of 10^9, a
 * typo) and is refused where it enters (trace readers, the connectors' validation), and the range is
 * what lets the order be one {@code long}: {@link #rank} = seq − priority·2^52, a total order that
 * equals {@code seq} at priority 0, so every structure keyed by queue position (the pool's queue,
 * the dispatch index's sorted lists, the staging queues) keeps working unchanged and a pool without
 * priorities decides bit for bit as before. Queue positions below 2^52 (4.5·10^15 arrivals per
 * pool) are all a pool can give.
 */
public final class Priority {
  public static final int MIN = -1000;
  public static final int MAX = 1000;
  public static final int DEFAULT = 0;
  /** Queue positions a priority level spans: seq in [0, 2^52). */
  public static final long SEQ_LIMIT = 1L << 52;

  private Priority() {}

  public static boolean valid(int priority) {
    return priority >= MIN && priority <= MAX;
  }

  /** The refusal text of an out-of-range priority, the same wherever it is refused. */
  public static String outOfRange(long priority) {
    return "priority " + priority + " is out of range [" + MIN + ", " + MAX + "]";
  }

  /** Throws IllegalArgumentException naming the range when {@code priority} is outside it. */
  public static int check(long priority) {
    if (priority < MIN || priority > MAX) {
      throw new IllegalArgumentException(outOfRange(priority));
    }
    return (int) priority;
  }

  /**
   * The queue order of a task of {@code priority} at queue position {@code seq}: smaller goes first.
   * Equal to seq at priority 0 (whatever seq is, so tests that use any long keep their order).
   */
  public static long rank(int priority, long seq) {
    if (priority == 0) {
      return seq;
    }
    check(priority);
    if (seq < 0 || seq >= SEQ_LIMIT) {
      throw new IllegalArgumentException("queue position " + seq + " of a task with priority "
          + priority + " is outside [0, 2^52)");
    }
    return seq - priority * SEQ_LIMIT;
  }
}
