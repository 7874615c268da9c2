package io.locus.agent;

import io.locus.core.cache.EvictionPolicies;
import io.locus.core.cache.NodeCache;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One agent's cache: the accounting ({@link NodeCache}: quota, pins, eviction order, the one the
 * simulator uses too), its on-disk side ({@link CacheStore}) and a lock-free mirror of the file set
 * for peers. Every change is written into a {@link CacheDelta} for the next CACHE_DELTA.
 *
 * <p>Guarded by the agent's monitor, except {@link #holds}: a peer's stager asks that without this
 * agent's lock, so two agents reading from each other can never deadlock.
 */
final class AgentCache {
  private final NodeCache cache;
  private final CacheStore store;
  private final Set<String> view = ConcurrentHashMap.newKeySet();
  /** Deltas that running tasks have not sent yet (see {@link #insert}). */
  private final Set<CacheDelta> unsent = new HashSet<>();

  AgentCache(AgentConfig config, CacheStore store) {
    this.cache = new NodeCache(config.cacheCapacityBytes(),
        EvictionPolicies.create(config.evictionPolicy(), config.evictionSeed()));
    this.store = store;
  }

  /** Whether the file is cached now. Lock-free. */
  boolean holds(String fileId) {
    return view.contains(fileId);
  }

  boolean contains(String fileId) {
    return cache.contains(fileId);
  }

  /** A local hit: refreshes the file for the eviction policy. */
  void touch(String fileId) {
    cache.touch(fileId);
  }

  void pin(String fileId) {
    cache.pin(fileId);
  }

  void unpin(String fileId) {
    cache.unpin(fileId);
  }

  boolean isPinned(String fileId) {
    return cache.isPinned(fileId);
  }

  long capacity() {
    return cache.capacity();
  }

  long used() {
    return cache.used();
  }

  int size() {
    return cache.size();
  }

  /** A copy: file → bytes, in the cache's order. */
  Map<String, Long> contents() {
    return new LinkedHashMap<>(cache.contents());
  }

  /** Adopts a file already on disk (before the agent starts); nothing is reported for it here. */
  void preload(String fileId, long bytes) {
    NodeCache.Insert r = cache.insert(fileId, bytes);
    for (String v : r.evicted()) {
      view.remove(v);
      store.evicted(v);
    }
    if (r.cached()) {
      view.add(fileId);
    } else {
      // Larger than the whole cache (e.g. the quota was lowered): it cannot stay.
      store.evicted(fileId);
    }
  }

  /**
   * Inserts the file {@code request} brought; false when it does not fit (the caller streams it to
   * its task instead). Victims leave the disk before the newcomer arrives, so the directory never
   * exceeds the quota.
   */
  boolean insert(StageRequest request, CacheDelta delta) {
    String f = request.fileId();
    boolean present = cache.contains(f);
    NodeCache.Insert r = cache.insert(f, request.bytes());
    for (String v : r.evicted()) {
      view.remove(v);
      delta.remove(v);
      store.evicted(v);
    }
    if (r.cached()) {
      store.commit(request);
    }
    if (r.cached() && !present) {
      view.add(f);
      delta.add(f, request.bytes());
      // Another task's unsent delta may still say f was evicted; sent after this one it would
      // leave the scheduler's index without a file that is here. The insert supersedes it.
      for (CacheDelta other : unsent) {
        if (other != delta) {
          other.forgetRemoval(f);
        }
      }
    }
    return r.cached();
  }

  /** Removes a file from the accounting and the disk; false when it was not cached. */
  boolean remove(String fileId, CacheDelta delta) {
    if (!cache.remove(fileId)) {
      return false;
    }
    view.remove(fileId);
    delta.remove(fileId);
    store.evicted(fileId);
    return true;
  }

  /** A delta for a running task's changes, which {@link #insert} keeps consistent until closed. */
  CacheDelta openDelta() {
    CacheDelta d = new CacheDelta();
    unsent.add(d);
    return d;
  }

  void closeDelta(CacheDelta delta) {
    unsent.remove(delta);
  }

  /** The bytes {@code request} landed serve the task {@code taskKey} only, until it ends. */
  void attach(String taskKey, StageRequest request) {
    store.attach(taskKey, request);
  }

  /** Nobody uses the bytes {@code request} landed (if any). */
  void discard(StageRequest request) {
    store.discard(request);
  }

  /** The task ended: bytes attached to it can go. */
  void released(String taskKey) {
    store.released(taskKey);
  }
}
