package io.locus.operators;

/**
 * Why a pool's queued tasks cannot be placed at all, as an operator reads it in the {@code
 * pendingReason} of the scheduler's metrics and in {@code locus status} (Slurm's and Kueue's
 * "pending reason"). A pool the scheduler does not know refuses nothing when no pools are declared
 * ({@code --pools}): a job for a pool no agent serves (a misspelt name) is accepted and waits,
 * because its agents may still come; this says what it waits for. Tasks that wait only for a busy
 * slot have no reason: that is the normal queue.
 */
final class PendingReason {
  private PendingReason() {}

  /**
   * The reason, or null. {@code queued}: the pool's queue length; {@code nodes}: its registered
   * nodes, {@code draining} of them draining.
   */
  static String of(String pool, long queued, boolean paused, int nodes, int draining) {
    if (queued <= 0) {
      return null;
    }
    if (paused) {
      return "pool " + pool + " is paused (PAUSE_POOL): " + queued
          + " queued task(s) wait for RESUME_POOL";
    }
    if (nodes == 0) {
      return noNodes(pool, queued);
    }
    if (draining >= nodes) {
      return "every node of pool " + pool + " (" + nodes + ") is draining: " + queued
          + " queued task(s) wait for a node to resume or register";
    }
    return null;
  }

  private static String noNodes(String pool, long queued) {
    return "no node registered in pool " + InputGate.shown(pool) + ": " + queued
        + " queued task(s) wait until an agent of this pool registers " + HINT;
  }

  /** What to check when a pool has jobs but no nodes. */
  static final String HINT = "(do the agents name this pool? declare the pools with --pools to "
      + "refuse jobs for any other)";
}
