package io.locus.core.staging;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * A storage node's reserved transfers (hypergraph spec §1.6): non-overlapping half-open intervals
 * [start, end), kept sorted by start, so a first-fit search or a reservation is O(log n + gaps
 * visited). Zero-length intervals take no storage time and are never stored.
 */
public final class GanttChart {
  private final TreeMap<Double, Double> intervals = new TreeMap<>();

  /**
   * FIRST_FREE_SLOT (D9): the earliest t ≥ notBefore such that [t, t + len) overlaps no reserved
   * interval; gaps between reservations are used.
   */
  public double firstFreeSlot(double notBefore, double len) {
    if (len <= 0) {
      return notBefore;
    }
    double t = notBefore;
    Map.Entry<Double, Double> prev = intervals.floorEntry(t);
    if (prev != null && prev.getValue() > t) {
      t = prev.getValue();
    }
    for (Map.Entry<Double, Double> next : intervals.tailMap(t, true).entrySet()) {
      if (next.getKey() >= t + len) {
        break;
      }
      t = Math.max(t, next.getValue());
    }
    return t;
  }

  /** Reserves [start, end); refuses an overlap, which would break the one-transfer-at-a-time rule. */
  public void reserve(double start, double end) {
    if (!(end >= start)) {
      throw new IllegalArgumentException("interval ends before it starts: [" + start + ", " + end + ")");
    }
    if (end == start) {
      return;
    }
    Map.Entry<Double, Double> prev = intervals.floorEntry(start);
    Map.Entry<Double, Double> next = intervals.ceilingEntry(start);
    if ((prev != null && prev.getValue() > start) || (next != null && next.getKey() < end)) {
      throw new IllegalStateException("[" + start + ", " + end + ") overlaps a reserved transfer");
    }
    intervals.put(start, end);
  }

  /** Drops the interval starting at {@code start}; returns whether there was one. */
  public boolean release(double start) {
    return intervals.remove(start) != null;
  }

  /** Drops every interval ending before {@code now} (they can no longer block a slot at ≥ now). */
  public List<double[]> prune(double now) {
    List<double[]> dropped = new ArrayList<>();
    // sorted by start and disjoint, hence sorted by end too: stop at the first live one
    for (Iterator<Map.Entry<Double, Double>> it = intervals.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<Double, Double> e = it.next();
      if (e.getValue() >= now) {
        break;
      }
      dropped.add(new double[] {e.getKey(), e.getValue()});
      it.remove();
    }
    return dropped;
  }

  /** Start → end of every reservation, by start. */
  public NavigableMap<Double, Double> intervals() {
    return Collections.unmodifiableNavigableMap(intervals);
  }

  public int size() {
    return intervals.size();
  }

  public boolean isEmpty() {
    return intervals.isEmpty();
  }
}
