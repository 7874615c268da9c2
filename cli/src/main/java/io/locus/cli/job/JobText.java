package io.locus.cli.job;

import io.locus.kafka.Topics;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.JobState;
import io.locus.schemas.JobStatus;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** How the job commands write a job's status: one line, a block, or JSON fields. */
final class JobText {
  /** The states after which nothing happens to a job. */
  static final Set<JobState> FINAL = Set.of(JobState.COMPLETED, JobState.FAILED,
      JobState.CANCELLED);

  private JobText() {}

  static String key(JobStatus s) {
    return Topics.jobStatusKey(s.getPool(), s.getJobId());
  }

  /** A time of the record (ms since 1970) as ISO-8601 UTC; "-" for 0 (not yet). */
  static String time(long ms) {
    return ms <= 0 ? "-" : Instant.ofEpochMilli(ms).toString();
  }

  /** {@code pool/job STATE[ (code)][: reason]}, with the attempt and node where there are. */
  static String line(JobStatus s) {
    StringBuilder b = new StringBuilder(key(s)).append(' ').append(s.getState());
    if (s.getPendingCode() != null) {
      b.append(" (").append(s.getPendingCode()).append(')');
    }
    if (s.getAttempt() > 0) {
      b.append(" attempt ").append(s.getAttempt());
    }
    if (s.getNode() != null) {
      b.append(" on ").append(s.getNode());
    }
    if (!s.getReason().isEmpty()) {
      b.append(": ").append(oneLine(s.getReason()));
    }
    return b.toString();
  }

  /** Every field a person asks about, one per line. */
  static String block(JobStatus s) {
    StringBuilder b = new StringBuilder();
    b.append("job ").append(key(s)).append(": ").append(s.getState()).append('\n');
    row(b, "reason", s.getReason().isEmpty() ? "-" : oneLine(s.getReason()));
    if (s.getPendingCode() != null) {
      row(b, "pending", s.getPendingCode());
    }
    row(b, "attempt", Integer.toString(s.getAttempt()));
    row(b, "node", s.getNode() == null ? "-" : s.getNode());
    row(b, "priority", Integer.toString(s.getPriority()));
    row(b, "tasks", s.getTasksDone() + " of " + s.getTasks() + " done");
    if (s.getWorkflow() != null) {
      row(b, "workflow", s.getWorkflow());
    }
    row(b, "submitted", time(s.getSubmitTimeMs()));
    row(b, "started", time(s.getStartTimeMs()));
    row(b, "ended", time(s.getEndTimeMs()));
    row(b, "as of", time(s.getTimeMs()) + " (the pool's clock), scheduler epoch "
        + s.getEpoch());
    return b.toString();
  }

  private static void row(StringBuilder b, String name, String value) {
    b.append(String.format("  %-10s %s%n", name + ":", value));
  }

  /** The status as JSON fields (null where the record has none). */
  static Map<String, Object> json(JobStatus s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("pool", s.getPool());
    m.put("jobId", s.getJobId());
    m.put("state", s.getState().name());
    m.put("reason", s.getReason());
    m.put("pendingCode", s.getPendingCode());
    m.put("attempt", s.getAttempt());
    m.put("node", s.getNode());
    m.put("tasks", s.getTasks());
    m.put("tasksDone", s.getTasksDone());
    m.put("priority", s.getPriority());
    m.put("workflow", s.getWorkflow());
    m.put("submitTimeMs", s.getSubmitTimeMs());
    m.put("startTimeMs", s.getStartTimeMs());
    m.put("endTimeMs", s.getEndTimeMs());
    m.put("timeMs", s.getTimeMs());
    m.put("requestId", s.getRequestId());
    m.put("epoch", s.getEpoch());
    return m;
  }

  /** A dead letter as the reason a record was refused. */
  static String refusal(DeadLetter d) {
    return "dead letter " + d.getCode() + ": " + oneLine(d.getReason().toString());
  }

  private static String oneLine(String text) {
    return text.strip().replace('\n', ' ');
  }
}
