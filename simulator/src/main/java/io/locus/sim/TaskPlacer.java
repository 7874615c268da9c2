package io.locus.sim;

import io.locus.core.model.Task;
import io.locus.sim.exec.Executor;
import io.locus.sim.exec.TaskRun;
import io.locus.sim.metrics.PoolView;
import java.util.List;
import java.util.Map;

/**
 * Who decides where tasks run in a {@link Simulation}: the policy core through its Scheduler (SRP and
 * DRP, {@link SchedulerPlacer}), or the LRM-per-task baseline ({@link PerTaskPlacer}). The
 * simulation owns time, the cluster and the metrics; a placer reacts to what happens and places
 * tasks.
 */
interface TaskPlacer extends PoolView {
  /** Registers the initial nodes and schedules polls, at t = 0. */
  void setup(double now);

  /** A job was released: it joins the wait queue. */
  void released(Task task, double now);

  /** Every event of time {@code now} has been applied: dispatch once. */
  void afterBatch(double now);

  void cacheChanged(Executor node, long seq, Map<String, Long> added, List<String> removed,
      double now);

  /** An attempt finished its reads, compute and delivery. */
  void taskDone(TaskRun run, double now);

  /**
   * What a cancel did: whether the job had a placed attempt (else it was queued), and the
   * slot-seconds that attempt had run (its partial work, wasted).
   */
  record Cancelled(boolean placed, double wastedSlotSeconds) {}

  /**
   * The user cancels released job {@code taskId}, which has not ended: queued, it leaves the queue
   * and is never placed; placed or running, its attempt stops and its slot frees, with no retry.
   * The caller ends the job.
   */
  Cancelled cancel(String taskId, double now);

  /** Nodes given back so far. */
  long releases();

  long retries();

  long timeouts();

  long injectedFailures();
}
