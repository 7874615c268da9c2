package io.locus.cli.bench;

/**
 * One step of a bench configuration: the rate offered, what was published, placed and completed
 * during the step (per second of the step), the arrival → decision-visible latency of the step's
 * jobs, and the backlog (published − placed) at its end.
 *
 * @param unplaced the step's jobs still without a visible PlaceTask when the run ended
 */
public record StepResult(String label, double offeredPerSecond, double publishedPerSecond,
    double placementsPerSecond, double completionsPerSecond, double p50Ms, double p99Ms,
    double maxMs, long backlogAtEnd, long unplaced, boolean keptUp) {

  /** The share of the offered rate placed that counts as keeping up. */
  public static final double KEPT_UP = 0.95;

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
