package io.locus.core.split;

/**
 * A contiguous, half-open run of event indices [start, end) (an event segment). Empty when
 * start == end; never inverted.
 */
public record EventRange(long start, long end) implements Comparable<EventRange> {
  public EventRange {
    if (start < 0 || end < start) {
      throw new IllegalArgumentException("bad event range [" + start + ", " + end + ")");
    }
  }

  public static EventRange of(long start, long end) {
    return new EventRange(start, end);
  }

  public long length() {
    return end - start;
  }

  public boolean isEmpty() {
    return end == start;
  }

  public boolean contains(long event) {
    return event >= start && event < end;
  }

  public boolean intersects(long s, long e) {
    return start < e && s < end && s < e;
  }

  public boolean intersects(EventRange o) {
    return intersects(o.start, o.end);
  }

  /** The overlap, or null when there is none. */
  public EventRange intersection(EventRange o) {
    long s = Math.max(start, o.start);
    long e = Math.min(end, o.end);
    return s < e ? new EventRange(s, e) : null;
  }

  @Override
  public int compareTo(EventRange o) {
    int c = Long.compare(start, o.start);
    return c != 0 ? c : Long.compare(end, o.end);
  }

  @Override
  public String toString() {
    return "[" + start + "," + end + ")";
  }
}
