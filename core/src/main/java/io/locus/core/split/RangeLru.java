package io.locus.core.split;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@code LRU_RANGE} (spec §3.1, D7): one node's disk cache as disjoint contiguous event-range
 * entries, each with a {@code lastUse} time and a third-remote-access counter (§3.2).
 *
 * <ul>
 *   <li>Touch splits entries at the touched range's bounds and stamps the parts inside.</li>
 *   <li>Insert evicts until the range fits, then adds it.</li>
 *   <li>Evict takes the entry with the smallest {@code lastUse} (tie: lowest start) and trims it
 *       from its high end, as few events as needed, then repeats.</li>
 *   <li>The pinned range (the running subjob's) is never evicted. When everything else is gone,
 *       an insert keeps the prefix that fits and the rest of the range stays uncached (the events
 *       stream through): a subjob longer than the free cache cannot evict itself.</li>
 *   <li>Adjacent entries merge exactly when their {@code lastUse} and counter are equal, so the
 *       entry list is canonical (same content, same entries).</li>
 * </ul>
 * The capacity is never exceeded. Not thread-safe.
 */
public final class RangeLru {
  /** Hears cached events appear and disappear (the pool-wide {@link CoverageIndex}). */
  public interface Listener {
    void added(long start, long end);

    void removed(long start, long end);
  }

  /** A read-only view of an entry. */
  public record Entry(EventSpan range, double lastUse, int remoteCount) {}

  private static final class E {
    long start;
    long end;
    double lastUse;
    int remote;

    E(long start, long end, double lastUse, int remote) {
      this.start = start;
      this.end = end;
      this.lastUse = lastUse;
      this.remote = remote;
    }
  }

  private static final Comparator<E> BY_USE = (a, b) -> {
    int c = Double.compare(a.lastUse, b.lastUse);
    return c != 0 ? c : Long.compare(a.start, b.start);
  };

  private final long capacity;
  private long used;
  private final TreeMap<Long, E> byStart = new TreeMap<>();
  private final TreeSet<E> byUse = new TreeSet<>(BY_USE);
  /** Coverage changes (insert, remove) so far, and the last few changed ranges, for memos. */
  private long version;
  private final long[] changed = new long[3 * 64];
  private long pinStart = -1;
  private long pinEnd = -1;
  private Listener listener;
  /** Starts of entries created, changed or removed since last taken; null when not tracked. */
  private TreeSet<Long> changedStarts;

  public RangeLru(long capacityEvents) {
    if (capacityEvents < 0) {
      throw new IllegalArgumentException("negative cache capacity " + capacityEvents);
    }
    this.capacity = capacityEvents;
  }

  /** Counts coverage changes; touches do not change it. */
  public long version() {
    return version;
  }

  /**
   * True when events of [start, end) may have been added or removed since {@code since} (a value
   * of {@link #version()}); false only when that is certain.
   */
  public boolean changedSince(long since, long start, long end) {
    if (since == version) {
      return false;
    }
    int keep = changed.length / 3;
    if (version - since > keep) {
      return true;
    }
    for (long v = since + 1; v <= version; v++) {
      int i = (int) (v % keep) * 3;
      if (changed[i] != v) {
        return true;
      }
      if (changed[i + 1] < end && start < changed[i + 2]) {
        return true;
      }
    }
    return false;
  }

  /** The ranges changed since {@code since}, or null when the log no longer reaches back. */
  public List<EventSpan> changedRanges(long since) {
    int keep = changed.length / 3;
    if (since > version || version - since > keep) {
      return null;
    }
    List<EventSpan> out = new ArrayList<>((int) (version - since));
    for (long v = since + 1; v <= version; v++) {
      int i = (int) (v % keep) * 3;
      if (changed[i] != v) {
        return null;
      }
      out.add(new EventSpan(changed[i + 1], changed[i + 2]));
    }
    return out;
  }

  private void record(long start, long end) {
    version++;
    int i = (int) (version % (changed.length / 3)) * 3;
    changed[i] = version;
    changed[i + 1] = start;
    changed[i + 2] = end;
  }

  void listener(Listener l) {
    this.listener = l;
  }

  /** Whether to note which entries change, for a journal ({@link #takeChangedStarts}). */
  void trackChanges(boolean on) {
    changedStarts = on ? new TreeSet<>() : null;
  }

  /** The starts of the entries created, changed or removed since the last call, increasing. */
  List<Long> takeChangedStarts() {
    if (changedStarts == null || changedStarts.isEmpty()) {
      return List.of();
    }
    List<Long> l = new ArrayList<>(changedStarts);
    changedStarts.clear();
    return l;
  }

  /** The entry starting at {@code start}, or null. */
  Entry entryAt(long start) {
    E e = byStart.get(start);
    return e == null ? null : new Entry(new EventSpan(e.start, e.end), e.lastUse, e.remote);
  }

  private void changed(long start) {
    if (changedStarts != null) {
      changedStarts.add(start);
    }
  }

  public long capacity() {
    return capacity;
  }

  public long used() {
    return used;
  }

  public int entryCount() {
    return byStart.size();
  }

  /** Entries by increasing start. */
  public List<Entry> entries() {
    List<Entry> out = new ArrayList<>(byStart.size());
    for (E e : byStart.values()) {
      out.add(new Entry(new EventSpan(e.start, e.end), e.lastUse, e.remote));
    }
    return out;
  }

  public EventSpan pinned() {
    return pinStart < 0 ? null : new EventSpan(pinStart, pinEnd);
  }

  /** Protects [start, end) from eviction (the running subjob); replaces any previous pin. */
  public void pin(long start, long end) {
    pinStart = start;
    pinEnd = end;
  }

  public void unpin() {
    pinStart = -1;
    pinEnd = -1;
  }

  public boolean contains(long event) {
    Map.Entry<Long, E> f = byStart.floorEntry(event);
    return f != null && f.getValue().end > event;
  }

  /** Cached events within [start, end). */
  public long cachedCount(long start, long end) {
    long n = 0;
    for (EventSpan r : cachedParts(start, end)) {
      n += r.length();
    }
    return n;
  }

  /** The cached parts of [start, end), by increasing start (adjacent entries are not joined). */
  public List<EventSpan> cachedParts(long start, long end) {
    List<EventSpan> out = new ArrayList<>();
    if (start >= end) {
      return out;
    }
    Map.Entry<Long, E> f = byStart.floorEntry(start);
    Long from = f != null && f.getValue().end > start ? f.getKey() : byStart.ceilingKey(start);
    if (from == null) {
      return out;
    }
    for (E e : byStart.tailMap(from, true).values()) {
      if (e.start >= end) {
        break;
      }
      long a = Math.max(start, e.start);
      long b = Math.min(end, e.end);
      if (a < b) {
        out.add(new EventSpan(a, b));
      }
    }
    return out;
  }

  /** Reading the cached parts of [start, end) at time t. */
  public void touch(long start, long end, double t) {
    if (start >= end) {
      return;
    }
    splitAt(start);
    splitAt(end);
    for (E e : new ArrayList<>(byStart.subMap(start, true, end, false).values())) {
      byUse.remove(e);
      e.lastUse = t;
      byUse.add(e);
      changed(e.start);
    }
    normalize(start, end);
  }

  /**
   * Caches [start, end) at time t: its cached parts are touched, the missing parts are added after
   * evicting what is needed. Returns the number of events added (less than missing only when the
   * pinned range leaves no room).
   */
  public long insert(long start, long end, double t) {
    if (start >= end) {
      return 0;
    }
    touch(start, end, t);
    List<EventSpan> gaps = gaps(start, end);
    long need = 0;
    for (EventSpan g : gaps) {
      need += g.length();
    }
    if (need == 0) {
      return 0;
    }
    long free = capacity - used;
    if (need > free) {
      evict(need - free);
      gaps = gaps(start, end);
      free = capacity - used;
    }
    long added = 0;
    for (EventSpan g : gaps) {
      long take = Math.min(g.length(), free - added);
      if (take <= 0) {
        break;
      }
      E e = new E(g.start(), g.start() + take, t, 0);
      byStart.put(e.start, e);
      byUse.add(e);
      changed(e.start);
      used += take;
      added += take;
      record(e.start, e.end);
      if (listener != null) {
        listener.added(e.start, e.end);
      }
    }
    normalize(start, end);
    return added;
  }

  /** Drops every cached event of [start, end) (corrections, node loss). Returns how many. */
  public long remove(long start, long end) {
    if (start >= end) {
      return 0;
    }
    splitAt(start);
    splitAt(end);
    long removed = 0;
    for (E e : new ArrayList<>(byStart.subMap(start, true, end, false).values())) {
      byStart.remove(e.start);
      byUse.remove(e);
      changed(e.start);
      used -= e.end - e.start;
      removed += e.end - e.start;
      record(e.start, e.end);
      if (listener != null) {
        listener.removed(e.start, e.end);
      }
    }
    return removed;
  }

  /** Drops everything (node removed). */
  public void clear() {
    remove(0, Long.MAX_VALUE);
  }

  /**
   * Evicts up to {@code events} events by the LRU_RANGE rule, never from the pinned range.
   * Returns how many were evicted.
   */
  public long evict(long events) {
    long done = 0;
    while (done < events) {
      E victim = null;
      long vs = 0;
      long ve = 0;
      for (E e : byUse) {
        long s = e.start;
        long en = e.end;
        if (pinStart >= 0 && s < pinEnd && pinStart < en) {
          if (en > pinEnd) {
            s = Math.max(s, pinEnd);
          } else if (s < pinStart) {
            en = Math.min(en, pinStart);
          } else {
            continue; // wholly pinned
          }
        }
        victim = e;
        vs = s;
        ve = en;
        break;
      }
      if (victim == null) {
        break;
      }
      long take = Math.min(events - done, ve - vs);
      remove(ve - take, ve);
      done += take;
    }
    return done;
  }

  /**
   * Third-remote-access counting (§3.2, D29): one remote read by one subjob of the parts
   * {@code ranges} (increasing, disjoint) of this cache. Every entry overlapping them counts the
   * access once; an entry reaching {@code threshold} resets to 0 and the parts read from it are
   * returned (they are to be cached by the reader).
   */
  public List<EventSpan> remoteAccess(List<EventSpan> ranges, int threshold) {
    List<E> hit = new ArrayList<>();
    for (EventSpan r : ranges) {
      Map.Entry<Long, E> f = byStart.floorEntry(r.start());
      Long from = f != null && f.getValue().end > r.start() ? f.getKey()
          : byStart.ceilingKey(r.start());
      if (from == null) {
        continue;
      }
      for (E e : byStart.tailMap(from, true).values()) {
        if (e.start >= r.end()) {
          break;
        }
        if (hit.isEmpty() || hit.get(hit.size() - 1) != e) {
          hit.add(e);
        }
      }
    }
    List<EventSpan> replicate = new ArrayList<>();
    long lo = Long.MAX_VALUE;
    long hi = Long.MIN_VALUE;
    for (E e : hit) {
      e.remote++;
      changed(e.start);
      if (e.remote >= threshold) {
        e.remote = 0;
        for (EventSpan r : ranges) {
          long a = Math.max(r.start(), e.start);
          long b = Math.min(r.end(), e.end);
          if (a < b) {
            replicate.add(new EventSpan(a, b));
          }
        }
      }
      lo = Math.min(lo, e.start);
      hi = Math.max(hi, e.end);
    }
    if (!hit.isEmpty()) {
      normalize(lo, hi);
    }
    replicate.sort(null);
    return replicate;
  }

  /** The uncached parts of [start, end), increasing. */
  public List<EventSpan> gaps(long start, long end) {
    List<EventSpan> out = new ArrayList<>();
    long pos = start;
    for (EventSpan c : cachedParts(start, end)) {
      if (c.start() > pos) {
        out.add(new EventSpan(pos, c.start()));
      }
      pos = c.end();
    }
    if (pos < end) {
      out.add(new EventSpan(pos, end));
    }
    return out;
  }

  private void splitAt(long p) {
    Map.Entry<Long, E> f = byStart.floorEntry(p);
    if (f == null) {
      return;
    }
    E e = f.getValue();
    if (e.start < p && p < e.end) {
      E right = new E(p, e.end, e.lastUse, e.remote);
      byUse.remove(e);
      e.end = p;
      byUse.add(e);
      byStart.put(right.start, right);
      byUse.add(right);
      changed(e.start);
      changed(right.start);
    }
  }

  /** Merges adjacent equal entries overlapping or touching [from, to]. */
  private void normalize(long from, long to) {
    Map.Entry<Long, E> f = byStart.floorEntry(from);
    Long key = f != null ? f.getKey() : byStart.ceilingKey(from);
    if (key == null) {
      return;
    }
    Long lower = byStart.lowerKey(key);
    if (lower != null) {
      key = lower;
    }
    E cur = byStart.get(key);
    while (cur != null && cur.start <= to) {
      Map.Entry<Long, E> nx = byStart.higherEntry(cur.start);
      if (nx == null) {
        break;
      }
      E next = nx.getValue();
      if (next.start == cur.end && next.lastUse == cur.lastUse && next.remote == cur.remote) {
        byStart.remove(next.start);
        byUse.remove(next);
        byUse.remove(cur);
        cur.end = next.end;
        byUse.add(cur);
        changed(next.start);
        changed(cur.start);
      } else {
        cur = next;
      }
    }
  }

  /** Rebuilds an entry of a restored cache (entries must come in increasing order). */
  void restoreEntry(long start, long end, double lastUse, int remote) {
    Map.Entry<Long, E> last = byStart.lastEntry();
    if (start < 0 || end <= start || (last != null && last.getValue().end > start)) {
      throw new IllegalArgumentException("cached range [" + start + ", " + end + ") is empty, "
          + "negative or overlaps the previous one" + (last == null ? ""
          : " [" + last.getKey() + ", " + last.getValue().end + ")"));
    }
    if (used + (end - start) > capacity) {
      throw new IllegalArgumentException("cached ranges hold more than the cache's capacity of "
          + capacity + " events");
    }
    if (!(lastUse >= 0) || !Double.isFinite(lastUse) || remote < 0) {
      throw new IllegalArgumentException("cached range [" + start + ", " + end + ") has lastUse "
          + lastUse + " and remote count " + remote);
    }
    E e = new E(start, end, lastUse, remote);
    byStart.put(start, e);
    byUse.add(e);
    used += end - start;
    record(start, end);
    if (listener != null) {
      listener.added(start, end);
    }
  }
}
