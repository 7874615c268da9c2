package io.locus.operators;

import io.locus.core.Scheduler;
import io.locus.core.model.PendingCode;
import io.locus.core.policy.Pending;
import io.locus.core.policy.PendingExplainer;
import io.locus.core.split.SplitPolicy;
import io.locus.schemas.state.PoolMeta;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Why a pool's queued tasks are not placed (issue 23, docs/policies.md "Pending reasons"), in two
 * forms:
 * <ul>
 *   <li>per task, a {@link PendingCode} and a text from the policy core ({@link
 *       PendingExplainer} for file pools, {@link SplitPolicy#pending()} for split pools), counted
 *       per code into the metrics' {@code pendingByCode} on the metrics timer ({@link #counts});
 *       {@link #forTask} answers for one queued task (job status);</li>
 *   <li>the pool-wide reason as an operator reads it in the {@code pendingReason} of the
 *       scheduler's metrics and in {@code locus status} (Slurm's and Kueue's "pending reason"),
 *       {@link #of}: a pool the scheduler does not know refuses nothing when no pools are declared
 *       ({@code --pools}): a job for a pool no agent serves (a misspelt name) is accepted and
 *       waits, because its agents may still come; this says what it waits for. Tasks that wait for
 *       a busy slot or their data have no pool-wide reason: their codes say why.</li>
 * </ul>
 */
final class PendingReason {
  private PendingReason() {}

  /**
   * The pool-wide code every queued task gets (paused, no-node, all-draining, in that order), or
   * null when none applies.
   */
  static PendingCode poolWide(boolean paused, int nodes, int draining) {
    if (paused) {
      return PendingCode.PAUSED;
    }
    if (nodes == 0) {
      return PendingCode.NO_NODE;
    }
    return draining >= nodes ? PendingCode.ALL_DRAINING : null;
  }

  /** The counts of a summary as the metrics record carries them (code → tasks). */
  static Map<String, Long> counts(PendingExplainer.Summary s) {
    Map<String, Long> out = new LinkedHashMap<>();
    s.counts().forEach((c, n) -> out.put(c.code(), (long) n));
    return out;
  }

  /**
   * A file pool's counts per code on the metrics timer: one pass over the queue, bounded as
   * {@link PendingExplainer} says (never per record).
   */
  static Map<String, Long> fileCounts(Scheduler scheduler, PoolMeta meta) {
    return counts(PendingExplainer.explainQueue(scheduler.state(), scheduler.policy(),
        meta.getPaused(), Conversions.seconds(meta.getClockMs())));
  }

  /** {@link #fileCounts}, also handing {@code refresh} the reasons it wants (same pass). */
  static Map<String, Long> fileCounts(Scheduler scheduler, PoolMeta meta,
      PendingExplainer.Refresh refresh) {
    return counts(PendingExplainer.explainQueue(scheduler.state(), scheduler.policy(),
        meta.getPaused(), Conversions.seconds(meta.getClockMs()), refresh));
  }

  /**
   * One queued task's code and text in a file pool, at the pool's record clock; null when the
   * task is not queued. Costs at most {@link PendingExplainer#EXACT_LIMIT} queue steps plus the
   * task's holders, so a driver may call it when it publishes a task's QUEUED status.
   */
  static Pending forTask(Scheduler scheduler, PoolMeta meta, String taskId) {
    return PendingExplainer.explain(scheduler.state(), scheduler.policy(), meta.getPaused(),
        taskId, Conversions.seconds(meta.getClockMs()));
  }

  /**
   * One queued unit's code and text in a split pool (a queued subjob by its id, or a job with no
   * subjob yet by the job id); null when it is not queued.
   */
  static Pending forTask(SplitPolicy core, String id) {
    return core.pending(id);
  }

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
