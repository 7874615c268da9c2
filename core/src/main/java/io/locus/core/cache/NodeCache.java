package io.locus.core.cache;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A node's cache as bytes accounting: a capacity never exceeded, files pinned while a task uses
 * them, size-aware eviction by the given policy. Used by simulated agents and the simulator; the
 * real agent keeps files on disk with the same rules. Not thread-safe.
 */
public final class NodeCache {
  private final long capacity;
  private final EvictionPolicy policy;
  private final Map<String, Long> files = new LinkedHashMap<>();
  private final Map<String, Integer> pins = new HashMap<>();
  private long used;

  /** Outcome of an insert: whether the file is now cached and what had to leave for it. */
  public record Insert(boolean cached, List<String> evicted) {}

  public NodeCache(long capacityBytes, EvictionPolicy policy) {
    if (capacityBytes < 0) {
      throw new IllegalArgumentException("negative cache capacity");
    }
    this.capacity = capacityBytes;
    this.policy = policy;
  }

  public long capacity() {
    return capacity;
  }

  public long used() {
    return used;
  }

  public int size() {
    return files.size();
  }

  public boolean contains(String file) {
    return files.containsKey(file);
  }

  public Map<String, Long> contents() {
    return Collections.unmodifiableMap(files);
  }

  /** A read hit: refreshes the file for the policy. Returns false on a miss. */
  public boolean touch(String file) {
    if (!files.containsKey(file)) {
      return false;
    }
    policy.onAccess(file);
    return true;
  }

  /**
   * Makes room and adds the file. A file larger than the whole cache, or one that cannot fit because
   * everything else is pinned, is not cached (the caller streams it); nothing is evicted then.
   */
  public Insert insert(String file, long bytes) {
    if (files.containsKey(file)) {
      policy.onAccess(file);
      return new Insert(true, List.of());
    }
    if (bytes > capacity || bytes > capacity - pinnedBytes()) {
      return new Insert(false, List.of());
    }
    List<String> evicted = new ArrayList<>();
    while (used + bytes > capacity) {
      String victim = policy.victim(this::isPinned);
      if (victim == null) {
        throw new IllegalStateException("eviction policy found no victim though unpinned bytes exist");
      }
      remove(victim);
      evicted.add(victim);
    }
    files.put(file, bytes);
    used += bytes;
    policy.onInsert(file, bytes);
    return new Insert(true, evicted);
  }

  public boolean remove(String file) {
    Long bytes = files.remove(file);
    if (bytes == null) {
      return false;
    }
    used -= bytes;
    policy.onRemove(file);
    return true;
  }

  public void pin(String file) {
    pins.merge(file, 1, Integer::sum);
  }

  public void unpin(String file) {
    pins.computeIfPresent(file, (f, n) -> n <= 1 ? null : n - 1);
  }

  public boolean isPinned(String file) {
    return pins.containsKey(file);
  }

  private long pinnedBytes() {
    long sum = 0;
    for (String f : pins.keySet()) {
      Long b = files.get(f);
      if (b != null) {
        sum += b;
      }
    }
    return sum;
  }

  /** Drops everything (a released node loses its cache); pins are kept for running tasks. */
  public List<String> clear() {
    List<String> all = new ArrayList<>(files.keySet());
    files.clear();
    used = 0;
    policy.clear();
    return all;
  }
}
