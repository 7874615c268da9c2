package io.locus.core.split;

/**
 * A finished job as the policy saw it, for the metrics of spec §6.1.
 *
 * @param arrival submission time
 * @param released when the policy first considered it: the end of its period (delayed policies) or
 *     its arrival
 * @param firstStart dispatch of its first subjob
 * @param end end of its last subjob
 * @param localEvents events read from the processing node's cache
 * @param remoteEvents events read from another node's cache (replication variant)
 * @param tapeEvents events read from tertiary storage
 * @param priority it ran at least one starvation-priority subjob
 * @param replicated its processing triggered at least one third-remote-access replication
 * @param subjobs subjobs that processed at least one of its events
 */
public record JobOutcome(String jobId, EventSpan events, double arrival, double released,
    double firstStart, double end, long localEvents, long remoteEvents, long tapeEvents,
    boolean priority, boolean replicated, int subjobs) {

  public long eventCount() {
    return events.length();
  }

  /** W_incl: submission to first start. */
  public double waitingIncl() {
    return firstStart - arrival;
  }

  /** W_excl: end of the arrival period to first start (= W_incl without periods). */
  public double waitingExcl() {
    return firstStart - released;
  }

  public double processing() {
    return end - firstStart;
  }

  /** Response = waiting + processing, including any period delay. */
  public double response() {
    return end - arrival;
  }

  /** Job speedup (D23): N_J · 0.8 s / processing time. */
  public double speedup() {
    return eventCount() * EventCosts.FARM_REFERENCE / processing();
  }
}
