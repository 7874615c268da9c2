package io.locus.schemas.limits;

/**
 * The one set of limits on what a record may carry (PROTOCOL-12 "Input bounds"), shared by every
 * part that reads records or what becomes them: the scheduler's input validation
 * ({@code connectors}' {@code Validation}), the node agents (file ids, instance ids, template
 * arguments) and the trace readers ({@code workloads}). One class, so that the scheduler never
 * accepts what every agent would then refuse (issue 22: file ids of 1,024 characters were
 * placed, then failed on every node, whose limit was 255 bytes). Each limit is documented with
 * the dead-letter code it gives in docs/operations.md ("Limits and dead-letter codes"); a change
 * here changes that table.
 *
 * <p>They are far above any real workload and low enough that no single record can exhaust the
 * scheduler's memory, move its clock to the end of time, overflow its arithmetic, or name a file
 * that an agent cannot create.
 */
public final class Limits {
  /** Largest record value decoded: 1 MiB, Kafka's default {@code max.message.bytes}. */
  public static final int MAX_RECORD_BYTES = 1 << 20;
  /** pool, node, jobId, taskId, template, dataset, policy, instanceId, decisionId, checksum. */
  public static final int MAX_ID_CHARS = 256;
  /**
   * Data unit ids (inputs, outputs, cached and evicted files): at most 255 bytes of UTF-8 as the
   * agent's file name for them ({@link FileIds#fileName}: each {@code /} and {@code %} takes three
   * bytes there), the longest file name of Linux file systems (ext4, xfs, btrfs: NAME_MAX).
   * Their characters follow {@link FileIds#problem}.
   */
  public static final int MAX_FILE_ID_BYTES = 255;
  /** endpoint, location: URLs. */
  public static final int MAX_URL_CHARS = 2048;
  /** Free text: a task event's message, one template argument, one control parameter value. */
  public static final int MAX_TEXT_CHARS = 4096;
  public static final int MAX_INPUTS_PER_JOB = 10_000;
  /** Files a job creates (a workflow task's outputs). */
  public static final int MAX_OUTPUTS_PER_JOB = 10_000;
  /** added, removed: one report may carry a whole cache (a snapshot after ResyncNode). */
  public static final int MAX_FILES_PER_REPORT = 100_000;
  public static final int MAX_ARGS = 256;
  public static final int MAX_PARAMS = 64;
  public static final int MAX_PARAM_KEY_CHARS = 256;
  /** Bytes of one file: 1 PiB. */
  public static final long MAX_FILE_BYTES = 1L << 50;
  /**
   * Byte counters of a task event (bytes read locally, from peers, from storage) and a node's
   * cache capacity: 2^60, so sums over many tasks or nodes cannot overflow a long.
   */
  public static final long MAX_BYTE_COUNT = 1L << 60;
  /** Compute seconds of a job or of one input: about 116 days. */
  public static final double MAX_COMPUTE_SECONDS = 1e7;
  public static final int MAX_SLOTS = 4096;
  /** Local-queue positions a node may advertise (NodeReport.queueDepth; pools cap it lower). */
  public static final int MAX_QUEUE_DEPTH = 4096;
  /** Queues in one pool's queue tree (a SET_QUEUES control, the metrics record that shows it). */
  public static final int MAX_QUEUES = 256;
  /** Record times (ms since the epoch): [0, 2^42], i.e. until the year 2109. */
  public static final long MAX_TIME_MS = 1L << 42;
  /**
   * A job's priority (JobSubmitted.priority): [-1000, 1000], higher first in its pool's queue.
   * The core's {@code io.locus.core.model.Priority} has the same bounds (a workloads test checks
   * they agree); docs/policies.md, "Priority", says why this range.
   */
  public static final int MIN_PRIORITY = -1000;
  public static final int MAX_PRIORITY = 1000;
  /** Event indices of a range: 2^53, exactly representable in the policies' double arithmetic. */
  public static final long MAX_EVENT_INDEX = 1L << 53;
  /** A signature is lowercase hex HMAC-SHA256 (RecordSigner). */
  public static final int SIGNATURE_HEX_CHARS = 64;

  private Limits() {}
}
