package io.locus.core.split;

import java.util.List;

/**
 * A subjob's mutable state inside a policy (package-private; drivers see ids and commands). A
 * subjob is queued (in at most one {@link SubjobQueue}), assigned to a node (running, or held until
 * an acknowledgement releases it), or stopped and waiting for its acknowledgement.
 */
final class Subjob {
  final String id;
  final JobState job;
  long start;
  long end;

  SplitNode node;
  /** Model dispatch time; NaN while held. */
  double dispatch = Double.NaN;
  /** Per-event costs fixed at dispatch, covering [start, end at dispatch). */
  List<CostSegment> segments = List.of();
  /** Events [start, materialised) are applied to the cache model. */
  long materialised;

  boolean preemptible;
  boolean priority;
  /** OUT_OF_ORDER: the node whose private queue it came from; null = the global queue. */
  String origin;
  /** The piece's holder when it was cut (SPLIT_BY_CACHE), or null. */
  String cachedOn;
  /** The stopped subjob whose acknowledgement may still move this range, or null. */
  String awaitsAck;
  /** Its own unacknowledged stop, or null. */
  SubjobEntry.Stop stop;
  /** The node it was suspended on, while the suspension is unacknowledged. */
  SplitNode stoppedOn;
  /** Index of its Run in the output being built, or -1. */
  int outIndex = -1;
  boolean dead;
  /** Its events cached on the node, while in a private queue that tracks costs (QueueCosts). */
  long cachedOnQueue;

  SubjobQueue queue;
  /** Its position in {@link #queue} (increasing from front to back). */
  long rank;
  Subjob prev;
  Subjob next;

  Subjob(String id, JobState job, long start, long end) {
    this.id = id;
    this.job = job;
    this.start = start;
    this.end = end;
  }

  long length() {
    return end - start;
  }

  EventSpan range() {
    return new EventSpan(start, end);
  }

  boolean held() {
    return node != null && Double.isNaN(dispatch);
  }

  /**
   * Excluded from stops and splits while its range or position is not authoritative, or while it
   * runs only until its cancel is answered (nothing of it is wanted: no piece of it may move).
   */
  boolean frozen() {
    return stop != null || awaitsAck != null || job.cancelled;
  }

  /** Flags a remainder keeps (D17). */
  void copyFlags(Subjob from) {
    preemptible = from.preemptible;
    priority = from.priority;
    origin = from.origin;
    cachedOn = from.cachedOn;
  }

  @Override
  public String toString() {
    return id + range();
  }
}
