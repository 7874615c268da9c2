package io.locus.cli.replay;

import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What the replay knows about its own jobs: when each was submitted, and from task-events which
 * completed (first COMPLETED of the job's task, taskId = jobId), which failed, and the bytes they
 * read by source. Events of other pools, or of jobs it did not submit, are ignored; a repeated
 * completion counts once. Not thread-safe: the {@link Replayer}'s loop feeds it.
 */
public final class RunStats {
  private record Submitted(String pool, long timeMs) {}

  private final Map<String, Submitted> submitted = new HashMap<>();
  private final Set<String> completed = new HashSet<>();
  private final Set<String> failed = new HashSet<>();
  private long bytesLocal;
  private long bytesPeer;
  private long bytesStorage;
  private double responseSecondsSum;
  private long firstSubmitMs = Long.MAX_VALUE;
  private long lastCompletionMs = Long.MIN_VALUE;

  /** {@code jobId} was published to {@code pool} at {@code timeMs} (its submitTimeMs). */
  public void submitted(String jobId, String pool, long timeMs) {
    submitted.put(jobId, new Submitted(pool, timeMs));
    firstSubmitMs = Math.min(firstSubmitMs, timeMs);
  }

  /**
   * A workflow's job was released by the scheduler job at {@code timeMs}: its response counts
   * from there, not from the workflow's submission (unless it already completed).
   */
  public void released(String jobId, long timeMs) {
    Submitted s = submitted.get(jobId);
    if (s != null && !completed.contains(jobId) && timeMs > s.timeMs()) {
      submitted.put(jobId, new Submitted(s.pool(), timeMs));
    }
  }

  /** Whether {@code jobId} of {@code pool} is one of this replay's jobs. */
  public boolean isSubmitted(String jobId, String pool) {
    Submitted s = submitted.get(jobId);
    return s != null && s.pool().equals(pool);
  }

  /** Forgets a job whose record was not accepted by Kafka: it will never run. */
  public void unpublished(String jobId) {
    submitted.remove(jobId);
  }

  /** Applies a task event; true when it is the first completion of one of this replay's jobs. */
  public boolean apply(TaskEvent e) {
    String id = e.getTaskId();
    Submitted s = submitted.get(id);
    if (s == null || !s.pool().equals(e.getPool())) {
      return false;
    }
    if (e.getType() == TaskEventType.FAILED) {
      failed.add(id);
      return false;
    }
    if (e.getType() != TaskEventType.COMPLETED || !completed.add(id)) {
      return false;
    }
    failed.remove(id); // a later attempt made it
    bytesLocal += e.getBytesLocal();
    bytesPeer += e.getBytesPeer();
    bytesStorage += e.getBytesStorage();
    long end = e.getEndTimeMs() > 0 ? e.getEndTimeMs() : e.getTimeMs();
    responseSecondsSum += Math.max(0, end - s.timeMs()) / 1000.0;
    lastCompletionMs = Math.max(lastCompletionMs, end);
    return true;
  }

  public long submittedCount() {
    return submitted.size();
  }

  public long completedCount() {
    return completed.size();
  }

  /** Jobs with a FAILED attempt and no completion (yet). */
  public long failedCount() {
    return failed.size();
  }

  public boolean isCompleted(String jobId) {
    return completed.contains(jobId);
  }

  /**
   * The summary.
   *
   * @param workload the workload's name
   * @param total jobs in the workload (or the limit)
   * @param publishFailed records Kafka did not accept
   */
  public Summary summary(String workload, long total, long publishFailed) {
    double makespan = completed.isEmpty() || firstSubmitMs == Long.MAX_VALUE ? 0
        : Math.max(0, lastCompletionMs - firstSubmitMs) / 1000.0;
    double meanResponse = completed.isEmpty() ? 0 : responseSecondsSum / completed.size();
    return new Summary(workload, total, submitted.size(), publishFailed, completed.size(),
        failed.size(), makespan, meanResponse, bytesLocal, bytesPeer, bytesStorage);
  }
}
