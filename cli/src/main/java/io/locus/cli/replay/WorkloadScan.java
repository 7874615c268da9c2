package io.locus.cli.replay;

import io.locus.workloads.TraceJob;
import io.locus.workloads.Workload;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.Function;

/**
 * One pass over a workload before anything is published: a malformed trace fails here (with the
 * reader's message) instead of half-way through a replay, and the replay learns what it must
 * follow: the pools, and whether jobs have parents or stages (then it waits for completions).
 *
 * @param jobs jobs the replay will publish (the workload's, or the limit)
 * @param pools the pools they go to, in order of first use
 * @param queued how many of them name a queue (issue 24), which the scheduler refuses unless
 *     their pool has it: the replay says so
 */
public record WorkloadScan(long jobs, Set<String> pools, boolean hasParents, boolean hasStages,
    long queued) {

  /**
   * Scans the first {@code limit} jobs (all when negative).
   *
   * @param poolOf the pool each job goes to
   * @throws IllegalArgumentException when a job has no pool, a job id repeats, or a parent is not
   *     a job of the workload published before the limit
   */
  public static WorkloadScan of(Workload w, long limit, Function<TraceJob, String> poolOf) {
    long n = 0;
    Set<String> pools = new LinkedHashSet<>();
    Set<String> ids = new HashSet<>();
    Set<String> parents = new HashSet<>();
    boolean stages = false;
    boolean anyParents = false;
    long queued = 0;
    String duplicate = null;
    for (TraceJob j : w) {
      if (limit >= 0 && n >= limit) {
        break;
      }
      String pool = poolOf.apply(j);
      if (pool == null || pool.isBlank()) {
        throw new IllegalArgumentException("job " + j.jobId() + " of " + w.name()
            + " has no pool: give --pool");
      }
      pools.add(pool);
      stages |= j.stage() > 0;
      queued += j.queue() != null ? 1 : 0;
      if (!j.parents().isEmpty()) {
        anyParents = true;
        parents.addAll(j.parents());
      }
      if (!ids.add(j.jobId()) && duplicate == null) {
        duplicate = j.jobId();
      }
      n++;
    }
    if (anyParents) {
      if (duplicate != null) {
        throw new IllegalArgumentException("job id " + duplicate + " appears twice in "
            + w.name() + ": its children could not tell which one they wait for");
      }
      parents.removeAll(ids);
      if (!parents.isEmpty()) {
        throw new IllegalArgumentException(w.name() + ": " + parents.size()
            + " parent(s) are not jobs of the workload" + (limit >= 0 ? " within --limit" : "")
            + ", e.g. " + parents.iterator().next());
      }
    }
    return new WorkloadScan(n, pools, anyParents, stages, queued);
  }
}
