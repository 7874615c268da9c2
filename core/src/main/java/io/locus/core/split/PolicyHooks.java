package io.locus.core.split;

import java.util.List;
import java.util.function.Consumer;

/**
 * A split policy's decisions, as the hooks {@link SplitPolicy} calls at the points of the spec's
 * pseudocode. A policy chooses and acts through {@link Primitives}; the shared state, the progress
 * model and the acknowledgement protocol are not its business.
 */
interface PolicyHooks {
  /** A job arrived (the model clock is its arrival). */
  void arrival(JobState j);

  /** v is free after a subjob of k ended; {@code jobFinished}: k is done. */
  void subjobEnded(SplitNode v, JobState k, boolean jobFinished);

  /** v is idle and may take work. */
  void nodeAvailable(SplitNode v);

  /** Places a remainder that no decision asked for (partial end, node loss, late ack). */
  void requeue(Subjob x);

  /** Whether backlog(u) counts u's private queue (the queues then keep their cost up to date). */
  default boolean queueBacklog() {
    return false;
  }

  /** When {@link #timer} is next due; +∞ when nothing is pending. */
  default double timerAt() {
    return Double.POSITIVE_INFINITY;
  }

  default void timer() {}

  /** A job finished; drop it from the policy's structures. */
  default void jobFinished(JobState j) {}

  /**
   * A job is being cancelled ({@link JobCancel}): drop it from the policy's own structures other
   * than subjob queues (its place in a job FIFO, indexes, meta-subjob piece lists). Its subjobs
   * are taken out of every {@link SubjobQueue} by the caller, after this.
   */
  default void jobCancelled(JobState j) {}

  /** The policy's own queue named {@code tag} ({@link SubjobEntry#queue()}), or null. */
  default SubjobQueue queue(String tag) {
    return null;
  }

  /** Writes the policy's own memory (beyond jobs, subjobs and nodes), one entry at a time. */
  default void exportMemory(Consumer<PolicyEntry> out) {}

  /**
   * After the pool state was restored: rebuilds the policy's structures from it and from its
   * memory entries, removing from {@code memory} those it took (any left over are refused).
   */
  default void restore(List<PolicyEntry> memory) {}

}
