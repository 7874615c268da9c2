package io.locus.core.split;

import java.util.ArrayDeque;

/**
 * A policy's FIFO of jobs that have no subjob yet (FARM and the FCFS policies: jobs not started;
 * DELAYED: jobs waiting for the end of their period). Jobs join at arrival only, so the FIFO is in
 * arrival order.
 */
final class JobFifo {
  private final ArrayDeque<JobState> jobs = new ArrayDeque<>();
  private final Changes changes;

  JobFifo(Changes changes) {
    this.changes = changes;
  }

  void addLast(JobState j) {
    j.waiting = true;
    changes.job(j);
    jobs.addLast(j);
  }

  JobState pollFirst() {
    JobState j = jobs.pollFirst();
    j.waiting = false;
    changes.job(j);
    return j;
  }

  /** A cancelled job leaves the FIFO (a linear scan: cancels are rare). */
  void remove(JobState j) {
    if (jobs.remove(j)) {
      j.waiting = false;
      changes.job(j);
    }
  }

  JobState peekFirst() {
    return jobs.peekFirst();
  }

  boolean isEmpty() {
    return jobs.isEmpty();
  }

  /** Rebuilds the FIFO from the waiting jobs of a restored pool (jobs in arrival order). */
  void restore(Iterable<JobState> poolJobs) {
    for (JobState j : poolJobs) {
      if (j.waiting) {
        jobs.addLast(j);
      }
    }
  }
}
