package io.locus.core.state;

import io.locus.core.model.Task;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The tasks of a pool that wait out their retry backoff ({@link RetryBackoff}): each is the next
 * attempt of a failed task, not placeable until its release time (pool record clock, seconds).
 * Kept apart from the wait queue so that no policy can place one, and in release order (time,
 * then queue rank) so that releases happen in the same order in a restored pool.
 */
public final class BackoffQueue {
  /** A parked attempt and when it may be placed (pool record clock, seconds). */
  public record Entry(Task task, double until) {}

  private static final Comparator<Entry> ORDER = Comparator.comparingDouble(Entry::until)
      .thenComparingLong(e -> e.task().queueRank());

  private final Map<String, Entry> byId = new HashMap<>();
  private final TreeSet<Entry> order = new TreeSet<>(ORDER);

  void park(Task t, double until) {
    Entry old = byId.put(t.taskId(), new Entry(t, until));
    if (old != null) {
      order.remove(old);
    }
    order.add(byId.get(t.taskId()));
  }

  Entry get(String taskId) {
    return byId.get(taskId);
  }

  boolean contains(String taskId) {
    return byId.containsKey(taskId);
  }

  /** Removes the task's entry; null if it was not parked. */
  Entry remove(String taskId) {
    Entry e = byId.remove(taskId);
    if (e != null) {
      order.remove(e);
    }
    return e;
  }

  /** Removes and returns the entries whose release time is at or before {@code now}, in order. */
  List<Entry> takeDue(double now) {
    List<Entry> due = new ArrayList<>();
    while (!order.isEmpty() && order.first().until() <= now) {
      Entry e = order.pollFirst();
      byId.remove(e.task().taskId());
      due.add(e);
    }
    return due;
  }

  /** The earliest release time, or NaN when nothing is parked. */
  double next() {
    return order.isEmpty() ? Double.NaN : order.first().until();
  }

  int size() {
    return byId.size();
  }

  /** Every entry, in release order. */
  Collection<Entry> all() {
    return Collections.unmodifiableCollection(order);
  }
}
