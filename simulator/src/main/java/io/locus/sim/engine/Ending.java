package io.locus.sim.engine;

/** How a run of the {@link Engine} ended. */
public enum Ending {
  /** The model said it was done ({@link Model#finished()}). */
  FINISHED,
  /** The model stopped the run before it was done ({@link Engine#stop()}): a cut run. */
  STOPPED,
  /** Nothing was left to happen, yet the model was not done. */
  EXHAUSTED,
  /** The next event lay beyond the horizon. */
  HORIZON,
  /** Only background events were left, and they had not moved anything for the stall limit. */
  STALLED
}
