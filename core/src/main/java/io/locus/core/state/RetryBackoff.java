package io.locus.core.state;

/**
 * How long a failed task waits before its next attempt may be placed: after its {@code n}-th
 * failure of its own, {@code min(initial × 2^(n−1), max)} seconds of the pool's record clock
 * (Kubernetes Job's pod-failure backoff; HTCondor's and Slurm's requeue delays are the same idea).
 * docs/policies.md, "Retries", gives the rule and the defaults.
 *
 * <p>Why a backoff at all: an attempt that fails at once (a missing input, a full disk, a node
 * whose mount hiccups) would otherwise spend every retry within milliseconds, before the cause
 * could clear. Why no jitter: it spreads retries that would all hit one shared service at the same
 * instant; here a retry goes back to the pool's queue and waits for a slot, so the slots already
 * spread them, and a deterministic rule keeps a replay deciding the same.
 *
 * <p>{@link #NONE} (initial 0) re-queues at once, as the spec's replay policy (§2.3) does.
 */
public record RetryBackoff(double initialSeconds, double maxSeconds)
    implements java.io.Serializable {
  /** Each failure doubles the wait (Kubernetes' factor). */
  public static final double MULTIPLIER = 2.0;

  /** No backoff: a failed task is placeable again at once. */
  public static final RetryBackoff NONE = new RetryBackoff(0, 0);

  /**
   * What {@code locus run} uses unless told otherwise: 10 s, doubling, capped at 6 min (Kubernetes
   * Job's values; with the default 3 retries the waits are 10, 20 and 40 s).
   */
  public static final RetryBackoff DEFAULT = new RetryBackoff(10, 360);

  public RetryBackoff {
    if (!(initialSeconds >= 0) || Double.isInfinite(initialSeconds)) {
      throw new IllegalArgumentException("retry backoff must be a finite duration ≥ 0, not "
          + initialSeconds + " s");
    }
    if (!(maxSeconds >= initialSeconds) || Double.isInfinite(maxSeconds)) {
      throw new IllegalArgumentException("retry backoff maximum (" + maxSeconds
          + " s) must be finite and at least the initial backoff (" + initialSeconds + " s)");
    }
  }

  /** Whether failed tasks wait at all. */
  public boolean enabled() {
    return initialSeconds > 0;
  }

  /**
   * The wait after the task's {@code failures}-th failure of its own (1 for the first): {@code
   * min(initial × 2^(failures−1), max)}; 0 when disabled or {@code failures} &lt; 1.
   */
  public double delay(int failures) {
    if (!enabled() || failures < 1) {
      return 0;
    }
    // 2^1023 is the largest finite power; the cap is reached long before
    double d = initialSeconds * Math.pow(MULTIPLIER, Math.min(failures - 1, 1023));
    return Math.min(d, maxSeconds);
  }
}
