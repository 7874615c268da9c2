package io.locus.core.share;

/**
 * How long a queue's head may wait for a better node (a node holding more of its data) while a
 * slot it could take is free: delay scheduling's rule (Zaharia et al., EuroSys 2010: the job that
 * fairness picks but that cannot launch a local task waits a bounded time while others launch),
 * adapted to the data-aware policies, where the wait is the policy's own (MCH waits for a best
 * holder, spec D6; EFT until submission + D; GCC as MCH at or above θ) and is cut here by fairness:
 *
 * <pre>
 *   base   = min(policyWait, maxLocalityWait)
 *   wait   = base                                       if no other queue could take the slot
 *          = 0                                          if running &lt; guarantee (starved)
 *          = base                                       if running ≥ fairShare
 *          = base · (running − guarantee) / (fairShare − guarantee)   in between
 *   and 0 when the queue is overdue (its oldest task waited past the queue's maxWaitSeconds).
 * </pre>
 *
 * <p>Uncontended (no other queue could start a task in the slot), waiting costs no queue its share,
 * only the slot's idle time, which is the policy's own trade (MCH's wait); so the policy's wait
 * holds, capped as always by {@code maxLocalityWait}.
 *
 * So a queue at or above its share may wait as long as its policy and {@code maxLocalityWait} allow
 * (it loses nothing to others by waiting: fairness is already served), a queue below its guarantee
 * takes the free slot at once (its guarantee beats a cache hit), and between the two the wait shrinks
 * linearly with the deficit. Measured from the moment the head was first held while a slot it could
 * take was free ({@code heldSince}), as delay scheduling counts skips from the job's last launch.
 */
public final class LocalityWait {
  /**
   * The default cap on any locality wait: 3 s, Spark's {@code spark.locality.wait} default (the
   * delay scheduling paper's own setting for Hadoop's node locality was of the same order: a few
   * seconds, short against task lengths). A pool parameter; the fairness experiment tunes it.
   */
  public static final double DEFAULT_MAX_LOCALITY_WAIT = 3.0;

  private final double maxLocalityWait;

  public LocalityWait(double maxLocalityWaitSeconds) {
    if (!(maxLocalityWaitSeconds >= 0)) {
      throw new IllegalArgumentException("max locality wait must be >= 0 seconds, got "
          + maxLocalityWaitSeconds);
    }
    this.maxLocalityWait = maxLocalityWaitSeconds;
  }

  public double maxLocalityWait() {
    return maxLocalityWait;
  }

  /**
   * The seconds {@code s}'s head may wait for a better node, given the policy's own wait
   * ({@link Double#POSITIVE_INFINITY} for MCH's unbounded wait, 0 for a policy that never waits).
   */
  public double allowed(QueueStanding s, double policyWaitSeconds, boolean contended) {
    double base = Math.min(Math.max(0, policyWaitSeconds), maxLocalityWait);
    if (base == 0 || s.overdue()) {
      return 0;
    }
    if (!contended) {
      return base;
    }
    if (s.belowGuarantee()) {
      return 0;
    }
    double span = s.fairShare() - s.guarantee();
    if (s.running() >= s.fairShare() - QueueStanding.EPS || span <= QueueStanding.EPS) {
      return base;
    }
    double fraction = (s.running() - s.guarantee()) / span;
    // fraction is 0 exactly at the guarantee: return 0 there rather than ∞·0 (NaN) for MCH.
    return fraction <= 0 ? 0 : base * fraction;
  }

  /**
   * The event time until which the head may still wait: {@code heldSince} + {@link #allowed},
   * never past the time its queue becomes overdue (submission + the queue's maxWaitSeconds).
   */
  public double until(QueueStanding s, QueueSpec spec, double policyWaitSeconds, boolean contended,
      double heldSince, double headSubmitTime) {
    double t = heldSince + allowed(s, policyWaitSeconds, contended);
    if (spec.maxWaitSeconds() != null) {
      t = Math.min(t, headSubmitTime + spec.maxWaitSeconds());
    }
    return t;
  }

  /** True while the head, held since {@code heldSince}, may keep waiting at event time {@code now}. */
  public boolean mayWait(QueueStanding s, QueueSpec spec, double policyWaitSeconds,
      boolean contended, double heldSince, double headSubmitTime, double now) {
    return now < until(s, spec, policyWaitSeconds, contended, heldSince, headSubmitTime);
  }
}
