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
  int busy;
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
    NodeView n = new NodeView(id);
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
