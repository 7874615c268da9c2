package io.locus.operators;

import io.locus.core.model.PendingCode;
import io.locus.core.model.Task;
import io.locus.core.state.NodeView;
import io.locus.schemas.JobState;
import io.locus.schemas.JobStatus;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.state.PoolMeta;
import java.util.Collection;

/**
 * The job-status records (topic job-status, {@link SchedulerOperator#JOB_STATUS}) a pool publishes
 * at each transition of a job: QUEUED on acceptance and whenever an attempt ends and the job waits
 * again, PLACED, RUNNING, and the final COMPLETED, FAILED or CANCELLED. Every time is the pool's
 * record clock ({@link PoolMeta#getClockMs()}) or a time the input record itself carries, never the
 * wall clock, so the replay after a restore publishes the same records for the same transitions.
 * Built only at a transition, from what the driver already holds: no scan of the pool per record.
 */
final class JobStatuses {
  private JobStatuses() {}

  /** A status of {@code jobId} at the pool's clock; the caller sets what the state needs. */
  static JobStatus.Builder of(String pool, PoolMeta meta, String jobId, JobState state) {
    return of(pool, meta.getClockMs(), meta.getEpoch(), jobId, state);
  }

  /** A status at a given clock and epoch: for a pool that has none (an undeclared pool: 0, 0). */
  static JobStatus.Builder of(String pool, long clockMs, long epoch, String jobId,
      JobState state) {
    return JobStatus.newBuilder()
        .setPool(pool)
        .setJobId(jobId)
        .setState(state)
        .setTimeMs(clockMs)
        .setEpoch(epoch);
  }

  /**
   * FAILED of workflow job {@code j} the scheduler refused ({@code code}: an invalid job, an
   * unknown pool, a job id taken by another submission), ended at once: the workflow runner reads
   * nothing but job-status, so this is how it learns the job will never run.
   */
  static JobStatus refused(String pool, long clockMs, long epoch, JobSubmitted j, String code,
      String reason) {
    return ended(of(pool, clockMs, epoch, j.getJobId(), JobState.FAILED)
        .setWorkflow(j.getWorkflow())
        .setReason("refused by the scheduler (" + code + "): " + reason)
        .setPriority(j.getPriority())
        .setSubmitTimeMs(j.getSubmitTimeMs()))
        .build();
  }

  /**
   * FAILED of job {@code j} refused for its queue ({@code unknown-queue}), with the queue it named.
   */
  static JobStatus refusedQueue(String pool, PoolMeta meta, JobSubmitted j, String reason) {
    JobStatus s = refused(pool, meta.getClockMs(), meta.getEpoch(), j,
        io.locus.schemas.codec.DeadLetterCodes.UNKNOWN_QUEUE, reason);
    s.setQueue(j.getQueue());
    return s;
  }

  /** A status of a file task (one task per job), with its attempt, priority and submit time. */
  static JobStatus.Builder of(String pool, PoolMeta meta, Task t, JobState state) {
    return of(pool, meta, t.jobId(), state)
        .setAttempt(t.attempt())
        .setPriority(t.priority())
        .setSubmitTimeMs(Conversions.millis(t.submitTime()))
        .setTasks(1)
        .setTasksDone(state == JobState.COMPLETED ? 1 : 0);
  }

  /** Sets a final state's end time (the pool clock): COMPLETED, FAILED, CANCELLED. */
  static JobStatus.Builder ended(JobStatus.Builder b) {
    return b.setEndTimeMs(b.getTimeMs());
  }

  /** QUEUED of a file task, with why it waits. */
  static JobStatus queued(String pool, PoolMeta meta, Task t, String reason,
      Collection<NodeView> nodes) {
    String code = pendingCode(meta.getPaused(), nodes);
    return of(pool, meta, t, JobState.QUEUED)
        .setReason(reason)
        .setPendingCode(code)
        .build();
  }

  /**
   * The pending code of a job queued now, by a rule at the level of the pool (not the task):
   * paused, no node, every node draining, else waiting for a free slot. One small method on
   * purpose: the per-task reasons of the policies (data waits, priority, fit) replace it.
   * Stops at the first node that is not draining, so it costs O(1) in a working pool.
   */
  static String pendingCode(boolean paused, Collection<NodeView> nodes) {
    if (paused) {
      return PendingCode.PAUSED.code();
    }
    if (nodes.isEmpty()) {
      return PendingCode.NO_NODE.code();
    }
    for (NodeView n : nodes) {
      if (!n.draining()) {
        return PendingCode.NO_FREE_SLOT.code();
      }
    }
    return PendingCode.ALL_DRAINING.code();
  }
}
