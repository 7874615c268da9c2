package io.locus.dashboard;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What the dashboard knows of one node of one pool: its slots and cache capacity (REGISTER /
 * HEARTBEAT), its cache contents as reported (CACHE_SNAPSHOT resets them, CACHE_DELTA adds and
 * removes), the attempts running on it (STARTED and not yet ended) and when it was last heard from.
 * Not thread-safe: {@link DashboardState} guards it.
 */
final class NodeTally {
  /** Beyond this many cached files per node, sizes are no longer kept (fill becomes a bound). */
  static final int MAX_CACHE_ENTRIES = 200_000;
  /** Beyond this many open attempts on one node (lost end events?), new ones are not tracked. */
  static final int MAX_RUNNING = 10_000;

  final String pool;
  final String node;
  int slots;
  int queueDepth;
  long cacheCapacityBytes;
  long cacheBytes;
  /** File id → size, as the node reported it: removals carry only the id. */
  private final Map<String, Long> cached = new HashMap<>();
  /** Cache entries dropped because {@link #MAX_CACHE_ENTRIES} was reached. */
  long cacheEntriesNotKept;
  /** Running attempts: taskId#attempt. */
  private final Set<String> running = new HashSet<>();
  long placements;
  long completed;
  long failed;
  long heardMs = Long.MIN_VALUE;
  /** LEAVE was its last word (until it registers again). */
  boolean left;
  /** The scheduler would have declared it lost (until it registers again). */
  boolean lost;
  long lostAtMs;
  boolean draining;

  NodeTally(String pool, String node) {
    this.pool = pool;
    this.node = node;
  }

  void heard(long timeMs) {
    heardMs = Math.max(heardMs, timeMs);
  }

  void cacheSnapshot() {
    cached.clear();
    cacheBytes = 0;
  }

  void cacheAdded(String fileId, long bytes) {
    long size = Math.max(0, bytes);
    Long before = cached.get(fileId);
    if (before != null) {
      cacheBytes += size - before;
      cached.put(fileId, size);
    } else if (cached.size() < MAX_CACHE_ENTRIES) {
      cached.put(fileId, size);
      cacheBytes += size;
    } else {
      cacheEntriesNotKept++;
    }
  }

  void cacheRemoved(String fileId) {
    Long before = cached.remove(fileId);
    if (before != null) {
      cacheBytes -= before;
    }
  }

  int cachedFiles() {
    return cached.size();
  }

  /** Returns false for a repeated STARTED (an agent answering a duplicate decision). */
  boolean started(String attempt) {
    if (running.size() >= MAX_RUNNING) {
      return false;
    }
    return running.add(attempt);
  }

  void ended(String attempt) {
    running.remove(attempt);
  }

  int running() {
    return running.size();
  }

  /** Lost or left: what it was running is re-placed elsewhere. */
  void gone() {
    running.clear();
  }

  /** A REGISTER: the node is (again) a member of its pool. */
  void registered() {
    left = false;
    lost = false;
    running.clear();
  }

  String state() {
    if (left) {
      return "left";
    }
    if (lost) {
      return "lost";
    }
    return draining ? "draining" : "alive";
  }
}
