package io.locus.sim.workload;

import io.locus.sim.engine.EventQueue;
import io.locus.workloads.TraceJob;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Feeds a lazily produced, arrival-sorted job stream into virtual time, holding at most the next
 * job: SW has 2,000,000 jobs and none needs to exist before it arrives. All jobs with the same
 * arrival time enter in one event, in stream order (that is their submission order).
 *
 * <p>Stages ({@link TraceJob#stage()}): a stage-k job (k ≥ 1) is released when every job of the
 * earlier stages that has arrived so far has completed (STAGES18). This assumes a stage's jobs have
 * all arrived before its completion is checked, which holds for staged workloads (all at t = 0).
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

  /** A released job ended for good (completed, or failed past its retries). */
  public void finished(String jobId, double now) {
    finished++;
    Integer stage = stageOf.remove(jobId);
    counts(stage == null ? 0 : stage)[1]++;
    if (heldCount > 0) {
      releaseStages(now);
    }
  }

  /** Every job has arrived, been released and finished. */
  public boolean done() {
    return lookahead == null && !jobs.hasNext() && heldCount == 0 && finished == arrived;
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
      if (job.stage() == 0) {
        release(job, now);
      } else {
        stageOf.put(job.jobId(), job.stage());
        while (held.size() <= job.stage()) {
          held.add(new ArrayDeque<>());
        }
        held.get(job.stage()).add(job);
        heldCount++;
      }
    }
    if (heldCount > 0) {
      releaseStages(now);
    }
    scheduleNext();
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
