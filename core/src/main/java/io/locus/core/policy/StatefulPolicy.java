package io.locus.core.policy;

/**
 * A policy that remembers something small between dispatches beyond the pool state (e.g. a
 * round-robin pointer). Drivers that restart from durable state save {@link #memory()} after every
 * event and hand it back with {@link #restoreMemory} before the first dispatch after a restore, so
 * a restore changes no decision. A driver that never restarts (the simulator) can ignore it.
 */
public interface StatefulPolicy extends Policy {
  /** The policy's memory as text; null when it has none yet. */
  String memory();

  /**
   * Restores a saved memory.
   *
   * @throws IllegalArgumentException if the text is not a memory of this policy
   */
  void restoreMemory(String memory);
}
