package io.locus.dashboard;

import java.util.List;

/**
 * Everything the page shows, at one moment: what {@code /api/snapshot} returns and each SSE
 * {@code snapshot} event carries (as JSON). Strings are the records' own, cut to
 * {@link DashboardState#MAX_TEXT} characters; the page renders them as text, never as markup.
 */
public record Snapshot(long timeMs, long version, Totals totals, Rate rate, List<Pool> pools,
    List<Node> nodes, int nodesNotShown, List<LostNode> lostNodes, DeadLetters deadLetters,
    List<Placement> placements, Topics topics) {

  /**
   * Over every pool. Ratios are of all input bytes the COMPLETED task events report (0 when
   * none); bytes moved = peer + storage.
   */
  public record Totals(long placements, double placementsPerSecond, long completed, long failed,
      long bytesLocal, long bytesPeer, long bytesStorage, double localRatio, double peerRatio,
      double storageRatio, long bytesMoved, long deadLetters, int lostNodes, int aliveNodes,
      long refusedRegistrations) {}

  /** Placements per second of decision time, for the chart: {@code perSecond[last]} is newest. */
  public record Rate(int windowSeconds, long endSecond, long[] perSecond) {}

  /**
   * One pool: its latest SchedulerMetrics ({@code policy} to {@code metricsTimeMs}: the
   * scheduler's figures at {@code metricsTimeMs}), plus what the dashboard folded itself from the
   * decisions, task events and node reports: {@code running}, {@code slotsInUse}, {@code slots}
   * and {@code members} are the sums of the Nodes panel over the pool's members (alive or
   * draining), so the two panels agree whenever the page is drawn.
   */
  public record Pool(String pool, String policy, long queueLength, long runningTasks,
      int busySlots, int totalSlots, int registeredNodes, long metricsPlacements,
      long metricsCompletions, long metricsFailures, long metricsTimeMs, long clockMs,
      long running, int slotsInUse, int slots, int members,
      long placements, long completed, long bytesLocal, long bytesPeer, long bytesStorage,
      double localRatio, long[] queueTimesMs, long[] queueLengths, List<Pending> pending,
      String pendingReason, List<Queue> queues, List<QueueSeries> queueSeries) {}

  /**
   * One queue of a pool (issue 24), from the scheduler's latest metrics ({@code queueUsage}):
   * {@code depth} is how many ancestors it has (for indenting; the list is depth first), slot
   * figures are the pool's slots (a guarantee is the effective one), {@code share} the dominant
   * share of the pool (0–1), {@code limit} null when there is none, {@code preempted} cumulative.
   */
  public record Queue(String queue, String parent, int depth, boolean leaf, double weight,
      double guarantee, Integer limit, int running, int pending, double share, double fairShare,
      double borrowed, long preempted) {}

  /**
   * A queue's running slots, guarantee and fair share over the pool's latest metrics records,
   * oldest first (the chart's lines), at the records' times.
   */
  public record QueueSeries(String queue, long[] timesMs, int[] running, double[] guarantee,
      double[] fairShare) {}

  /**
   * Queued tasks of a pool with one pending-reason code, from the scheduler's latest metrics
   * ({@code pendingByCode}): the code, its label ("waiting for a data holder"), how many. A
   * pool's list is in the codes' order (PendingCode), codes with no task left out; the pool's
   * {@code pendingReason} is the scheduler's pool-wide reason (paused, no node, all draining), or
   * null.
   */
  public record Pending(String code, String label, long count) {}

  /**
   * One node: attempts placed on it and not ended ({@code running}, as the scheduler counts
   * them), of them those it reported STARTED, the slots they use (min(running, slots); the rest
   * wait in its local queue); cache bytes against its capacity.
   */
  public record Node(String pool, String node, String state, int slots, int running,
      int slotsInUse, int started, int queueDepth, long cacheBytes, long cacheCapacityBytes, int cachedFiles, long placements,
      long completed, long failed, long heardMs) {}

  public record LostNode(String pool, String node, long heardMs, long lostAtMs) {}

  public record DeadLetters(long total, List<Reason> byCode, List<Letter> latest) {}

  /** Dead letters of one code (DeadLetterCodes), with the newest reason given. */
  public record Reason(String code, long count, String lastReason, String lastTopic) {}

  public record Letter(long timeMs, String code, String sourceTopic, int partition, long offset,
      String reason) {}

  /**
   * A PlaceTask: where, and why ({@code PlacementReason}): bytes to move = peer + storage;
   * {@code localFraction} = local bytes / (local bytes + bytes to move), the share of the task's
   * input bytes already on the node (1 when it reads nothing); {@code score} is the policy's own
   * figure (today the same fraction).
   */
  public record Placement(long timeMs, String pool, String node, String taskId, String jobId,
      int attempt, String policy, double score, long localBytes, long peerBytes,
      long storageBytes, long bytesToMove, double localFraction) {}

  /** Records read per topic, and those skipped because they did not decode. */
  public record Topics(java.util.Map<String, Long> read, java.util.Map<String, Long> undecodable,
      boolean caughtUp) {}
}
