package io.locus.core.split;

/**
 * A contiguous, half-open run of event indices [start, end) (an event segment). Empty when
 * start == end; never inverted.
 */
public record EventSpan(long start, long end) implements Comparable<EventSpan> {
  public EventSpan {
    if (start < 0 || end < start) {
      throw new IllegalArgumentException("bad event range [" + start + ", " + end + ")");
    }
  }

  public static EventSpan of(long start, long end) {
    return new EventSpan(start, end);
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

  public boolean intersects(EventSpan o) {
    return intersects(o.start, o.end);
  }

  /** The overlap, or null when there is none. */
  public EventSpan intersection(EventSpan o) {
    long s = Math.max(start, o.start);
    long e = Math.min(end, o.end);
    return s < e ? new EventSpan(s, e) : null;
  }

  @Override
  public int compareTo(EventSpan o) {
    int c = Long.compare(start, o.start);
    return c != 0 ? c : Long.compare(end, o.end);
  }

  @Override
  public String toString() {
    return "[" + start + "," + end + ")";
  }
}
