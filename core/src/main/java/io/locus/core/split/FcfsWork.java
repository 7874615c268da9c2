package io.locus.core.split;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The FCFS discipline that {@link JobSplitting} and {@link CacheJobSplitting} share (spec §2.2,
 * §2.3): the FIFO of jobs not started, the jobs with suspended work by arrival (where remainders
 * nobody asked for go too), and the victim rule that gives a new job a node of the job with the
 * most active nodes per remaining event (D9, D10). The two policies add their arrival and
 * node-available rules.
 */
abstract class FcfsWork implements PolicyHooks {
  final Primitives ops;
  final ProgressModel model;
  /** Jobs not started yet. */
  final JobFifo fifo;
  /** Jobs that have suspended subjobs, by arrival (entries with an empty list are stale). */
  final TreeMap<Long, JobState> withSuspended = new TreeMap<>();

  FcfsWork(Primitives ops) {
    this.ops = ops;
    this.model = ops.model;
    this.fifo = new JobFifo(ops.state.changes);
  }

  /**
   * The §2.2 victim: among jobs with ≥ 2 active nodes, K = argmax activeNodes / remainingEvents
   * (remaining includes suspended subjobs; tie: earliest arrival); its running subjob with the
   * fewest remaining events (tie: lowest node id). Null when no job qualifies. Frozen subjobs
   * (stop or release awaiting an acknowledgement) are not candidates.
   */
  SplitNode victimNode() {
    Map<JobState, long[]> perJob = new LinkedHashMap<>(); // {active, remaining, candidates}
    for (SplitNode v : ops.nodes()) {
      Subjob x = v.running;
      if (x == null) {
        continue;
      }
      long[] a = perJob.computeIfAbsent(x.job, k -> new long[3]);
      a[0]++;
      a[1] += x.held() ? x.length() : model.remainingEvents(x);
      if (!x.frozen()) {
        a[2]++;
      }
    }
    JobState best = null;
    double bestRatio = -1;
    for (Map.Entry<JobState, long[]> e : perJob.entrySet()) {
      long[] a = e.getValue();
      if (a[0] < 2 || a[2] == 0) {
        continue;
      }
      long rem = a[1];
      for (Subjob s : e.getKey().suspended) {
        rem += s.length();
      }
      double ratio = rem == 0 ? Double.POSITIVE_INFINITY : (double) a[0] / rem;
      if (best == null || ratio > bestRatio
          || (ratio == bestRatio && e.getKey().seq < best.seq)) {
        best = e.getKey();
        bestRatio = ratio;
      }
    }
    if (best == null) {
      return null;
    }
    SplitNode pick = null;
    long fewest = Long.MAX_VALUE;
    for (SplitNode v : ops.nodes()) {
      Subjob x = v.running;
      if (x != null && x.job == best && !x.frozen()) {
        long r = model.remainingEvents(x);
        if (r < fewest) {
          fewest = r;
          pick = v;
        }
      }
    }
    return pick;
  }

  /** SUSPEND the subjob on v; its remainder joins its job's suspended list. */
  void suspendTo(SplitNode v) {
    Subjob r = ops.suspendRunning(v);
    if (r != null) {
      pushSuspended(r);
    }
  }

  void pushSuspended(Subjob r) {
    r.job.suspended.pushBack(r);
    withSuspended.put(r.job.seq, r.job);
  }

  /** The earliest-arrived job with suspended work, or null. */
  JobState firstWithSuspended() {
    while (!withSuspended.isEmpty()) {
      JobState k = withSuspended.firstEntry().getValue();
      if (!k.suspended.isEmpty() && ops.unfinished(k)) {
        return k;
      }
      withSuspended.pollFirstEntry();
    }
    return null;
  }

  @Override
  public void jobFinished(JobState j) {
    withSuspended.remove(j.seq);
  }

  @Override
  public void jobCancelled(JobState j) {
    fifo.remove(j);
    withSuspended.remove(j.seq);
  }

  @Override
  public void requeue(Subjob x) {
    pushSuspended(x);
  }

  /** Rebuilds the FIFO and the suspended-work index from a restored pool. */
  @Override
  public void restore(List<PolicyEntry> memory) {
    fifo.restore(ops.state.jobs.values());
    for (JobState j : ops.state.jobs.values()) {
      if (!j.suspended.isEmpty()) {
        withSuspended.put(j.seq, j);
      }
    }
  }
}
