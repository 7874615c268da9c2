package io.locus.core.cache;

import java.util.LinkedHashSet;
import java.util.function.Predicate;

/** First in, first out: the oldest insertion leaves first; hits do not refresh a file. O(1) but for pins. */
public final class Fifo implements EvictionPolicy {
  private final LinkedHashSet<String> order = new LinkedHashSet<>();

  @Override
  public String name() {
    return "FIFO";
  }

  @Override
  public void onInsert(String file, long bytes) {
    order.remove(file);
    order.add(file);
  }

  @Override
  public void onAccess(String file) {
    // insertion order only (data-diffusion spec §3.1)
  }

  @Override
  public void onRemove(String file) {
    order.remove(file);
  }

  @Override
  public String victim(Predicate<String> pinned) {
    for (String f : order) {
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
