package io.locus.agent;

import java.util.LinkedHashSet;

/**
 * The last {@code capacity} decision ids, oldest forgotten first. Replays after a scheduler restart
 * or an at-least-once redelivery arrive close to the original, so a bounded window deduplicates them
 * without the memory growing with the agent's lifetime. Not thread-safe.
 */
final class DecisionWindow {
  private final int capacity;
  private final LinkedHashSet<String> ids = new LinkedHashSet<>();

  DecisionWindow(int capacity) {
    this.capacity = capacity;
  }

  /** Records the id; false when it is already in the window. */
  boolean add(String id) {
    if (!ids.add(id)) {
      return false;
    }
    if (ids.size() > capacity) {
      ids.remove(ids.iterator().next());
    }
    return true;
  }

  int size() {
    return ids.size();
  }
}
