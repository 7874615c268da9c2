package io.locus.cli.replay;

import io.locus.workloads.TraceJob;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The workflow engine's rule: a job goes out only once every one of its parents has completed.
 * Jobs that arrive while a parent is still running wait here; a completion releases the children
 * it was the last missing parent of, in the order they arrived. No Kafka, no clock: the
 * {@link Replayer} feeds it.
 */
final class DagGate {
  /** A job waiting for {@code missing} more parents. */
  private static final class Waiting {
    final TraceJob job;
    final String pool;
    int missing;

    Waiting(TraceJob job, String pool, int missing) {
      this.job = job;
      this.pool = pool;
      this.missing = missing;
    }
  }

  /** A job the gate lets through, with the pool it goes to. */
  record Released(TraceJob job, String pool) {}

  private final Set<String> completed = new HashSet<>();
  private final Map<String, List<Waiting>> childrenOf = new HashMap<>();
  private final Map<String, Waiting> waiting = new LinkedHashMap<>();

  /** True when {@code job} may go now; otherwise it waits for its parents. */
  boolean admit(TraceJob job, String pool) {
    int missing = 0;
    Waiting w = new Waiting(job, pool, 0);
    for (String p : new java.util.LinkedHashSet<>(job.parents())) {
      if (!completed.contains(p)) {
        missing++;
        childrenOf.computeIfAbsent(p, k -> new ArrayList<>()).add(w);
      }
    }
    if (missing == 0) {
      return true;
    }
    w.missing = missing;
    waiting.put(job.jobId(), w);
    return false;
  }

  /**
   * {@code jobId} completed (a repeated completion changes nothing); returns the jobs that were
   * waiting for it last.
   */
  List<Released> completed(String jobId) {
    if (!completed.add(jobId)) {
      return List.of();
    }
    List<Waiting> children = childrenOf.remove(jobId);
    if (children == null) {
      return List.of();
    }
    List<Released> out = new ArrayList<>();
    for (Waiting w : children) {
      if (--w.missing == 0) {
        waiting.remove(w.job.jobId());
        out.add(new Released(w.job, w.pool));
      }
    }
    return out;
  }

  boolean isCompleted(String jobId) {
    return completed.contains(jobId);
  }

  /** Jobs waiting for a parent. */
  int waiting() {
    return waiting.size();
  }

  /** A few waiting jobs with the parents they still wait for, for a message. */
  String describeWaiting(int max) {
    StringBuilder b = new StringBuilder();
    int n = 0;
    for (Waiting w : waiting.values()) {
      if (n++ == max) {
        b.append(", ...");
        break;
      }
      List<String> open = w.job.parents().stream().distinct()
          .filter(p -> !completed.contains(p)).toList();
      b.append(n > 1 ? ", " : "").append(w.job.jobId()).append(" (waits for ")
          .append(String.join(", ", open)).append(')');
    }
    return b.toString();
  }
}
