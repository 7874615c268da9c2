package io.locus.core.state;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * The scheduler's view of one registered node: slots, load and the files its agent reported as
 * cached (a hint: the agent's cache is the truth). Mutated only through {@link PoolState}.
 */
public final class NodeView {
  private final String id;
  int slots;
  /**
   * Placed attempts (running or waiting in the agent's local queue); at most slots + queueDepth.
   */
  int busy;
  /**
   * Local-queue positions the pool uses beyond the slots (late binding): min of what the agent
   * advertises and the pool's {@code maxQueueDepth}. 0: a node takes no more than its slots.
   */
  int queueDepth;
  long cacheCapacity;
  boolean draining;
  long lastCacheSeq;
  double registeredAt;
  String endpoint;
  /** Order in which the node last became free; the free pool is sorted by it (FIFO). */
  long freeSeq;
  /** Reads from this node's cache by running tasks (spec D9: choose the least busy holder). */
  int outbound;
  final Map<String, Long> cached = new HashMap<>();
  long cachedBytes;

  NodeView(String id) {
    this.id = id;
  }

  public String id() {
    return id;
  }

  public int slots() {
    return slots;
  }

  public int busy() {
    return busy;
  }

  public int freeSlots() {
    return Math.max(0, slots - busy);
  }

  public int queueDepth() {
    return queueDepth;
  }

  /** Free placements: free slots plus free local-queue positions. */
  public int freePositions() {
    return Math.max(0, slots + queueDepth - busy);
  }

  /** Placed attempts beyond the slots: those that wait (or may wait) in the agent's queue. */
  public int beyondSlots() {
    return Math.max(0, busy - slots);
  }

  /**
   * How many tasks one notification gives this node (spec D4: m = its free slots): its free
   * slots, or, when it has none, its free local-queue positions.
   */
  public int placeable() {
    int free = freeSlots();
    return free > 0 ? free : freePositions();
  }

  public long cacheCapacity() {
    return cacheCapacity;
  }

  public boolean draining() {
    return draining;
  }

  public long lastCacheSeq() {
    return lastCacheSeq;
  }

  public double registeredAt() {
    return registeredAt;
  }

  public String endpoint() {
    return endpoint;
  }

  public long freeSeq() {
    return freeSeq;
  }

  public int outbound() {
    return outbound;
  }

  public boolean caches(String file) {
    return cached.containsKey(file);
  }

  public Map<String, Long> cached() {
    return Collections.unmodifiableMap(cached);
  }

  public long cachedBytes() {
    return cachedBytes;
  }

  /** Restores the persisted fields of a node (driver use, when rebuilding from durable state). */
  public static NodeView restore(String id, int slots, long cacheCapacity, boolean draining,
      long lastCacheSeq, double registeredAt, String endpoint, long freeSeq) {
    return restore(id, slots, cacheCapacity, draining, lastCacheSeq, registeredAt, endpoint,
        freeSeq, 0);
  }

  /** As above, with the node's local-queue depth (late binding). */
  public static NodeView restore(String id, int slots, long cacheCapacity, boolean draining,
      long lastCacheSeq, double registeredAt, String endpoint, long freeSeq, int queueDepth) {
    NodeView n = new NodeView(id);
    n.queueDepth = queueDepth;
    n.slots = slots;
    n.cacheCapacity = cacheCapacity;
    n.draining = draining;
    n.lastCacheSeq = lastCacheSeq;
    n.registeredAt = registeredAt;
    n.endpoint = endpoint;
    n.freeSeq = freeSeq;
    return n;
  }
}
