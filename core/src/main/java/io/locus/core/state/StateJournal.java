package io.locus.core.state;

import io.locus.core.model.Task;

/**
 * Hears every mutation of a {@link PoolState}, so a driver can write it through to durable state
 * (the Flink operator writes to keyed state; the simulator ignores it). Each call concerns one
 * entry, so the cost per decision is proportional to the task's inputs, not to the pool.
 */
public interface StateJournal {
  StateJournal NONE = new StateJournal() {};

  default void nodeUpdated(NodeView node) {}

  default void nodeRemoved(String node) {}

  /** A task entered the queue, or started running ({@code running} non-null). */
  default void taskUpdated(Task task, RunningTask running) {}

  default void taskRemoved(String taskId) {}

  /** The task's attempts not caused by its own failures; 0 when the entry is gone. */
  default void taskSpared(String taskId, int spared) {}

  /**
   * The task's next attempt waits out its retry backoff until {@code until} (record clock,
   * seconds; its queued form was written by {@link #taskUpdated}); NaN: it no longer waits.
   */
  default void taskParked(String taskId, double until) {}

  /** The task's placed attempt was cancelled ({@code PoolState#isCancelling}); -1: mark gone. */
  default void taskCancelling(String taskId, int attempt) {}

  /** The task's placed attempt is being preempted ({@code PoolState#isPreempting}); -1: mark gone. */
  default void taskPreempting(String taskId, int attempt) {}

  /**
   * The leaf queue's cumulative preempted count is now {@code count} (history: the rest of the
   * pool's queue book is derived from its tasks on restore, this is not).
   */
  default void queuePreempted(String leaf, long count) {}

  default void cacheAdded(String node, String file, long bytes) {}

  default void cacheRemoved(String node, String file) {}

  // -- Khanna-family staging state (StagingState); each call is one entry, keyed as named

  /** (node, file) in the scheduler-managed cache: size, IN_FLIGHT or PRESENT, lastUse. */
  default void stagedFileUpdated(String node, String file, long bytes, boolean inFlight,
      double lastUse) {}

  default void stagedFileRemoved(String node, String file) {}

  /**
   * (node, file): the leaf queue charged with a staged file (only with a queue tree; see
   * CacheQuota). Written after its stagedFileUpdated; gone with its stagedFileRemoved.
   */
  default void stagedFileCharged(String node, String file, String queue) {}

  /** (file): pool-wide AccessFreq and NumCopies. */
  default void fileStatsUpdated(String file, long accessFreq, int numCopies) {}

  /** (storage node, start): a reserved transfer [start, end) on the Gantt chart. */
  default void ganttReserved(int storageNode, double start, double end) {}

  default void ganttDropped(int storageNode, double start) {}

  /** (task): the node a pending task is mapped to; null when the mapping ends (start, node loss). */
  default void taskMapped(String taskId, String node) {}

  /** (node): the running job and its planned completion; taskId null when the node is idle. */
  default void nodeStageUpdated(String node, String taskId, double plannedCompletion) {}

  /** (node, file): JDPDLL reference counter; 0 means the entry is gone. */
  default void refCountUpdated(String node, String file, int count) {}

  /** (pool): a policy's persistent mode (SA: MCT or MET). */
  default void policyModeUpdated(String mode) {}
}
