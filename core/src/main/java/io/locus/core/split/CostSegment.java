package io.locus.core.split;

import java.util.List;

/**
 * A maximal sub-range of a subjob with one per-event cost, fixed at dispatch (spec §1.3).
 *
 * @param range the events
 * @param source where they are read from
 * @param peer the node whose cache is read when {@code source} is REMOTE, else null
 * @param secondsPerEvent the service cost of each event of the range
 * @param cacheAfterRead true when the reading node keeps the events in its cache (tape reads of the
 *     caching policies; remote reads on which the third-remote-access rule fired)
 */
public record CostSegment(EventSpan range, Source source, String peer, double secondsPerEvent,
    boolean cacheAfterRead) {
  public CostSegment {
    if (range == null || source == null) {
      throw new IllegalArgumentException("range and source are required");
    }
    if ((source == Source.REMOTE) != (peer != null)) {
      throw new IllegalArgumentException("a peer is given exactly for REMOTE segments");
    }
    if (!(secondsPerEvent > 0) || !Double.isFinite(secondsPerEvent)) {
      throw new IllegalArgumentException("seconds per event must be finite and > 0");
    }
  }

  /** Total cost of {@code segments} restricted to [from, to). */
  public static double cost(List<CostSegment> segments, long from, long to) {
    double sum = 0;
    for (CostSegment s : segments) {
      long a = Math.max(from, s.range.start());
      long b = Math.min(to, s.range.end());
      if (a < b) {
        sum += (b - a) * s.secondsPerEvent;
      }
    }
    return sum;
  }

  /** Total cost of every segment. */
  public static double cost(List<CostSegment> segments) {
    return cost(segments, Long.MIN_VALUE, Long.MAX_VALUE);
  }
}
