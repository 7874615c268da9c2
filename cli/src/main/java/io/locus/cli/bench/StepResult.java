package io.locus.cli.bench;

/**
 * One step of a bench configuration: the rate offered, what was published, placed and completed
 * during the step (per second of the step), the arrival → decision-visible latency of the step's
 * jobs, and the backlog (published − placed) at its end.
 *
 * @param unplaced the step's jobs still without a visible PlaceTask when the run ended
 * @param overload for an overload step ({@code --overload}), its factor: offered = factor ×
 *     the sustained rate; 0 for a step of the rising series
 * @param sustainedPerSecond for an overload step, the sustained rate it is a multiple of; else 0
 */
public record StepResult(String label, double offeredPerSecond, double publishedPerSecond,
    double placementsPerSecond, double completionsPerSecond, double p50Ms, double p99Ms,
    double maxMs, long backlogAtEnd, long unplaced, boolean keptUp, double overload,
    double sustainedPerSecond) {

  /** The share of the offered rate placed that counts as keeping up. */
  public static final double KEPT_UP = 0.95;
  /**
   * Issue 25's target for an overload step: placed/s at least this share of the sustained rate
   * (a scheduler offered more than it can place keeps placing at its capacity).
   */
  public static final double HOLDS = 0.90;

  /** A step of the rising series. */
  public StepResult(String label, double offeredPerSecond, double publishedPerSecond,
      double placementsPerSecond, double completionsPerSecond, double p50Ms, double p99Ms,
      double maxMs, long backlogAtEnd, long unplaced, boolean keptUp) {
    this(label, offeredPerSecond, publishedPerSecond, placementsPerSecond, completionsPerSecond,
        p50Ms, p99Ms, maxMs, backlogAtEnd, unplaced, keptUp, 0, 0);
  }

  public boolean isOverload() {
    return overload > 0;
  }

  /** An overload step's placed/s as a percentage of the sustained rate; NaN for other steps. */
  public double percentOfSustained() {
    return isOverload() && sustainedPerSecond > 0
        ? 100 * placementsPerSecond / sustainedPerSecond : Double.NaN;
  }

  /** Whether an overload step placed at least {@link #HOLDS} of the sustained rate. */
  public boolean holds() {
    return isOverload() && placementsPerSecond >= HOLDS * sustainedPerSecond;
  }

  /** The value at quantile q of ascending samples (nearest rank), in ms; NaN if none. */
  static double quantileMs(long[] sortedNanos, double q) {
    if (sortedNanos.length == 0) {
      return Double.NaN;
    }
    int rank = (int) Math.ceil(q * sortedNanos.length);
    int i = Math.min(sortedNanos.length - 1, Math.max(0, rank - 1));
    return sortedNanos[i] / 1e6;
  }
}
