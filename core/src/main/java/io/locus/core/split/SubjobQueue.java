package io.locus.core.split;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * An intrusive FIFO of subjobs with O(1) push at both ends and O(1) removal of any member (a
 * subjob is in at most one queue), so ack corrections and stealing never scan. Each member has a
 * rank, increasing from front to back, that depends only on the members (a push at the back gets
 * the last rank + 1, at the front the first rank − 1): stored with the member, it rebuilds the
 * queue in order without rewriting the other members.
 */
final class SubjobQueue implements Iterable<Subjob> {
  /** Hears members come and go (an index over a queue). */
  interface Listener {
    void added(Subjob x);

    void removed(Subjob x);
  }

  /** The queue's name in the state ({@link SubjobEntry#queue()}). */
  final String tag;
  private final Changes changes;
  private final Listener listener;
  private Subjob head;
  private Subjob tail;
  private int size;

  SubjobQueue(String tag, Changes changes) {
    this(tag, changes, null);
  }

  SubjobQueue(String tag, Changes changes, Listener listener) {
    this.tag = tag;
    this.changes = changes;
    this.listener = listener;
  }

  int size() {
    return size;
  }

  boolean isEmpty() {
    return size == 0;
  }

  Subjob first() {
    return head;
  }

  Subjob last() {
    return tail;
  }

  void pushBack(Subjob x) {
    check(x);
    x.rank = tail == null ? 0 : tail.rank + 1;
    appendRanked(x);
  }

  /** A member of a restored queue, at its stored rank (members come in increasing rank). */
  void restoreMember(Subjob x, long rank) {
    check(x);
    if (tail != null && rank <= tail.rank) {
      throw new IllegalArgumentException("subjob " + x.id + " has rank " + rank + " in queue "
          + tag + ", not after " + tail.id + "'s " + tail.rank);
    }
    x.rank = rank;
    appendRanked(x);
  }

  private void appendRanked(Subjob x) {
    x.queue = this;
    x.prev = tail;
    x.next = null;
    if (tail == null) {
      head = x;
    } else {
      tail.next = x;
    }
    tail = x;
    size++;
    changes.subjob(x);
    if (listener != null) {
      listener.added(x);
    }
  }

  void pushFront(Subjob x) {
    check(x);
    x.rank = head == null ? 0 : head.rank - 1;
    x.queue = this;
    x.next = head;
    x.prev = null;
    if (head == null) {
      tail = x;
    } else {
      head.prev = x;
    }
    head = x;
    size++;
    changes.subjob(x);
    if (listener != null) {
      listener.added(x);
    }
  }

  Subjob popFront() {
    Subjob x = head;
    if (x == null) {
      throw new NoSuchElementException();
    }
    remove(x);
    return x;
  }

  void remove(Subjob x) {
    if (x.queue != this) {
      throw new IllegalStateException(x.id + " is not in this queue");
    }
    if (x.prev == null) {
      head = x.next;
    } else {
      x.prev.next = x.next;
    }
    if (x.next == null) {
      tail = x.prev;
    } else {
      x.next.prev = x.prev;
    }
    x.prev = null;
    x.next = null;
    x.queue = null;
    size--;
    changes.subjob(x);
    if (listener != null) {
      listener.removed(x);
    }
  }

  /** Before a member's range changes: its listener forgets it (the member stays in place). */
  void unindex(Subjob x) {
    if (listener != null) {
      listener.removed(x);
    }
  }

  /** After a member's range changed. */
  void reindex(Subjob x) {
    if (listener != null) {
      listener.added(x);
    }
  }

  List<Subjob> toList() {
    List<Subjob> out = new ArrayList<>(size);
    forEach(out::add);
    return out;
  }

  @Override
  public Iterator<Subjob> iterator() {
    return new Iterator<>() {
      private Subjob cur = head;

      @Override
      public boolean hasNext() {
        return cur != null;
      }

      @Override
      public Subjob next() {
        if (cur == null) {
          throw new NoSuchElementException();
        }
        Subjob x = cur;
        cur = cur.next;
        return x;
      }
    };
  }

  private static void check(Subjob x) {
    if (x.queue != null) {
      throw new IllegalStateException(x.id + " is already queued");
    }
    if (x.node != null) {
      throw new IllegalStateException(x.id + " is assigned to " + x.node.id);
    }
  }
}
