package io.locus.core.share;

/**
 * Where one queue (a leaf, or a parent counting its whole subtree) stands at a decision: what status,
 * metrics and pending reasons show, and what the locality wait and preemption read.
 *
 * @param running slots its running attempts hold
 * @param pending its pending tasks
 * @param guarantee its effective guarantee in slots: the configured one, scaled down with its
 *     siblings' when the pool (or its parent's guarantee) is smaller than their sum, so guarantees
 *     never promise slots that do not exist
 * @param fairShare its weighted max-min fair share in slots among the active queues (those running or
 *     pending work), at least its guarantee and at most its demand and limit
 * @param limit its slot limit ({@link QueueSpec#UNLIMITED} for none)
 * @param dominantShare its usage's dominant share of the pool (slots and declared resources)
 * @param overdueSeconds how long its oldest pending task has waited past the queue's maximum wait
 *     (0 when not overdue, or no bound)
 */
public record QueueStanding(String queue, int running, int pending, double guarantee,
    double fairShare, int limit, double weight, double dominantShare, double overdueSeconds) {

  /** Tolerance of the share comparisons (guarantees are scaled doubles). */
  static final double EPS = 1e-9;

  /** Slots held above the guarantee: borrowed from idle guarantees of others. */
  public double borrowed() {
    return Math.max(0, running - guarantee);
  }

  public boolean belowGuarantee() {
    return running < guarantee - EPS;
  }

  public boolean atLimit() {
    return running >= limit;
  }

  public boolean overdue() {
    return overdueSeconds > 0;
  }
}
