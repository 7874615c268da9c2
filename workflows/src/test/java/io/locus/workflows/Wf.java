package io.locus.workflows;

import io.locus.kafka.Topics;
import io.locus.schemas.DataUnit;
import io.locus.schemas.JobState;
import io.locus.schemas.JobStatus;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.WorkflowFailurePolicy;
import io.locus.schemas.WorkflowSubmitted;
import io.locus.schemas.internal.RawRecord;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Records for the workflow tests. */
final class Wf {
  static final String POOL = "batch";

  private Wf() {}

  /** A valid job of {@link #POOL} with these parents. */
  static JobSubmitted job(String id, String... parents) {
    return JobSubmitted.newBuilder().setJobId(id).setPool(POOL).setSubmitTimeMs(100)
        .setInputs(List.of(DataUnit.newBuilder().setId("in/" + id).setBytes(1000).build()))
        .setParents(List.of(parents)).build();
  }

  static WorkflowSubmitted workflow(String id, WorkflowFailurePolicy onFailure,
      JobSubmitted... jobs) {
    return part(id, 0, 1, onFailure, jobs);
  }

  static WorkflowSubmitted part(String id, int part, int parts,
      WorkflowFailurePolicy onFailure, JobSubmitted... jobs) {
    return WorkflowSubmitted.newBuilder().setWorkflowId(id).setPart(part).setParts(parts)
        .setSubmitTimeMs(1000).setOnFailure(onFailure).setJobs(List.of(jobs))
        .setRequestId("req-" + id).build();
  }

  static JobStatus status(String workflow, String job, JobState state, long timeMs,
      String reason) {
    return JobStatus.newBuilder().setPool(POOL).setJobId(job).setWorkflow(workflow)
        .setState(state).setReason(reason).setTimeMs(timeMs).build();
  }

  /** A record as the keying step passes it on: key = workflow id. */
  static RawRecord raw(WorkflowSubmitted part, long offset) {
    return new RawRecord(Topics.WORKFLOWS.name(), 0, offset, part.getSubmitTimeMs(),
        key(part.getWorkflowId()), ByteBuffer.wrap(Topics.WORKFLOWS.value(part)));
  }

  static RawRecord raw(JobStatus s, long offset) {
    return new RawRecord(Topics.JOB_STATUS.name(), 0, offset, s.getTimeMs(),
        key(s.getWorkflow()), ByteBuffer.wrap(Topics.JOB_STATUS.value(s)));
  }

  static ByteBuffer key(String k) {
    return ByteBuffer.wrap(k.getBytes(StandardCharsets.UTF_8));
  }
}
