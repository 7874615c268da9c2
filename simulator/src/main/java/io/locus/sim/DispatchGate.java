package io.locus.sim;

import io.locus.core.policy.GoodCacheCompute;
import io.locus.core.policy.MaxCacheHit;
import io.locus.core.policy.Policy;
import io.locus.core.state.PoolState;

/**
 * Skips dispatches that cannot decide anything, without changing a single decision.
 *
 * <p>Why: MCH, and GCC at or above θ, may end a dispatch with tasks waiting and executors free,
 * every window task's best holder being busy (spec D6). The next dispatch looks for the same tasks
 * again (with the core's queue index, about one look-up per free executor), and at MI and SW scale
 * that happens hundreds of thousands of times. The gate keeps that state ("blocked") and lets a
 * dispatch through only after an event that can unblock it:
 *
 * <ul>
 *   <li>a task arriving inside the window (beyond it, the window is unchanged);
 *   <li>a completion on an executor that was not free (a free one stays in the free pool at the same
 *       place, so the scan finds the same nothing);
 *   <li>a cache addition on a free executor, or any removal (a busy holder becoming a best holder
 *       changes nothing; a removal can lower maxCached and make a free executor a best holder);
 *   <li>GCC only: utilisation falling below θ (the next decision would be MCU, which always places);
 *   <li>anything else (registration under MCH is harmless, see {@link #registered}), conservatively.
 * </ul>
 *
 * FA, FCA and MCU never end blocked, so the gate never holds them back. The reasoning follows the
 * core's DataAwareDispatch; {@code SimulationTest} checks that gated and ungated runs decide
 * identically, so a change in the core that breaks it fails the build.
 */
final class DispatchGate {
  private final boolean enabled;
  private final boolean gcc;
  private final double theta;
  private final int window;
  private boolean blocked;
  private boolean dirty = true;
  private long skipped;

  /**
   * @param policy the run's policy: the gate knows the rules of MCH and GCC (by class, not by a
   *     list of names, so it follows the registry's spellings and aliases)
   */
  DispatchGate(SimulationConfig cfg, Policy policy) {
    // with queues the dispatch is fair share's (QueueDispatch): a completion on a free node, an
    // arrival past the window or time passing (a locality wait running out) can place a task, so
    // the gate's proofs do not hold and it stays open
    this.enabled = cfg.dispatchGate()
        && (cfg.queues() == null || !cfg.queues().enforce())
        && (policy instanceof MaxCacheHit || policy instanceof GoodCacheCompute);
    this.gcc = policy instanceof GoodCacheCompute;
    this.theta = cfg.theta();
    this.window = cfg.window();
  }

  /** Whether the coming dispatch may decide something. */
  boolean open() {
    if (!enabled || dirty || !blocked) {
      return true;
    }
    skipped++;
    return false;
  }

  void dispatched(PoolState s) {
    blocked = s.queueLength() > 0 && s.firstFree() != null;
    dirty = false;
  }

  long skipped() {
    return skipped;
  }

  void arrived(int queueLengthBefore) {
    if (queueLengthBefore < window) {
      dirty = true;
    }
  }

  /** @param nodeWasFree the executor had a free slot before the completion was applied */
  void completed(boolean nodeWasFree, PoolState after) {
    if (!nodeWasFree || mayTurnMcu(after)) {
      dirty = true;
    }
  }

  void cacheChanged(boolean nodeFree, boolean removed) {
    if (nodeFree || removed) {
      dirty = true;
    }
  }

  /** An empty new executor cannot be a best holder of a task some executor caches. */
  void registered(PoolState after) {
    if (mayTurnMcu(after)) {
      dirty = true;
    }
  }

  void changed() {
    dirty = true;
  }

  private boolean mayTurnMcu(PoolState s) {
    return gcc && s.utilization() < theta;
  }
}
