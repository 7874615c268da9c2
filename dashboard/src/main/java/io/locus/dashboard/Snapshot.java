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
      double storageRatio, long bytesMoved, long deadLetters, int lostNodes, int aliveNodes) {}

  /** Placements per second of decision time, for the chart: {@code perSecond[last]} is newest. */
  public record Rate(int windowSeconds, long endSecond, long[] perSecond) {}

  /** One pool: its latest SchedulerMetrics, plus what the task events and decisions say. */
  public record Pool(String pool, String policy, long queueLength, long runningTasks,
      int busySlots, int totalSlots, int registeredNodes, long metricsPlacements,
      long metricsCompletions, long metricsFailures, long metricsTimeMs, long clockMs,
      long placements, long completed, long bytesLocal, long bytesPeer, long bytesStorage,
      double localRatio, long[] queueTimesMs, long[] queueLengths) {}

  /** One node: running attempts against its slots, cache bytes against its capacity. */
  public record Node(String pool, String node, String state, int slots, int running,
      int queueDepth, long cacheBytes, long cacheCapacityBytes, int cachedFiles, long placements,
      long completed, long failed, long heardMs) {}

  public record LostNode(String pool, String node, long heardMs, long lostAtMs) {}

  public record DeadLetters(long total, List<Reason> byCode, List<Letter> latest) {}

  /** Dead letters of one code (DeadLetterCodes), with the newest reason given. */
  public record Reason(String code, long count, String lastReason, String lastTopic) {}

  public record Letter(long timeMs, String code, String sourceTopic, int partition, long offset,
      String reason) {}

  /** A PlaceTask: where, and why ({@code PlacementReason}): bytes to move = peer + storage. */
  public record Placement(long timeMs, String pool, String node, String taskId, String jobId,
      int attempt, String policy, double score, long localBytes, long peerBytes,
      long storageBytes, long bytesToMove) {}

  /** Records read per topic, and those skipped because they did not decode. */
  public record Topics(java.util.Map<String, Long> read, java.util.Map<String, Long> undecodable,
      boolean caughtUp) {}
}
