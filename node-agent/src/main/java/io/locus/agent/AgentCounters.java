package io.locus.agent;

import java.util.Map;
import java.util.TreeMap;

/**
 * The running counts behind {@link AgentStats}, kept by the parts of one agent as they act. Not
 * thread-safe: guarded by the agent's monitor, like every part. The fields are the meanings
 * {@link AgentStats} documents.
 */
final class AgentCounters {
  long tasksStarted;
  long tasksCompleted;
  long tasksFailed;
  long tasksRefused;
  long tasksSuspended;
  long shrinksAcknowledged;
  long eventsProcessed;
  /** Input bytes of tasks by where they were read. */
  final InputBytes inputs = new InputBytes();
  long peerFallbacks;
  long sharedFetches;
  long duplicateDecisions;
  /** Duplicate PlaceTasks answered with the latest event of their attempt. */
  long duplicatesAnswered;
  /** Decisions addressed to another agent instance of this node id. */
  long foreignDecisions;
  /** Decisions refused for an epoch absurdly far above the highest seen. */
  long absurdEpochs;
  /** ResyncNode decisions obeyed. */
  long resyncs;
  /** Queued attempts withdrawn (WITHDRAWN emitted). */
  long tasksWithdrawn;
  /** Attempts stopped for a preemption (PREEMPTED emitted). */
  long tasksPreempted;
  long staleDecisions;
  long ignoredDecisions;
  long filesEvictedOnRequest;
  long evictionsRefused;
  long replicatedBytes;
  long outputsCached;
  long outputBytesCached;
  long outputsNotCached;
  private final Map<String, Long> refusals = new TreeMap<>();

  /** Counts one refused decision of {@code kind} (a {@link Refusal} constant or a guard's). */
  void refusal(String kind) {
    refusals.merge(kind, 1L, Long::sum);
  }

  Map<String, Long> refusals() {
    return new TreeMap<>(refusals);
  }

  /** The counts now, with the gauges the caller measures. */
  AgentStats snapshot(int running, int queued, long cacheUsedBytes, int cacheFiles) {
    return new AgentStats(tasksStarted, tasksCompleted, tasksFailed, tasksRefused, inputs.local,
        inputs.peer, inputs.storage, peerFallbacks, sharedFetches, duplicateDecisions, staleDecisions,
        ignoredDecisions, filesEvictedOnRequest, evictionsRefused, replicatedBytes, running,
        cacheUsedBytes, cacheFiles, tasksSuspended, shrinksAcknowledged, eventsProcessed,
        duplicatesAnswered, foreignDecisions, absurdEpochs, resyncs, queued, tasksWithdrawn,
        outputsCached, outputBytesCached, outputsNotCached, tasksPreempted);
  }
}
