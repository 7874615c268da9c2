package io.locus.workloads;

import io.locus.core.model.InputFile;
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
    EventSpan events) {

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
    inputs = List.copyOf(inputs);
    // Map.copyOf would iterate in a per-JVM random order; a sorted copy keeps written traces stable.
    attributes = attributes == null || attributes.isEmpty()
        ? Map.of()
        : Collections.unmodifiableSortedMap(new TreeMap<>(attributes));
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
