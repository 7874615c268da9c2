package io.locus.sim.workload;

import io.locus.sim.engine.EventQueue;
import io.locus.workloads.TraceJob;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Feeds a lazily produced, arrival-sorted job stream into virtual time, holding at most the next
 * job: SW has 2,000,000 jobs and none needs to exist before it arrives. All jobs with the same
 * arrival time enter in one event, in stream order (that is their submission order).
 *
 * <p>Stages ({@link TraceJob#stage()}): a stage-k job (k ≥ 1) is released when every job of the
 * earlier stages that has arrived so far has completed (STAGES18). This assumes a stage's jobs have
 * all arrived before its completion is checked, which holds for staged workloads (all at t = 0).
 *
 * <p>Workflows ({@link TraceJob#parents()}): a job with parents is released when it has arrived
 * and every parent has completed (then its stage rule applies as above). A parent may arrive in the
 * same instant as its child, in any stream order, or later. A parent that failed for good means
 * its child never runs: the child is <em>dropped</em>, and so are the child's own descendants, as
 * they arrive; dropped jobs are counted ({@link #dropped()}) and never released. When the stream is
 * exhausted and nothing released is still running, jobs still waiting can never be released (a
 * parent that never arrived, or a cycle): they are dropped too, so the run ends.
 *
 * <p>To decide at a child's arrival whether a parent already completed, the feeder remembers the
 * id of every completed job (one set entry per job: about 100 bytes each, 200 MB for SW's
 * 2,000,000 jobs; the ids are the jobs' own strings).
 */
public final class JobFeeder {
  /** Receives released jobs. */
  public interface Sink {
    void released(TraceJob job, double now);
  }

  private final Iterator<TraceJob> jobs;
  private final EventQueue events;
  private final Sink sink;
  private TraceJob lookahead;
  private final List<ArrayDeque<TraceJob>> held = new ArrayList<>();
  private final List<long[]> stageCounts = new ArrayList<>(); // [arrived, finished]
  private final Map<String, Integer> stageOf = new HashMap<>();
  /** Ids of jobs that completed, and of jobs that failed for good or were dropped. */
  private final Set<String> completedIds = new HashSet<>();
  private final Set<String> failedIds = new HashSet<>();
  /** Jobs that arrived and wait for parents, by id; and who waits on whom (parent id → them). */
  private final Map<String, Waiting> waiting = new HashMap<>();
  private final Map<String, List<Waiting>> childrenOf = new HashMap<>();
  private long dropped;
  private long arrived;
  private long released;
  private long finished;
  private int heldCount;
  private double firstArrival = Double.NaN;
  private double lastArrival = Double.NaN;

  public JobFeeder(Iterator<TraceJob> jobs, EventQueue events, Sink sink) {
    this.jobs = jobs;
    this.events = events;
    this.sink = sink;
  }

  /** Schedules the first arrival. */
  public void start() {
    scheduleNext();
  }

  /** A released job ended for good: completed, or failed past its retries. */
  public void finished(String jobId, boolean completed, double now) {
    finished++;
    Integer stage = stageOf.remove(jobId);
    counts(stage == null ? 0 : stage)[1]++;
    (completed ? completedIds : failedIds).add(jobId);
    List<Waiting> children = childrenOf.remove(jobId);
    if (children != null) {
      for (Waiting w : children) {
        if (w.dropped) {
          continue;
        }
        if (!completed) {
          drop(w.job);
        } else if (--w.missing == 0) {
          waiting.remove(w.job.jobId());
          admitStage(w.job, now);
        }
      }
    }
    if (heldCount > 0) {
      releaseStages(now);
    }
    dropOrphans(now);
  }

  /** Every job has arrived and been released and finished, or dropped. */
  public boolean done() {
    return lookahead == null && !jobs.hasNext() && heldCount == 0 && waiting.isEmpty()
        && finished + dropped == arrived;
  }

  /** Jobs never released because a parent failed for good or never arrived (or on a cycle). */
  public long dropped() {
    return dropped;
  }

  /** Jobs that arrived and still wait for a parent. */
  public int waitingForParents() {
    return waiting.size();
  }

  public long arrived() {
    return arrived;
  }

  public long released() {
    return released;
  }

  public long finishedCount() {
    return finished;
  }

  public double firstArrival() {
    return firstArrival;
  }

  public double lastArrival() {
    return lastArrival;
  }

  private void scheduleNext() {
    if (lookahead == null && jobs.hasNext()) {
      lookahead = jobs.next();
    }
    if (lookahead != null) {
      double t = lookahead.arrival();
      events.schedule(t, () -> arrive(t));
    }
  }

  private void arrive(double now) {
    while (lookahead != null && lookahead.arrival() == now) {
      TraceJob job = lookahead;
      lookahead = jobs.hasNext() ? jobs.next() : null;
      arrived++;
      if (Double.isNaN(firstArrival)) {
        firstArrival = now;
      }
      lastArrival = now;
      counts(job.stage())[0]++;
      if (job.stage() > 0) {
        stageOf.put(job.jobId(), job.stage());
      }
      if (job.parents().isEmpty() || parentsDone(job)) {
        admitStage(job, now);
      }
    }
    if (heldCount > 0) {
      releaseStages(now);
    }
    scheduleNext();
    dropOrphans(now);
  }

  /**
   * True if every parent already completed. Otherwise the job is dropped (a parent failed for good)
   * or waits for its parents' completions; false.
   */
  private boolean parentsDone(TraceJob job) {
    Set<String> parents = new LinkedHashSet<>(job.parents());
    for (String p : parents) {
      if (failedIds.contains(p)) {
        drop(job);
        return false;
      }
    }
    Waiting w = new Waiting(job);
    for (String p : parents) {
      if (!completedIds.contains(p)) {
        w.missing++;
        childrenOf.computeIfAbsent(p, k -> new ArrayList<>(2)).add(w);
      }
    }
    if (w.missing == 0) {
      return true;
    }
    waiting.put(job.jobId(), w);
    return false;
  }

  /** The job's parents are done: stage 0 is released now, later stages wait for earlier ones. */
  private void admitStage(TraceJob job, double now) {
    if (job.stage() == 0) {
      release(job, now);
    } else {
      while (held.size() <= job.stage()) {
        held.add(new ArrayDeque<>());
      }
      held.get(job.stage()).add(job);
      heldCount++;
    }
  }

  /** Drops {@code job} and every job already waiting on it, transitively. */
  private void drop(TraceJob job) {
    ArrayDeque<TraceJob> todo = new ArrayDeque<>();
    todo.add(job);
    while (!todo.isEmpty()) {
      TraceJob j = todo.poll();
      Waiting w = waiting.remove(j.jobId());
      if (w != null) {
        w.dropped = true;
      }
      if (!failedIds.add(j.jobId())) {
        continue; // already dropped
      }
      dropped++;
      Integer stage = stageOf.remove(j.jobId());
      counts(stage == null ? 0 : stage)[1]++;
      List<Waiting> children = childrenOf.remove(j.jobId());
      if (children != null) {
        for (Waiting c : children) {
          if (!c.dropped) {
            todo.add(c.job);
          }
        }
      }
    }
  }

  /**
   * The stream is exhausted and nothing released is still running: jobs still waiting wait for a
   * parent that never arrived (or for each other, on a cycle). They are dropped so the run ends.
   */
  private void dropOrphans(double now) {
    if (waiting.isEmpty() || released != finished || lookahead != null || jobs.hasNext()) {
      return;
    }
    for (Waiting w : List.copyOf(waiting.values())) {
      if (!w.dropped) {
        drop(w.job);
      }
    }
    if (heldCount > 0) {
      releaseStages(now);
    }
  }

  /** A job waiting for {@code missing} parents to complete. */
  private static final class Waiting {
    final TraceJob job;
    int missing;
    boolean dropped;

    Waiting(TraceJob job) {
      this.job = job;
    }
  }

  private void releaseStages(double now) {
    for (int s = 1; s < held.size(); s++) {
      long[] prev = counts(s - 1);
      if (prev[0] != prev[1] || (s > 1 && !held.get(s - 1).isEmpty())) {
        return; // stage s − 1 still running (or not yet released): later stages wait too
      }
      ArrayDeque<TraceJob> q = held.get(s);
      while (!q.isEmpty()) {
        heldCount--;
        release(q.poll(), now);
      }
    }
  }

  private void release(TraceJob job, double now) {
    released++;
    sink.released(job, now);
  }

  private long[] counts(int stage) {
    while (stageCounts.size() <= stage) {
      stageCounts.add(new long[2]);
    }
    return stageCounts.get(stage);
  }
}
