package io.locus.core.policy;

import io.locus.core.model.Task;
import io.locus.core.state.NodeView;
import io.locus.core.state.PoolState;

/**
 * A file policy that can answer, for one queued task at a time, where it would run now: what a
 * pool with queues needs ({@link QueueDispatch}), where fair share picks <i>whose</i> task runs
 * next and the policy only <i>where</i>. Implemented by FA, FCA, MCU, MCH, GCC and EFT on agent
 * caches; the Khanna family (mapping on arrival, Gantt staging) and split pools decide for the
 * whole queue at once and keep their own order with queues (docs/policies.md, "Sharing a pool").
 */
public interface ChoosesPerTask {
  /**
   * The policy's per-task view of the pool for one decision, or null when it cannot choose per
   * task in this state (EFT on scheduler-staged caches): then the pool dispatches as without
   * queues. Asked only while some node can take a placement ({@link PoolState#firstFree}).
   */
  TaskChooser chooser(PoolState s, double now);

  /** One decision's per-task answers. */
  interface TaskChooser {
    /** Where {@code t} would run now: a node, or a wait for a better one. Read-only. */
    Choice choose(Task t);

    /**
     * The best node that can take {@code t} now, once its wait is over (the locality wait spent):
     * the free node holding the most of its bytes, else the first free node.
     */
    NodeView now(Task t);

    /** The label of a placement ({@code MCH}), and whether executors cache what they read. */
    String label();

    boolean caching();
  }

  /**
   * A node {@code t} goes to now ({@code dataWait} null), or the wait the policy would hold it for:
   * {@code dataWait} names the node and {@code policyWaitSeconds} how long the policy itself would
   * wait ({@link Double#POSITIVE_INFINITY} for MCH's unbounded wait, spec D6).
   */
  record Choice(NodeView node, DataWait dataWait, double policyWaitSeconds) {
    static Choice go(NodeView n) {
      return new Choice(n, null, 0);
    }

    static Choice hold(DataWait w, double seconds) {
      return new Choice(null, w, seconds);
    }
  }
}
