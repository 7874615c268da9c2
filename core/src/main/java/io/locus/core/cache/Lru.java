package io.locus.core.cache;

import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.function.Predicate;

/** Least recently used: insertion and every hit move a file to the young end. O(1) but for pins. */
public final class Lru implements EvictionPolicy {
  private final LinkedHashSet<String> order = new LinkedHashSet<>();

  @Override
  public String name() {
    return "LRU";
  }

  @Override
  public void onInsert(String file, long bytes) {
    order.remove(file);
    order.add(file);
  }

  @Override
  public void onAccess(String file) {
    if (order.remove(file)) {
      order.add(file);
    }
  }

  @Override
  public void onRemove(String file) {
    order.remove(file);
  }

  @Override
  public String victim(Predicate<String> pinned) {
    // Pinned files are skipped, not moved: they keep their age for when they are released.
    for (Iterator<String> it = order.iterator(); it.hasNext(); ) {
      String f = it.next();
      if (!pinned.test(f)) {
        return f;
      }
    }
    return null;
  }

  @Override
  public void clear() {
    order.clear();
  }
}
