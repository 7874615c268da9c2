package io.locus.operators;

import io.locus.schemas.JobCommand;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.SchedulerMetrics;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.state.PoolMeta;

/**
 * One pool family's translation between the input records and the policy core: {@link
 * FilePoolDriver} for file policies (data diffusion, Online-HPS and its baselines, hybrid), {@link
 * SplitPoolDriver} for split policies (CERN event-range jobs). {@link SchedulerOperator} calls the
 * driver of the key's pool for every input and emits what it returns; it knows no family.
 *
 * <p>{@code meta} is the pool's scalars kept in keyed state (epoch, event clock, decision
 * sequence, counters). The operator has already moved its clock to the input's time; a driver
 * reads the clock from it, never from the wall, and may advance the sequence and the counters.
 * A driver writes its own state through to keyed state ({@link PoolStore}) as it changes; an
 * exception from a state backend fails the task, so Flink restores from the last checkpoint.
 */
public interface PoolDriver {
  /** The canonical name of the policy the pool runs. */
  String policy();

  PoolOutput onJob(JobSubmitted job, PoolMeta meta) throws Exception;

  PoolOutput onTaskEvent(TaskEvent event, PoolMeta meta) throws Exception;

  PoolOutput onNodeReport(NodeReport report, PoolMeta meta) throws Exception;

  /**
   * A user's command about one job (CANCEL; the connectors refuse other types). A queued job
   * leaves the queue; a placed or running job's attempts get a CancelTask to their nodes and keep
   * their slots until the nodes answer; either way the job ends CANCELLED (a status, not a
   * failure, never retried). A job the pool does not hold is refused: {@code job-finished} when
   * it {@code arrived} within the job-id retention window (it completed, failed or was cancelled),
   * else {@code unknown-job}.
   */
  PoolOutput onJobCommand(JobCommand command, boolean arrived, PoolMeta meta) throws Exception;

  /**
   * The node missed its heartbeats for the liveness timeout (on the pool's liveness clock, which
   * only node reports move: {@link InputGate}) and is declared lost: its running and queued work is re-placed, its cache entries leave the index and it leaves
   * the pool. If it comes back, it is asked to resynchronise (ResyncNode) and registers again.
   */
  PoolOutput onNodeLost(String node, PoolMeta meta) throws Exception;

  /**
   * DRAIN_NODE ({@code draining}) or RESUME_NODE. Returns why it cannot be applied, or null when
   * it was.
   */
  String drain(String node, boolean draining);

  /**
   * After a control record: only the clock moved (and, when {@code applied}, the pool changed).
   * Due timers fire; a file pool dispatches if the control was applied and polls its provisioner.
   */
  PoolOutput afterControl(PoolMeta meta, boolean applied) throws Exception;

  /**
   * SET_POLICY was just applied to this driver: the queued (not yet placed) work is to be
   * evaluated afresh by the new policy at its next dispatch. Returns how much queued work that is.
   */
  int reevaluate();

  /** Why the pool cannot be paused (PAUSE_POOL), or null when it can. */
  default String pauseProblem() {
    return null;
  }

  /** Why the pool cannot change its policy family now (unfinished work), or null when idle. */
  String busy();

  /** Fills the pool's metrics (the operator sets pool, time and epoch). */
  void metrics(SchedulerMetrics.Builder metrics, PoolMeta meta);

  /**
   * QUEUED statuses whose pending reason changed, found by the last {@link #metrics} call, to
   * publish on job-status (each once: the call empties them). A split pool publishes none: its
   * statuses are per job, and its reasons per subjob.
   */
  default java.util.List<io.locus.schemas.JobStatus> pendingStatuses() {
    return java.util.List.of();
  }
}
