package io.locus.agent;

import io.locus.schemas.EventRange;
import io.locus.schemas.EventSegment;
import io.locus.schemas.PlaceTask;
import java.util.ArrayList;
import java.util.List;

/**
 * Rules and cost arithmetic of event-range tasks (spec cern-job-splitting §1.3). A placed range
 * must be non-empty with a named dataset; its segments, when present, cover it in order without
 * gaps, each with a finite non-negative cost per event.
 */
public final class EventRanges {
  private EventRanges() {}

  /** What is wrong with an event-range task's range and segments; null when nothing is. */
  public static String problem(PlaceTask p) {
    EventRange r = p.getEvents();
    if (r == null) {
      return null;
    }
    if (r.getDataset() == null || r.getDataset().isBlank() || r.getDataset().indexOf('\0') >= 0) {
      return "the event range needs a dataset";
    }
    if (r.getStart() < 0 || r.getEnd() <= r.getStart()) {
      return "event range [" + r.getStart() + ", " + r.getEnd() + ") is empty or negative";
    }
    List<EventSegment> segs = p.getEventSegments();
    if (segs.isEmpty()) {
      return finite("computeSeconds", p.getComputeSeconds());
    }
    long at = r.getStart();
    for (int i = 0; i < segs.size(); i++) {
      EventSegment s = segs.get(i);
      if (s.getStart() != at || s.getEnd() <= s.getStart()) {
        return "eventSegments[" + i + "] [" + s.getStart() + ", " + s.getEnd()
            + ") does not continue the range at " + at;
      }
      String bad = finite("eventSegments[" + i + "].secondsPerEvent", s.getSecondsPerEvent());
      if (bad != null) {
        return bad;
      }
      at = s.getEnd();
    }
    if (at != r.getEnd()) {
      return "eventSegments end at " + at + ", the range at " + r.getEnd();
    }
    return null;
  }

  private static String finite(String what, double v) {
    return Double.isFinite(v) && v >= 0 ? null : what + " must be finite and >= 0 (got " + v + ")";
  }

  /**
   * The planned per-event cost of a placed range: its segments, or, without segments, the task's
   * compute seconds spread evenly over the range. Call {@link #problem} first.
   */
  public static Costs costs(PlaceTask p) {
    EventRange r = p.getEvents();
    List<long[]> bounds = new ArrayList<>();
    List<Double> perEvent = new ArrayList<>();
    if (p.getEventSegments().isEmpty()) {
      bounds.add(new long[] {r.getStart(), r.getEnd()});
      perEvent.add(p.getComputeSeconds() / (r.getEnd() - r.getStart()));
    } else {
      for (EventSegment s : p.getEventSegments()) {
        bounds.add(new long[] {s.getStart(), s.getEnd()});
        perEvent.add(s.getSecondsPerEvent());
      }
    }
    return new Costs(bounds, perEvent);
  }

  /** Per-event costs over maximal sub-ranges of constant cost, in event order. */
  public static final class Costs {
    private final long[] starts;
    private final long[] ends;
    private final double[] perEvent;

    Costs(List<long[]> bounds, List<Double> costs) {
      int n = bounds.size();
      starts = new long[n];
      ends = new long[n];
      perEvent = new double[n];
      for (int i = 0; i < n; i++) {
        starts[i] = bounds.get(i)[0];
        ends[i] = bounds.get(i)[1];
        perEvent[i] = costs.get(i);
      }
    }

    /** COST([from, to)): seconds to process those events. */
    public double seconds(long from, long to) {
      double sum = 0;
      for (int i = 0; i < starts.length; i++) {
        long a = Math.max(from, starts[i]);
        long b = Math.min(to, ends[i]);
        if (b > a) {
          sum += (b - a) * perEvent[i];
        }
      }
      return sum;
    }

    /**
     * pos(t): the first unprocessed event after {@code elapsed} seconds of processing from
     * {@code from}, i.e. the largest m &le; {@code to} with COST([from, m)) &le; elapsed.
     */
    public long position(long from, long to, double elapsed) {
      long pos = from;
      double left = elapsed;
      for (int i = 0; i < starts.length && pos < to; i++) {
        long a = Math.max(pos, starts[i]);
        long b = Math.min(to, ends[i]);
        if (b <= a) {
          continue;
        }
        double c = perEvent[i];
        long n = b - a;
        if (c <= 0 || left >= n * c) {
          left -= c * n;
          pos = b;
        } else {
          return a + (long) Math.floor(left / c);
        }
      }
      return pos;
    }
  }
}
