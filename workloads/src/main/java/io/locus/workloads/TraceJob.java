package io.locus.workloads;

import io.locus.core.share.QueueNames;

import io.locus.core.model.InputFile;
import io.locus.core.model.Priority;
import io.locus.core.split.EventSpan;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One job of a trace: a non-splittable task with its input files.
 *
 * <ul>
 *   <li>{@code pool}: the scheduling pool it is submitted to; null means the consumer's default.
 *   <li>{@code arrival}: submission time in seconds from the start of the workload.
 *   <li>{@code inputs}: the files it reads, in read order. {@link InputFile#location()} names the
 *       data source: {@code "sn-<k>"} is Khanna storage node k; null is the pool's shared file
 *       system (data diffusion).
 *   <li>{@code computeSeconds}: job-level compute after all reads. Per-file compute, where a model
 *       has it (Khanna: C · size), sits in {@link InputFile#computeSeconds()}; the job's total is
 *       {@link #totalComputeSeconds()}, as in the core's {@code Task}.
 *   <li>{@code stage}: 0 = released at {@code arrival}. k ≥ 1 = released when every job of stage
 *       k − 1 has completed (STAGES18; stage 1 is released at once, {@code arrival} is then 0).
 *   <li>{@code attributes}: descriptive tags (cluster id, step index, …). Kept sorted by key, so a
 *       trace written twice is identical byte for byte.
 *   <li>{@code events}: for a splittable job (CERN), the one contiguous event segment [start, end)
 *       it analyses; null for file-based jobs. Such a job has no file inputs; its data is the
 *       events, and {@code computeSeconds} is its CPU time.
 *   <li>{@code parents}: ids of jobs (of the same trace) that must complete before this one is
 *       submitted (a workflow's DAG; WfCommons). Empty: released at {@code arrival} (or by its
 *       stage). With parents, {@code arrival} is the earliest submission time.
 *   <li>{@code outputs}: files the job creates, with their sizes; the node that runs it caches them,
 *       so children that read them can be placed there. Not staged.
 *   <li>{@code template}, {@code args}: the agent's task template to run and its arguments; null
 *       and empty = the agent's default template.
 *   <li>{@code priority}: the job's priority in its pool's queue, in [{@link Priority#MIN},
 *       {@link Priority#MAX}] (higher first; docs/policies.md, "Priority"); null = not set in the
 *       trace, so the consumer's default applies ({@code --priority}, else 0).
 *   <li>{@code cancelAfter}: the job is cancelled this many seconds after its {@code arrival} (a
 *       user's cancel, replayed by the simulator: queued, it leaves the queue; running, its
 *       attempt stops; finished, nothing happens); null = never cancelled.
 *   <li>{@code queue}: the queue (tenant, team) inside its pool that the job is submitted to; null
 *       = the consumer's default queue ({@code --queue}, else the pool's). A name follows
 *       {@link QueueNames}.
 * </ul>
 */
public record TraceJob(
    String jobId,
    String pool,
    double arrival,
    List<InputFile> inputs,
    double computeSeconds,
    int stage,
    Map<String, String> attributes,
    EventSpan events,
    List<String> parents,
    List<InputFile> outputs,
    String template,
    List<String> args,
    Integer priority,
    Double cancelAfter,
    String queue) {

  public TraceJob {
    if (jobId == null || jobId.isEmpty()) {
      throw new IllegalArgumentException("jobId is required");
    }
    if (!Double.isFinite(arrival) || arrival < 0) {
      throw new IllegalArgumentException(
          "arrival of " + jobId + " must be finite and >= 0: " + arrival);
    }
    if (!Double.isFinite(computeSeconds) || computeSeconds < 0) {
      throw new IllegalArgumentException(
          "computeSeconds of " + jobId + " must be finite and >= 0: " + computeSeconds);
    }
    if (stage < 0) {
      throw new IllegalArgumentException("stage of " + jobId + " must be >= 0: " + stage);
    }
    if (priority != null && !Priority.valid(priority)) {
      throw new IllegalArgumentException(Priority.outOfRange(priority) + " (job " + jobId + ")");
    }
    if (cancelAfter != null && (!Double.isFinite(cancelAfter) || cancelAfter < 0)) {
      throw new IllegalArgumentException(
          "cancelAfter of " + jobId + " must be finite and >= 0: " + cancelAfter);
    }
    if (queue != null) {
      String bad = QueueNames.problem(queue);
      if (bad != null) {
        throw new IllegalArgumentException("queue of job " + jobId + ": " + bad);
      }
    }
    inputs = List.copyOf(inputs);
    parents = parents == null ? List.of() : List.copyOf(parents);
    outputs = outputs == null ? List.of() : List.copyOf(outputs);
    args = args == null ? List.of() : List.copyOf(args);
    // Map.copyOf would iterate in a per-JVM random order; a sorted copy keeps written traces stable.
    attributes = attributes == null || attributes.isEmpty()
        ? Map.of()
        : Collections.unmodifiableSortedMap(new TreeMap<>(attributes));
  }

  /** A job in the consumer's default queue. */
  public TraceJob(String jobId, String pool, double arrival, List<InputFile> inputs,
      double computeSeconds, int stage, Map<String, String> attributes, EventSpan events,
      List<String> parents, List<InputFile> outputs, String template, List<String> args,
      Integer priority, Double cancelAfter) {
    this(jobId, pool, arrival, inputs, computeSeconds, stage, attributes, events, parents,
        outputs, template, args, priority, cancelAfter, null);
  }

  /** A job that is never cancelled, in the consumer's default queue. */
  public TraceJob(String jobId, String pool, double arrival, List<InputFile> inputs,
      double computeSeconds, int stage, Map<String, String> attributes, EventSpan events,
      List<String> parents, List<InputFile> outputs, String template, List<String> args,
      Integer priority) {
    this(jobId, pool, arrival, inputs, computeSeconds, stage, attributes, events, parents,
        outputs, template, args, priority, null);
  }

  /** A job without a priority of its own (the consumer's default applies). */
  public TraceJob(String jobId, String pool, double arrival, List<InputFile> inputs,
      double computeSeconds, int stage, Map<String, String> attributes, EventSpan events,
      List<String> parents, List<InputFile> outputs, String template, List<String> args) {
    this(jobId, pool, arrival, inputs, computeSeconds, stage, attributes, events, parents,
        outputs, template, args, null);
  }

  /** A job without parents, outputs or template. */
  public TraceJob(String jobId, String pool, double arrival, List<InputFile> inputs,
      double computeSeconds, int stage, Map<String, String> attributes, EventSpan events) {
    this(jobId, pool, arrival, inputs, computeSeconds, stage, attributes, events, List.of(),
        List.of(), null, List.of());
  }

  /** A file-based job (no event range). */
  public TraceJob(String jobId, String pool, double arrival, List<InputFile> inputs,
      double computeSeconds, int stage, Map<String, String> attributes) {
    this(jobId, pool, arrival, inputs, computeSeconds, stage, attributes, null);
  }

  /** A stage-0 job in the default pool without attributes. */
  public TraceJob(String jobId, double arrival, List<InputFile> inputs, double computeSeconds) {
    this(jobId, null, arrival, inputs, computeSeconds, 0, Map.of());
  }

  /** The same job in another pool. */
  public TraceJob withPool(String newPool) {
    return new TraceJob(jobId, newPool, arrival, inputs, computeSeconds, stage, attributes, events,
        parents, outputs, template, args, priority, cancelAfter, queue);
  }

  /** The same job with {@code newPriority} (null: not set). */
  public TraceJob withPriority(Integer newPriority) {
    return new TraceJob(jobId, pool, arrival, inputs, computeSeconds, stage, attributes, events,
        parents, outputs, template, args, newPriority, cancelAfter, queue);
  }

  /** The same job cancelled {@code seconds} after its arrival (null: never cancelled). */
  public TraceJob withCancelAfter(Double seconds) {
    return new TraceJob(jobId, pool, arrival, inputs, computeSeconds, stage, attributes, events,
        parents, outputs, template, args, priority, seconds, queue);
  }

  /**
   * The same job in queue {@code newQueue} (null: the consumer's default queue).
   *
   * @throws IllegalArgumentException when {@code newQueue} breaks {@link QueueNames}
   */
  public TraceJob withQueue(String newQueue) {
    return new TraceJob(jobId, pool, arrival, inputs, computeSeconds, stage, attributes, events,
        parents, outputs, template, args, priority, cancelAfter, newQueue);
  }

  /** The job's priority, or {@code fallback} when the trace set none. */
  public int priorityOr(int fallback) {
    return priority != null ? priority : fallback;
  }

  /** True for a splittable job over an event segment. */
  public boolean splittable() {
    return events != null;
  }

  public long totalBytes() {
    long sum = 0;
    for (InputFile u : inputs) {
      sum += u.bytes();
    }
    return sum;
  }

  /** Job-level compute plus every input's own compute. */
  public double totalComputeSeconds() {
    double sum = computeSeconds;
    for (InputFile u : inputs) {
      sum += u.computeSeconds();
    }
    return sum;
  }
}
