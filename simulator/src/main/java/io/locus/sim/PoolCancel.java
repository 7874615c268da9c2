package io.locus.sim;

import io.locus.core.Scheduler;
import io.locus.core.model.Task;
import io.locus.core.state.RunningTask;
import io.locus.sim.exec.Cluster;
import io.locus.sim.exec.TaskRun;

/**
 * A user's cancel of a released job in one pool's state, with the streaming scheduler's meaning:
 * queued, the task leaves the queue and is never placed; placed or running, its attempt stops on
 * the cluster and its slot frees, and it is not retried.
 *
 * <p>Why through {@code applyQueuedTaskCompleted} and {@code applyTaskCompleted} rather than the
 * core's cancel ({@code PoolState.cancelQueued}, {@code cancelPlaced}, which the streaming
 * scheduler uses): the streaming cancel keeps a placed attempt's slot until its node answers,
 * because a real process takes time to die; here the stop is instantaneous, so the slot frees at
 * the cancel time, which is what these two transitions do (the first takes a queued task off the
 * queue and its indexes, the second frees a placed attempt's slot). Both also count a completion
 * in the core's counters, which the simulator never reads (it counts cancels itself).
 */
final class PoolCancel {
  private PoolCancel() {}

  /**
   * @param run the attempt's run on the cluster, or null when it was placed but has not started
   *     (τ_dispatch): nothing runs to stop, and nothing was wasted
   */
  static TaskPlacer.Cancelled cancel(Scheduler scheduler, String taskId, TaskRun run,
      Cluster cluster, double now) {
    Task queued = scheduler.state().queued(taskId);
    if (queued != null) {
      scheduler.applyQueuedTaskCompleted(taskId, queued.attempt(), 0, 0, 0);
      return new TaskPlacer.Cancelled(false, 0.0);
    }
    RunningTask placed = scheduler.state().running(taskId);
    if (placed == null) {
      // the feeder cancels only released jobs that have not ended, which the pool holds
      throw new IllegalStateException("cancel of " + taskId + ": neither queued nor placed");
    }
    if (run != null) {
      cluster.cancel(run, now);
    }
    scheduler.applyTaskCompleted(taskId, placed.task().attempt(), placed.node(), 0, 0, 0);
    return new TaskPlacer.Cancelled(true, run == null ? 0.0 : now - run.startTime());
  }
}
