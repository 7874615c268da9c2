package io.locus.agent;

import io.locus.schemas.EventRange;
import io.locus.schemas.TaskEventType;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What event-range attempts processed here: the end each recently ended attempt reported (to answer
 * a shrink or suspend that arrives after the end), and the log of processed ranges (so tests can
 * check every event was processed exactly once). Both are bounded. Guarded by the agent's monitor.
 */
final class RangeLedger {
  /** How many processed ranges the log keeps (oldest dropped first). */
  static final int PROCESSED_LOG = 100_000;

  private final Map<String, Long> endedAt;
  private final Deque<NodeAgent.ProcessedRange> processed = new ArrayDeque<>();
  private final AgentCounters counters;

  /** @param remembered how many ended attempts are remembered (the dedupe window) */
  RangeLedger(int remembered, AgentCounters counters) {
    this.counters = counters;
    this.endedAt = new LinkedHashMap<>() {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
        return size() > remembered;
      }
    };
  }

  /**
   * Records the end of an event-range run.
   *
   * @param processedEnd the first event not processed, as the run or its stop said
   * @return the range processed, [start, processedEnd) clamped to the placed range
   */
  EventRange ended(AttemptRun t, long processedEnd, TaskEventType how) {
    EventRange r = t.range;
    long end = Math.max(r.getStart(), Math.min(processedEnd, r.getEnd()));
    endedAt.put(t.key, end);
    if (end > r.getStart()) {
      counters.eventsProcessed += end - r.getStart();
      processed.addLast(new NodeAgent.ProcessedRange(t.place.getJobId(), t.place.getTaskId(),
          t.place.getAttempt(), r.getDataset(), r.getStart(), end, how));
      if (processed.size() > PROCESSED_LOG) {
        processed.removeFirst();
      }
    }
    return new EventRange(r.getDataset(), r.getStart(), end);
  }

  /** The end attempt {@code key} reported when it ended here recently; null otherwise. */
  Long endOf(String key) {
    return endedAt.get(key);
  }

  List<NodeAgent.ProcessedRange> processed() {
    return List.copyOf(processed);
  }
}
