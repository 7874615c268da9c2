package io.locus.core.model;

import java.util.List;

/**
 * A unit of placement: a whole non-splittable job, or a part of one. {@code seq} is the pool's
 * arrival order and stays with the task across retries, so a retried task keeps its queue position.
 * {@code profile} is the job's resource demand as shares of one node (hybrid spec §1.1, D1), or
 * null when the job has none yet (policies that need one use the §2.8 cold start).
 * {@code outputs} are the files the task creates (a workflow task's outputs): policies ignore them;
 * they travel to the agent that runs the task, which caches and reports them, so the task's
 * dependents can then be placed where they are.
 * {@code priority} orders the pool's queue before {@code seq} ({@link Priority}: higher first,
 * {@link #queueRank()}); it is in [{@link Priority#MIN}, {@link Priority#MAX}].
 * {@code queue} is the pool queue the job was submitted to ({@code io.locus.core.share.QueueTree}),
 * or null for the pool's default queue. It is the last component so that every constructor that
 * predates queues keeps its meaning (they all give null): a pool without queues never reads it.
 */
public record Task(
    String taskId,
    String jobId,
    int attempt,
    long seq,
    List<InputFile> inputs,
    double computeSeconds,
    double submitTime,
    String template,
    List<String> args,
    int priority,
    ResourceVector profile,
    List<InputFile> outputs,
    String queue) {

  public Task {
    inputs = List.copyOf(inputs);
    args = args == null ? List.of() : List.copyOf(args);
    outputs = outputs == null ? List.of() : List.copyOf(outputs);
  }

  /** A task in the pool's default queue. */
  public Task(String taskId, String jobId, int attempt, long seq, List<InputFile> inputs,
      double computeSeconds, double submitTime, String template, List<String> args, int priority,
      ResourceVector profile, List<InputFile> outputs) {
    this(taskId, jobId, attempt, seq, inputs, computeSeconds, submitTime, template, args, priority,
        profile, outputs, null);
  }

  /** A task without outputs. */
  public Task(String taskId, String jobId, int attempt, long seq, List<InputFile> inputs,
      double computeSeconds, double submitTime, String template, List<String> args, int priority,
      ResourceVector profile) {
    this(taskId, jobId, attempt, seq, inputs, computeSeconds, submitTime, template, args, priority,
        profile, List.of());
  }

  /** A task without a resource profile. */
  public Task(String taskId, String jobId, int attempt, long seq, List<InputFile> inputs,
      double computeSeconds, double submitTime, String template, List<String> args, int priority) {
    this(taskId, jobId, attempt, seq, inputs, computeSeconds, submitTime, template, args, priority,
        null);
  }

  /** The task's place in its pool's queue: priority first, then seq ({@link Priority#rank}). */
  public long queueRank() {
    return Priority.rank(priority, seq);
  }

  public long totalBytes() {
    long sum = 0;
    for (InputFile u : inputs) {
      sum += u.bytes();
    }
    return sum;
  }

  /** Compute time of the whole task: the job's own plus every input's. */
  public double totalComputeSeconds() {
    double sum = computeSeconds;
    for (InputFile u : inputs) {
      sum += u.computeSeconds();
    }
    return sum;
  }

  public Task withAttempt(int newAttempt) {
    return new Task(taskId, jobId, newAttempt, seq, inputs, computeSeconds, submitTime, template,
        args, priority, profile, outputs, queue);
  }

  public Task withSeq(long newSeq) {
    return new Task(taskId, jobId, attempt, newSeq, inputs, computeSeconds, submitTime, template,
        args, priority, profile, outputs, queue);
  }

  public Task withProfile(ResourceVector newProfile) {
    return new Task(taskId, jobId, attempt, seq, inputs, computeSeconds, submitTime, template,
        args, priority, newProfile, outputs, queue);
  }

  public Task withOutputs(List<InputFile> newOutputs) {
    return new Task(taskId, jobId, attempt, seq, inputs, computeSeconds, submitTime, template,
        args, priority, profile, newOutputs, queue);
  }

  /** The same task in queue {@code newQueue} (null: the pool's default queue). */
  public Task withQueue(String newQueue) {
    return new Task(taskId, jobId, attempt, seq, inputs, computeSeconds, submitTime, template,
        args, priority, profile, outputs, newQueue);
  }

  /** Convenience for tests and generators: one task per job, attempt 0. */
  public static Task of(String id, long seq, double submitTime, double compute, InputFile... inputs) {
    return new Task(id, id, 0, seq, List.of(inputs), compute, submitTime, null, List.of(), 0);
  }
}
