package io.locus.core.policy;

import io.locus.core.model.Task;
import io.locus.core.state.PoolState;

/**
 * What a file policy adds to the pending reasons of its pool ({@link PendingExplainer}): the two
 * reasons only the policy knows, a resource profile no node can take and a wait for the task's
 * data. A policy that does not implement it never holds a task for its data and reads no resource
 * profile (FA, FCA, MCU): its queued tasks wait for a slot or behind higher priority.
 */
public interface ExplainsPending {
  /**
   * The policy's view of the pool for one explanation pass: what it decides per pool (GCC's mode,
   * EFT's cache model) is decided once here, so a pass over the queue costs about the queued
   * tasks' holders, never the queue times the nodes.
   *
   * <p>Read-only: it must not build the dispatch index or the staging state (a metrics tick must
   * not change what the next dispatch decides).
   */
  Waits waits(PoolState s, double now);

  /** Per-task questions, asked in queue order within one pass. */
  interface Waits {
    /** Whether no registered node could ever take {@code t} under this policy (its profile). */
    default boolean fitsNoNode(Task t) {
      return false;
    }

    /**
     * The data wait that holds {@code t} (at queue position {@code position}, 0 = head), or null
     * when the policy would not hold it for its data. Asked only while some node can take a
     * placement ({@link PoolState#firstFree()} is not null): with every slot busy the task waits
     * for a slot whatever its data.
     */
    default DataWait dataWait(Task t, int position) {
      return null;
    }
  }

  /** No policy-specific reason: the view of FA, FCA and MCU. */
  Waits NONE = new Waits() {};
}
