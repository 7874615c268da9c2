package io.locus.sim.provision;

import java.util.List;

/**
 * The batch resource manager (LRM) model of data-diffusion spec §2.4.
 *
 * @param capacity nodes the LRM has (Integer.MAX_VALUE = unbounded, the default)
 * @param submitIntervalSeconds requests are processed FIFO, one per this interval (0.5 requests/s)
 * @param minLatencySeconds lower bound of the U[min, max] allocation latency drawn per request
 * @param maxLatencySeconds upper bound of that latency
 * @param externallyBusy nodes other users hold, each entry busy until its time (P1 scenarios)
 */
public record LrmConfig(
    int capacity,
    double submitIntervalSeconds,
    double minLatencySeconds,
    double maxLatencySeconds,
    List<Busy> externallyBusy) {

  /** {@code nodes} nodes held by someone else until {@code untilSeconds}. */
  public record Busy(int nodes, double untilSeconds) {}

  public static final double DEFAULT_SUBMIT_INTERVAL = 2.0;
  public static final double DEFAULT_MIN_LATENCY = 30.0;
  public static final double DEFAULT_MAX_LATENCY = 60.0;

  public LrmConfig {
    if (capacity < 0 || !(submitIntervalSeconds >= 0) || !(minLatencySeconds >= 0)
        || maxLatencySeconds < minLatencySeconds) {
      throw new IllegalArgumentException("invalid LRM config: capacity " + capacity
          + ", interval " + submitIntervalSeconds + ", latency [" + minLatencySeconds + ", "
          + maxLatencySeconds + "]");
    }
    externallyBusy = externallyBusy == null ? List.of() : List.copyOf(externallyBusy);
  }

  /** Spec defaults: unbounded capacity, 0.5 requests/s, U[30, 60] s. */
  public static LrmConfig defaults() {
    return withCapacity(Integer.MAX_VALUE);
  }

  public static LrmConfig withCapacity(int capacity) {
    return new LrmConfig(capacity, DEFAULT_SUBMIT_INTERVAL, DEFAULT_MIN_LATENCY,
        DEFAULT_MAX_LATENCY, List.of());
  }

  public boolean bounded() {
    return capacity != Integer.MAX_VALUE;
  }
}
