package io.locus.schemas.codec;

import java.util.List;

/**
 * The classes of dead letter ({@code DeadLetter.code}), one per kind of problem, so dashboards and
 * metrics count them without parsing the free-text reason.
 */
public final class DeadLetterCodes {
  /** The record (or a string, list or byte field in it) exceeds a size limit. */
  public static final String TOO_LARGE = "too-large";
  /** Not a record of the topic's type: bad header, unknown schema, truncated or corrupt bytes. */
  public static final String CORRUPT = "corrupt";
  /** Decoded, but breaks a rule: missing or malformed field, value out of range. */
  public static final String INVALID = "invalid";
  /**
   * Its time is further ahead of its Kafka record's timestamp than the maximum clock jump: the
   * sender's clock runs ahead (or the time is made up); it moves no clock.
   */
  public static final String CLOCK = "clock";
  /** Names a pool the scheduler is not configured to run. */
  public static final String UNKNOWN_POOL = "unknown-pool";
  /** Names a node the pool does not know (never registered, released or lost). */
  public static final String UNKNOWN_NODE = "unknown-node";
  /** Names a task or attempt the pool does not know, or one that is not running there. */
  public static final String UNKNOWN_TASK = "unknown-task";
  /**
   * A COMPLETED for a task the pool does not know: kept (not lost) until the task's arrival comes,
   * which a replay after a restore can deliver after its completion; if the task had finished, the
   * record is a duplicate and stays unused.
   */
  public static final String EARLY_COMPLETION = "early-completion";
  /**
   * A PREEMPTED for an attempt the pool is not preempting: never asked to stop, already answered
   * (a duplicate), or reported by another node than the one the attempt runs on. It changes
   * nothing: the attempt keeps running for the pool (issue 24).
   */
  public static final String NOT_PREEMPTING = "not-preempting";
  /** Unsigned or badly signed, or from an agent instance other than the node's live one. */
  public static final String FORGED = "forged";
  /**
   * A task event about an attempt without the scheduler's proof that the attempt was placed on the
   * sending node ({@code TaskEvent.placementProof}, {@code PlacementProof}): only with a cluster
   * node secret, where a node may report only on work given to it.
   */
  public static final String NO_PROOF = "no-proof";
  /** A job id seen within the retention window. */
  public static final String DUPLICATE_JOB = "duplicate-job";
  /**
   * A job command (cancel) for a job the pool does not know: never submitted, or its id has left
   * the retention window. (A cancel sent before its job's submission reaches the scheduler is
   * refused too: commands are not remembered, so send it again.)
   */
  public static final String UNKNOWN_JOB = "unknown-job";
  /** A job command (cancel) for a job that has already completed, failed for good or been cancelled. */
  public static final String JOB_FINISHED = "job-finished";
  /**
   * A workflow submission that cannot run: a cycle, a parent not in the workflow, a job id used
   * twice, parts that disagree, or a workflow id seen before. Nothing of it is released.
   */
  public static final String INVALID_WORKFLOW = "invalid-workflow";
  /**
   * A job naming a queue that is not a leaf of its pool's queue tree: unknown (a typo, or a pool
   * with no queue configured but its default one) or a parent queue. Never routed to the default
   * queue instead: that would hide the typo and charge the job to a queue its owner never chose
   * ({@code io.locus.core.share.QueueTree#resolve}).
   */
  public static final String UNKNOWN_QUEUE = "unknown-queue";
  /** The scheduler cannot act on it now (e.g. a control for a busy pool, an unknown policy). */
  public static final String REJECTED = "rejected";
  /** An output record the sink could not write (e.g. larger than the broker accepts). */
  public static final String UNWRITABLE = "unwritable";
  /** An internal error while handling an otherwise valid record. */
  public static final String INTERNAL = "internal";

  public static final List<String> ALL = List.of(TOO_LARGE, CORRUPT, INVALID, CLOCK,
      UNKNOWN_POOL, UNKNOWN_NODE, UNKNOWN_TASK, EARLY_COMPLETION, NOT_PREEMPTING, FORGED, NO_PROOF, DUPLICATE_JOB, UNKNOWN_JOB,
      JOB_FINISHED, INVALID_WORKFLOW, UNKNOWN_QUEUE, REJECTED, UNWRITABLE, INTERNAL);

  private DeadLetterCodes() {}
}
