package io.locus.core.split;

import java.util.List;

/**
 * One subjob of a split pool (queued, running, held, or stopped and awaiting its
 * acknowledgement), one entry of its state ({@link SplitJournal}).
 *
 * @param id {@code jobId/k}
 * @param jobId its job
 * @param range its events [start, end)
 * @param node the node it is assigned to (running, or held until an acknowledgement), or null
 * @param dispatch model dispatch time; NaN while held or not assigned
 * @param materialised events [start, materialised) are applied to the cache model
 * @param segments per-event costs fixed at its latest dispatch
 * @param preemptible a cached piece may preempt it (OUT_OF_ORDER)
 * @param priority a starvation-priority subjob: never preempted
 * @param origin OUT_OF_ORDER: the node whose private queue it came from; null = the global queue
 * @param cachedOn the node that held its data when it was cut, or null
 * @param awaitsAck the stopped subjob whose acknowledgement may still move its range, or null
 * @param stop its own unacknowledged SUSPEND or SHRINK, or null
 * @param stoppedOn the node it was suspended on, while the suspension is unacknowledged
 * @param queue the queue it waits in, or null: {@code node/<id>} (a node's private queue),
 *     {@code suspended} (its job's suspended list), or a policy's own queue ({@code global},
 *     {@code resume})
 * @param rank its position in that queue (increasing from front to back; 0 when not queued)
 */
public record SubjobEntry(String id, String jobId, EventSpan range, String node, double dispatch,
    long materialised, List<CostSegment> segments, boolean preemptible, boolean priority,
    String origin, String cachedOn, String awaitsAck, Stop stop, String stoppedOn, String queue,
    long rank) {
  public SubjobEntry {
    segments = List.copyOf(segments);
  }

  /**
   * A SUSPEND or SHRINK sent to the agent and not acknowledged yet.
   *
   * @param suspend SUSPEND (else SHRINK)
   * @param modelPos where the model stopped it (SUSPEND) or the requested end (SHRINK)
   * @param originalEnd the subjob's end before the stop
   */
  public record Stop(boolean suspend, long modelPos, long originalEnd) {}
}
