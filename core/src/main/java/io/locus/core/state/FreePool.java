package io.locus.core.state;

import java.util.AbstractCollection;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.TreeMap;

/**
 * A pool's free nodes in the order placements take them, in two tiers (late binding, issue 13):
 * tier 1 the nodes with a free slot, tier 2 those whose slots are all taken but with a free
 * local-queue position (slots ≤ busy < slots + queueDepth); each FIFO by {@code freeSeq}, the
 * order in which the node entered its tier. Tier 2 stays empty while every queueDepth is 0.
 * Draining and unregistered nodes are in neither. {@link PoolState} owns it and says when a
 * node's load changed ({@link #refresh}).
 */
final class FreePool {
  /** Tier 1: nodes with a free slot, by freeSeq (FIFO). */
  private final TreeMap<Long, NodeView> slots = new TreeMap<>();
  /** Tier 2: nodes with only a local-queue position free, by freeSeq. */
  private final TreeMap<Long, NodeView> queued = new TreeMap<>();
  private long counter;

  /**
   * Whether {@code a} comes before {@code b} in the free pool (a free slot before a local-queue
   * position, then the order they became free).
   */
  static boolean before(NodeView a, NodeView b) {
    boolean slotA = a.freeSlots() > 0;
    boolean slotB = b.freeSlots() > 0;
    return slotA != slotB ? slotA : a.freeSeq < b.freeSeq;
  }

  /** Whether the node can take a placement now (a free slot or local-queue position, not draining). */
  static boolean canTake(NodeView n) {
    return n.freePositions() > 0 && !n.draining;
  }

  /** Both tiers, tier 1 first: a live view. */
  Collection<NodeView> all() {
    if (queued.isEmpty()) {
      return Collections.unmodifiableCollection(slots.values());
    }
    return new AbstractCollection<>() {
      @Override
      public Iterator<NodeView> iterator() {
        Iterator<NodeView> a = slots.values().iterator();
        Iterator<NodeView> b = queued.values().iterator();
        return new Iterator<>() {
          @Override
          public boolean hasNext() {
            return a.hasNext() || b.hasNext();
          }

          @Override
          public NodeView next() {
            return a.hasNext() ? a.next() : b.next();
          }
        };
      }

      @Override
      public int size() {
        return slots.size() + queued.size();
      }
    };
  }

  /** Tier 1 only: a live view. */
  Collection<NodeView> slotTier() {
    return Collections.unmodifiableCollection(slots.values());
  }

  /** The first node of tier 1, else of tier 2; null when both are empty. */
  NodeView first() {
    if (!slots.isEmpty()) {
      return slots.firstEntry().getValue();
    }
    return queued.isEmpty() ? null : queued.firstEntry().getValue();
  }

  /** Whether the node is in either tier. */
  boolean contains(NodeView n) {
    return slots.get(n.freeSeq) == n || queued.get(n.freeSeq) == n;
  }

  /**
   * Puts the node in the tier its load says ({@code live}: registered and not draining); a node
   * that just entered a tier (became free, or moved between a free slot and only a queue position)
   * goes last in it. Returns +1 if the node entered the free pool, -1 if it left it, 0 otherwise
   * (a move between tiers included).
   */
  int refresh(NodeView n, boolean live) {
    int should = !live ? 0 : n.freeSlots() > 0 ? 1 : n.freePositions() > 0 ? 2 : 0;
    int is = slots.get(n.freeSeq) == n ? 1 : queued.get(n.freeSeq) == n ? 2 : 0;
    if (should == is) {
      return 0;
    }
    if (is == 1) {
      slots.remove(n.freeSeq);
    } else if (is == 2) {
      queued.remove(n.freeSeq);
    }
    if (should > 0) {
      n.freeSeq = ++counter;
      (should == 1 ? slots : queued).put(n.freeSeq, n);
    }
    return is == 0 ? 1 : should == 0 ? -1 : 0;
  }

  /** Takes the node out of both tiers; whether it was in one. */
  boolean remove(NodeView n) {
    boolean was = contains(n);
    slots.remove(n.freeSeq);
    queued.remove(n.freeSeq);
    return was;
  }

  // ---------------------------------------------------------------- restore

  /** A restored node's persisted freeSeq: later entries are numbered after it. */
  void restoreCounter(long freeSeq) {
    counter = Math.max(counter, freeSeq);
  }

  /** Rebuilds both tiers from the nodes' persisted free order. */
  void rebuild(Collection<NodeView> nodes) {
    slots.clear();
    queued.clear();
    for (NodeView n : nodes) {
      if (n.freeSlots() > 0 && !n.draining) {
        slots.put(n.freeSeq, n);
      } else if (canTake(n)) {
        queued.put(n.freeSeq, n);
      }
    }
  }
}
