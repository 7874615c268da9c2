package io.locus.core.state;

import io.locus.core.model.Task;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A set of {@link DispatchIndex} entries in queue order, smaller and faster than a red-black tree
 * for this use: a sorted array of queue positions with lazy deletion. Arrivals come in queue order, so an add
 * is almost always an append; a removal clears its slot (found by binary search on the
 * positions, which removed slots keep) and the array is compacted when half of it is holes.
 * Add and remove are idempotent, as the {@code TreeSet} they replace.
 */
final class SeqList {
  private static final IndexEntry[] NO_ENTRIES = new IndexEntry[0];
  private static final long[] NO_LONGS = new long[0];

  private IndexEntry[] slots = NO_ENTRIES;
  private long[] seqs = NO_LONGS;
  /** Slots in use (live or cleared); every slot before {@code head} is cleared. */
  private int end;
  private int head;
  private int live;

  boolean isEmpty() {
    return live == 0;
  }

  IndexEntry first() {
    while (slots[head] == null) {
      head++;
    }
    return slots[head];
  }

  void add(IndexEntry e) {
    long q = e.seq;
    if (end > 0 && seqs[end - 1] >= q) {
      int i = Arrays.binarySearch(seqs, 0, end, q);
      if (i >= 0) {
        if (slots[i] == null) {
          slots[i] = e; // a cleared slot of the same position comes back
          live++;
          head = Math.min(head, i);
        }
        return;
      }
      insert(-i - 1, e);
      return;
    }
    insert(end, e);
  }

  private void insert(int at, IndexEntry e) {
    if (end == slots.length) {
      if (live < end / 2) {
        compact();
        at = insertionPoint(e.seq);
      }
      if (end == slots.length) {
        int cap = Math.max(4, end * 2);
        slots = Arrays.copyOf(slots, cap);
        seqs = Arrays.copyOf(seqs, cap);
      }
    }
    System.arraycopy(slots, at, slots, at + 1, end - at);
    System.arraycopy(seqs, at, seqs, at + 1, end - at);
    slots[at] = e;
    seqs[at] = e.seq;
    end++;
    live++;
    if (at <= head) {
      head = at;
    }
  }

  private int insertionPoint(long q) {
    int i = Arrays.binarySearch(seqs, 0, end, q);
    return i >= 0 ? i : -i - 1;
  }

  void remove(IndexEntry e) {
    if (live == 0) {
      return;
    }
    int i = Arrays.binarySearch(seqs, 0, end, e.seq);
    if (i < 0 || slots[i] == null) {
      return;
    }
    slots[i] = null;
    live--;
    if (i == head) {
      // skip the cleared prefix now: iterators start at head, and a queue served from its front
      // (placements take the first tasks) would otherwise leave up to 3 holes per live entry for
      // every walk to step over (issue 25: walks grew with the backlog)
      while (head < end && slots[head] == null) {
        head++;
      }
    }
    if (live == 0) {
      Arrays.fill(slots, 0, end, null);
      end = 0;
      head = 0;
    } else if (live < (end - head) / 4 && end > 16) {
      compact();
    }
  }

  private void compact() {
    int w = 0;
    for (int r = head; r < end; r++) {
      if (slots[r] != null) {
        slots[w] = slots[r];
        seqs[w++] = seqs[r];
      }
    }
    Arrays.fill(slots, w, end, null);
    end = w;
    head = 0;
  }

  /** Where a walk starts (tests): the slot of the first entry once the front is served. */
  int walkStart() {
    return head;
  }

  Iterator<Task> iterator() {
    return new Iterator<>() {
      private int i = head;

      @Override
      public boolean hasNext() {
        while (i < end && slots[i] == null) {
          i++;
        }
        return i < end;
      }

      @Override
      public Task next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return slots[i++].task;
      }
    };
  }
}

