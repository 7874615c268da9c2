package io.locus.core.split;

/** A job's state inside a policy, from arrival until its last event is processed. */
final class JobState {
  final String id;
  /** Arrival order (ties of equal arrival times keep submission order). */
  final long seq;
  final EventSpan events;
  final double arrival;
  /** When the policy first considered the job: the end of its period, or its arrival. */
  double released;
  double firstStart = Double.NaN;
  double lastEnd = Double.NaN;
  long done;
  long local;
  long remote;
  long tape;
  boolean priority;
  boolean replicated;
  int counter;
  int subjobsRun;
  /** Subjobs assigned to nodes (running or held). */
  int active;
  /** In its policy's {@link JobFifo} (it has no subjob yet). */
  boolean waiting;
  /**
   * Cancelled ({@link SplitPolicy#cancelJob}): it has left the policy's queues and never
   * completes; it stays in {@link SplitState#cancelled} only while subjobs of it still run (their
   * CANCEL not answered yet) or await a stop acknowledgement.
   */
  boolean cancelled;
  /** FIFO policies: its suspended subjobs, in suspension order. */
  final SubjobQueue suspended;

  JobState(String id, long seq, EventSpan events, double arrival, Changes changes) {
    this.suspended = new SubjobQueue("suspended", changes);
    this.id = id;
    this.seq = seq;
    this.events = events;
    this.arrival = arrival;
    this.released = arrival;
  }

  boolean finished() {
    return done == events.length();
  }

  JobOutcome outcome() {
    return new JobOutcome(id, events, arrival, released, firstStart, lastEnd, local, remote, tape,
        priority, replicated, subjobsRun);
  }
}
