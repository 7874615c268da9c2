package io.locus.core.cache;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Least frequently used: the fewest accesses leave first; the count starts at 1 on insert; ties go
 * to the least recently used. Frequency buckets in a list sorted by count, each bucket in the order
 * its files entered it (= their last access), so every update is O(1).
 */
public final class Lfu implements EvictionPolicy {
  private static final class Bucket {
    final long count;
    final LinkedHashSet<String> files = new LinkedHashSet<>();
    Bucket prev;
    Bucket next;

    Bucket(long count) {
      this.count = count;
    }
  }

  private final Map<String, Bucket> where = new HashMap<>();
  private Bucket head;

  @Override
  public String name() {
    return "LFU";
  }

  /** The file's access count, 0 when it is not cached. */
  public long count(String file) {
    Bucket b = where.get(file);
    return b == null ? 0 : b.count;
  }

  @Override
  public void onInsert(String file, long bytes) {
    onRemove(file); // a re-inserted file starts over at 1
    Bucket b = head;
    if (b == null || b.count != 1) {
      b = new Bucket(1);
      b.next = head;
      if (head != null) {
        head.prev = b;
      }
      head = b;
    }
    b.files.add(file);
    where.put(file, b);
  }

  @Override
  public void onAccess(String file) {
    Bucket b = where.get(file);
    if (b == null) {
      return;
    }
    Bucket nb = b.next;
    if (nb == null || nb.count != b.count + 1) {
      nb = new Bucket(b.count + 1);
      nb.prev = b;
      nb.next = b.next;
      if (b.next != null) {
        b.next.prev = nb;
      }
      b.next = nb;
    }
    b.files.remove(file);
    nb.files.add(file);
    where.put(file, nb);
    if (b.files.isEmpty()) {
      unlink(b);
    }
  }

  @Override
  public void onRemove(String file) {
    Bucket b = where.remove(file);
    if (b != null) {
      b.files.remove(file);
      if (b.files.isEmpty()) {
        unlink(b);
      }
    }
  }

  @Override
  public String victim(Predicate<String> pinned) {
    for (Bucket b = head; b != null; b = b.next) {
      for (String f : b.files) {
        if (!pinned.test(f)) {
          return f;
        }
      }
    }
    return null;
  }

  @Override
  public void clear() {
    where.clear();
    head = null;
  }

  private void unlink(Bucket b) {
    if (b.prev != null) {
      b.prev.next = b.next;
    } else {
      head = b.next;
    }
    if (b.next != null) {
      b.next.prev = b.prev;
    }
  }
}
