package io.locus.sim.exec;

import io.locus.core.cache.NodeCache;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One executor (node) of the modelled cluster (spec D24): c slots sharing one cache, a local disk and
 * a NIC, each disk and NIC direction being a {@link io.locus.sim.flow.FlowNetwork} resource. Its
 * {@link NodeCache} is the truth; the scheduler's index is a hint built from the deltas it emits.
 */
public final class Executor {
  final String id;
  final int index;
  final int slots;
  final NodeCache cache;
  final int disk;
  final int nicIn;
  final int nicOut;
  final int[] diskOnly;
  final double registeredAt;
  double releasedAt = Double.NaN;
  boolean alive = true;
  long cacheSeq;
  /** Fetches into this node's cache in progress, by file: later readers wait for them (D29). */
  final Map<String, RemoteRead> inflight = new HashMap<>();
  /** Peer reads other nodes are making from this node's cache. */
  final Set<RemoteRead> serving = new LinkedHashSet<>();
  int outboundActive;
  final List<TaskRun> running = new ArrayList<>(2);

  Executor(String id, int index, int slots, NodeCache cache, int disk, int nicIn, int nicOut,
      double now) {
    this.id = id;
    this.index = index;
    this.slots = slots;
    this.cache = cache;
    this.disk = disk;
    this.nicIn = nicIn;
    this.nicOut = nicOut;
    this.diskOnly = new int[] {disk};
    this.registeredAt = now;
  }

  public String id() {
    return id;
  }

  public int slots() {
    return slots;
  }

  public NodeCache cache() {
    return cache;
  }

  public boolean alive() {
    return alive;
  }

  public double registeredAt() {
    return registeredAt;
  }

  public double releasedAt() {
    return releasedAt;
  }

  public int running() {
    return running.size();
  }

  /** Peer reads from this node in progress (spec D9 counts them to pick the least busy holder). */
  public int outboundActive() {
    return outboundActive;
  }

  /** Next cache-delta sequence number (the scheduler drops deltas at or below the last one). */
  long nextCacheSeq() {
    return ++cacheSeq;
  }
}
