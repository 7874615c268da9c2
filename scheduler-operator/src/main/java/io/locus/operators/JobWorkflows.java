package io.locus.operators;

import io.locus.schemas.JobState;
import io.locus.schemas.JobStatus;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.state.MapState;

/**
 * Every job-status record of a workflow's job names its workflow, not only the QUEUED one the
 * arrival carries it on: the workflow runner (module workflows) keys its input by workflow, so a
 * COMPLETED or FAILED without it would never reach the DAG waiting for it. The core's tasks do
 * not carry the workflow, so the operator remembers it per job here, in keyed state {@code
 * job-workflow} (job id → workflow id, the current key is the pool), from the job's first status
 * to its final one.
 *
 * <p>Cost: a pool that never ran a workflow job reads nothing per status: whether the map may have
 * entries is kept on the heap per pool, and found again from state once after a restore.
 */
final class JobWorkflows {
  private final MapState<String, String> workflows;
  /** Per pool: true when the map may hold entries (heap; asked of the state after a restart). */
  private final Map<String, Boolean> inUse = new HashMap<>();

  JobWorkflows(MapState<String, String> workflows) {
    this.workflows = workflows;
  }

  /** Names the workflow on {@code s} (when its job has one) and forgets it at a final state. */
  void stamp(String pool, JobStatus s) throws Exception {
    String jobId = s.getJobId();
    if (s.getWorkflow() != null) {
      if (!isFinal(s.getState())) {
        workflows.put(jobId, s.getWorkflow());
        inUse.put(pool, true);
      } else {
        workflows.remove(jobId);
      }
      return;
    }
    if (!mayHaveEntries(pool)) {
      return;
    }
    String w = workflows.get(jobId);
    if (w != null) {
      s.setWorkflow(w);
      if (isFinal(s.getState())) {
        workflows.remove(jobId);
      }
    }
  }

  /** The workflow of unfinished job {@code jobId}, or null (finished, unknown, no workflow). */
  String workflowOf(String pool, String jobId) throws Exception {
    return mayHaveEntries(pool) ? workflows.get(jobId) : null;
  }

  private boolean mayHaveEntries(String pool) throws Exception {
    Boolean known = inUse.get(pool);
    if (known == null) {
      known = !workflows.isEmpty();
      inUse.put(pool, known);
    }
    return known;
  }

  static boolean isFinal(JobState state) {
    return state == JobState.COMPLETED || state == JobState.FAILED
        || state == JobState.CANCELLED;
  }
}
