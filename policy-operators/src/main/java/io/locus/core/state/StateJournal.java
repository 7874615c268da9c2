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

  default void cacheAdded(String node, String file, long bytes) {}

  default void cacheRemoved(String node, String file) {}
}
