package io.locus.core.split;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;

/**
 * A FIFO of times a policy remembers (OUT_OF_ORDER's starvation timers, ADAPTIVE_DELAY's arrival
 * window), one {@link PolicyEntry.TimeMark} each, so a push or a pop writes one entry.
 */
final class TimeQueue {
  private final String name;
  private final Changes changes;
  private final ArrayDeque<PolicyEntry.TimeMark> marks = new ArrayDeque<>();

  TimeQueue(String name, Changes changes) {
    this.name = name;
    this.changes = changes;
  }

  void addLast(double t) {
    long seq = marks.isEmpty() ? 0 : marks.peekLast().seq() + 1;
    PolicyEntry.TimeMark m = new PolicyEntry.TimeMark(name, seq, t);
    marks.addLast(m);
    changes.memory(m);
  }

  boolean isEmpty() {
    return marks.isEmpty();
  }

  int size() {
    return marks.size();
  }

  double peekFirst() {
    return marks.peekFirst().time();
  }

  void pollFirst() {
    changes.forget(marks.pollFirst().key());
  }

  void export(Consumer<PolicyEntry> out) {
    marks.forEach(out);
  }

  /** Takes this queue's marks out of {@code memory}, in order. */
  void restore(List<PolicyEntry> memory) {
    List<PolicyEntry.TimeMark> mine = new ArrayList<>();
    for (Iterator<PolicyEntry> it = memory.iterator(); it.hasNext(); ) {
      if (it.next() instanceof PolicyEntry.TimeMark m && m.queue().equals(name)) {
        mine.add(m);
        it.remove();
      }
    }
    mine.sort(Comparator.comparingLong(PolicyEntry.TimeMark::seq));
    marks.addAll(mine);
  }
}
