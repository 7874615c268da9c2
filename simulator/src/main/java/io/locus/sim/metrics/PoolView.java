package io.locus.sim.metrics;

/** The gauges sampled every second (spec §6), whoever dispatches. */
public interface PoolView {
  int queueLength();

  int busySlots();

  int registeredSlots();

  int registeredNodes();

  /** Nodes requested from the LRM and not yet registered. */
  int pendingNodes();
}
