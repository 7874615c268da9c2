package io.locus.core.model;

import java.util.List;

/**
 * A unit of placement: a whole non-splittable job, or a part of one. {@code seq} is the pool's
 * arrival order and stays with the task across retries, so a retried task keeps its queue position.
 */
public record Task(
    String taskId,
    String jobId,
    int attempt,
    long seq,
    List<DataUnit> inputs,
    double computeSeconds,
    double submitTime,
    String template,
    List<String> args,
    int priority) {

  public Task {
    inputs = List.copyOf(inputs);
    args = args == null ? List.of() : List.copyOf(args);
  }

  public long totalBytes() {
    long sum = 0;
    for (DataUnit u : inputs) {
      sum += u.bytes();
    }
    return sum;
  }

  /** Compute time of the whole task: the job's own plus every input's. */
  public double totalComputeSeconds() {
    double sum = computeSeconds;
    for (DataUnit u : inputs) {
      sum += u.computeSeconds();
    }
    return sum;
  }

  public Task withAttempt(int newAttempt) {
    return new Task(taskId, jobId, newAttempt, seq, inputs, computeSeconds, submitTime, template,
        args, priority);
  }

  public Task withSeq(long newSeq) {
    return new Task(taskId, jobId, attempt, newSeq, inputs, computeSeconds, submitTime, template,
        args, priority);
  }

  /** Convenience for tests and generators: one task per job, attempt 0. */
  public static Task of(String id, long seq, double submitTime, double compute, DataUnit... inputs) {
    return new Task(id, id, 0, seq, List.of(inputs), compute, submitTime, null, List.of(), 0);
  }
}
