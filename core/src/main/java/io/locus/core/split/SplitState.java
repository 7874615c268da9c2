package io.locus.core.split;

import io.locus.core.model.Ids;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

/**
 * The pool state of a split policy: its nodes (each with its range cache, running subjob and
 * private queue), the pool-wide {@link CoverageIndex} over those caches, the unfinished jobs, the
 * live and stopped subjobs, and the pool scalars (clock, arrival sequence, replications, outcomes
 * not yet drained). It holds data and the bookkeeping that keeps it consistent; what to do with it
 * is decided elsewhere (the policies, through {@link Primitives}).
 *
 * <p>Iteration orders are fixed: nodes by {@link Ids#ORDER}, jobs by arrival, subjob ids {@code
 * jobId/k}.
 */
final class SplitState {
  final SplitParams params;
  final TreeMap<String, SplitNode> nodes = new TreeMap<>(Ids.ORDER);
  final CoverageIndex index = new CoverageIndex();
  /** Unfinished jobs in arrival order. */
  final LinkedHashMap<String, JobState> jobs = new LinkedHashMap<>();
  /**
   * Cancelled jobs some subjob of which still runs (until its end is reported) or awaits a stop
   * acknowledgement, in cancelling order; see {@link #forgetIfDrained}.
   */
  final LinkedHashMap<String, JobState> cancelled = new LinkedHashMap<>();
  /** Queued, running and held subjobs. */
  final LinkedHashMap<String, Subjob> live = new LinkedHashMap<>();
  /** Suspended subjobs whose acknowledgement has not come. */
  final LinkedHashMap<String, Subjob> stopped = new LinkedHashMap<>();
  /** Jobs finished and not drained yet, in finishing order. */
  final ArrayDeque<JobOutcome> finished = new ArrayDeque<>();
  long jobSeq;
  /** The model clock: the latest input time, in seconds. */
  double now;
  /** Replications triggered so far (third remote access). */
  long replications;
  /** What the current input changed, for a journal. */
  final Changes changes = new Changes(this);

  SplitState(SplitParams params) {
    this.params = params;
  }

  /** A job arriving now. */
  JobState newJob(SplitJob job) {
    if (jobs.containsKey(job.id())) {
      throw new IllegalArgumentException("job " + job.id() + " is already in the pool");
    }
    if (cancelled.containsKey(job.id())) { // its subjob ids are still taken
      throw new IllegalArgumentException("job " + job.id() + " was cancelled and subjobs of it "
          + "still run in the pool");
    }
    JobState j = new JobState(job.id(), jobSeq++, job.events(), now, changes);
    jobs.put(j.id, j);
    changes.job(j);
    return j;
  }

  /** A new live subjob [start, end) of j (not placed), with the next id {@code j/k}. */
  Subjob newPiece(JobState j, long start, long end) {
    Subjob x = new Subjob(j.id + "/" + (++j.counter), j, start, end);
    live.put(x.id, x);
    changes.subjob(x);
    changes.job(j);
    return x;
  }

  /** The unfinished or cancelled (still draining) job with that id, or null. */
  JobState job(String id) {
    JobState j = jobs.get(id);
    return j != null ? j : cancelled.get(id);
  }

  /**
   * A cancelled job leaves the pool once no subjob of it is on a node and none awaits a stop
   * acknowledgement (the answers about them are then no longer expected).
   */
  void forgetIfDrained(JobState j) {
    if (!j.cancelled || j.active > 0 || !cancelled.containsKey(j.id)) {
      return;
    }
    for (Subjob s : stopped.values()) {
      if (s.job == j) {
        return;
      }
    }
    cancelled.remove(j.id);
    changes.job(j);
  }

  /** The live or stopped subjob with that id, or null. */
  Subjob subjob(String id) {
    Subjob x = live.get(id);
    return x != null ? x : stopped.get(id);
  }

  /** k's last event is processed: it leaves the pool, its outcome waits to be drained. */
  void complete(JobState k) {
    jobs.remove(k.id);
    finished.add(k.outcome());
    changes.job(k);
  }

  List<JobOutcome> drainFinished() {
    List<JobOutcome> l = new ArrayList<>(finished);
    finished.clear();
    return l;
  }

  List<SplitNode> idleNodes() {
    List<SplitNode> l = new ArrayList<>();
    for (SplitNode v : nodes.values()) {
      if (v.idle()) {
        l.add(v);
      }
    }
    return l;
  }

  /** Subjobs waiting in any queue. */
  int queuedSubjobs() {
    int n = 0;
    for (Subjob x : live.values()) {
      if (x.node == null) {
        n++;
      }
    }
    return n;
  }

  /** Queued subjobs plus unfinished jobs that have no subjob at all yet. */
  int queuedWork() {
    Set<String> withSubjob = new HashSet<>();
    int n = 0;
    for (Subjob x : live.values()) {
      withSubjob.add(x.job.id);
      if (x.node == null) {
        n++;
      }
    }
    for (JobState j : jobs.values()) {
      if (!j.finished() && j.active == 0 && !withSubjob.contains(j.id)) {
        n++;
      }
    }
    return n;
  }
}
