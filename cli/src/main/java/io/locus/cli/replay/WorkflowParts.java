package io.locus.cli.replay;

import io.locus.kafka.Topics;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.WorkflowFailurePolicy;
import io.locus.schemas.WorkflowSubmitted;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * A workflow as the records of topic {@code workflows}: its jobs, in order, cut into parts of at
 * most {@link #PART_BYTES} each (the runner assembles them; a record must stay under Kafka's
 * and the scheduler's 1 MiB), every part repeating the submission's header.
 */
public final class WorkflowParts {
  /** Largest part, encoded: half of the 1 MiB record limit, so a part always fits. */
  public static final int PART_BYTES = 512 * 1024;

  private WorkflowParts() {}

  /**
   * The parts of workflow {@code id}. A job alone larger than a part still gets a part of its
   * own (at most a 1 MiB job record, which the scheduler would refuse anyway).
   */
  public static List<WorkflowSubmitted> of(String id, List<JobSubmitted> jobs,
      WorkflowFailurePolicy onFailure, long submitTimeMs, String requestId, int partBytes) {
    List<List<JobSubmitted>> chunks = new ArrayList<>();
    List<JobSubmitted> chunk = new ArrayList<>();
    long size = header(id, onFailure, submitTimeMs, requestId);
    long empty = size;
    for (JobSubmitted j : jobs) {
      // a job's bytes inside the part: its encoding less the single-object header, plus slack
      long bytes = Topics.JOB_ARRIVALS.value(j).length + 8;
      if (!chunk.isEmpty() && size + bytes > partBytes) {
        chunks.add(chunk);
        chunk = new ArrayList<>();
        size = empty;
      }
      chunk.add(j);
      size += bytes;
    }
    chunks.add(chunk);
    List<WorkflowSubmitted> parts = new ArrayList<>();
    for (int i = 0; i < chunks.size(); i++) {
      parts.add(WorkflowSubmitted.newBuilder().setWorkflowId(id).setPart(i)
          .setParts(chunks.size()).setSubmitTimeMs(submitTimeMs).setOnFailure(onFailure)
          .setJobs(chunks.get(i)).setRequestId(requestId).build());
    }
    return parts;
  }

  private static long header(String id, WorkflowFailurePolicy onFailure, long t, String rid) {
    return Topics.WORKFLOWS.value(WorkflowSubmitted.newBuilder().setWorkflowId(id)
        .setSubmitTimeMs(t).setOnFailure(onFailure).setJobs(List.of()).setRequestId(rid)
        .build()).length + 16;
  }

  /**
   * A workflow id from a trace name: its letters, digits, {@code . _ -} (others become {@code
   * -}), at most 64 of them, then a random UUID, so every replay of the same trace is a new
   * workflow (a workflow id is used once).
   */
  public static String idFor(String traceName) {
    String base = traceName == null ? "" : traceName.replaceAll("[^A-Za-z0-9._-]+", "-")
        .replaceAll("^-+|-+$", "").toLowerCase(Locale.ROOT);
    if (base.length() > 64) {
      base = base.substring(0, 64);
    }
    return (base.isEmpty() ? "workflow" : base) + "-" + UUID.randomUUID();
  }
}
