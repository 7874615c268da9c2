package io.locus.core.split;

import io.locus.core.model.Ids;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The pool-wide interval index of spec §9: which nodes cache which events. A step function over
 * the event axis, keyed by the start of each elementary segment, whose value is the sorted set of
 * nodes caching every event of the segment up to the next key. SPLIT_BY_CACHE and remote-read
 * lookups are O(log M + k). Kept canonical: equal neighbouring steps are merged.
 */
public final class CoverageIndex {
  private static final String[] NONE = new String[0];

  /** One elementary segment with its holders (sorted by {@link Ids#ORDER}). */
  public record Segment(EventSpan range, List<String> holders) {}

  private final TreeMap<Long, String[]> steps = new TreeMap<>();

  /** A listener that records one node's cache changes here. */
  RangeLru.Listener listenerFor(String node) {
    return new RangeLru.Listener() {
      @Override
      public void added(long start, long end) {
        add(node, start, end);
      }

      @Override
      public void removed(long start, long end) {
        remove(node, start, end);
      }
    };
  }

  public void add(String node, long start, long end) {
    change(node, start, end, true);
  }

  public void remove(String node, long start, long end) {
    change(node, start, end, false);
  }

  /** Elementary segments of [start, end), in order, including those nobody caches. */
  public List<Segment> segments(long start, long end) {
    List<Segment> out = new ArrayList<>();
    if (start >= end) {
      return out;
    }
    long pos = start;
    Map.Entry<Long, String[]> f = steps.floorEntry(start);
    String[] cur = f == null ? NONE : f.getValue();
    for (Map.Entry<Long, String[]> e : steps.subMap(start, false, end, false).entrySet()) {
      out.add(new Segment(new EventSpan(pos, e.getKey()), List.of(cur)));
      pos = e.getKey();
      cur = e.getValue();
    }
    out.add(new Segment(new EventSpan(pos, end), List.of(cur)));
    return out;
  }

  /** Number of steps (keys) of the function: for tests of canonical form. */
  public int stepCount() {
    return steps.size();
  }

  private String[] at(long p) {
    Map.Entry<Long, String[]> f = steps.floorEntry(p);
    return f == null ? NONE : f.getValue();
  }

  private void change(String node, long start, long end, boolean add) {
    if (start >= end) {
      return;
    }
    steps.putIfAbsent(end, at(end));
    steps.putIfAbsent(start, at(start));
    for (Map.Entry<Long, String[]> e : steps.subMap(start, true, end, false).entrySet()) {
      e.setValue(add ? with(e.getValue(), node) : without(e.getValue(), node));
    }
    // canonical form: drop keys whose value equals their predecessor's (and leading empty steps)
    Long k = steps.lowerKey(start);
    k = k == null ? steps.firstKey() : k;
    Long lower = steps.lowerKey(k);
    String[] before = lower == null ? NONE : steps.get(lower);
    for (var it = steps.tailMap(k, true).entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<Long, String[]> e = it.next();
      if (e.getKey() > end) {
        break;
      }
      if (Arrays.equals(before, e.getValue())) {
        it.remove();
      } else {
        before = e.getValue();
      }
    }
  }

  private static String[] with(String[] a, String node) {
    int i = Arrays.binarySearch(a, node, Ids.ORDER);
    if (i >= 0) {
      return a;
    }
    int at = -i - 1;
    String[] b = new String[a.length + 1];
    System.arraycopy(a, 0, b, 0, at);
    b[at] = node;
    System.arraycopy(a, at, b, at + 1, a.length - at);
    return b;
  }

  private static String[] without(String[] a, String node) {
    int i = Arrays.binarySearch(a, node, Ids.ORDER);
    if (i < 0) {
      return a;
    }
    if (a.length == 1) {
      return NONE;
    }
    String[] b = new String[a.length - 1];
    System.arraycopy(a, 0, b, 0, i);
    System.arraycopy(a, i + 1, b, i, a.length - i - 1);
    return b;
  }
}
