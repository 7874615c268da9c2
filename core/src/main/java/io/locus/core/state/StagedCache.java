package io.locus.core.state;

import io.locus.core.cache.EvictionPolicy;
import io.locus.core.model.Ids;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * A compute node's cache as the Khanna-family scheduler manages it (hypergraph spec §2.1, §3):
 * files PRESENT or IN_FLIGHT, used bytes counting both, lastUse per file, and eviction by the
 * pool's policy (VALUE or LRU) for the whole of a commit's bytes at once. In-flight files are never
 * victims. Unlike {@link NodeView#cached()} (agent reports, a hint) this is the scheduler's own
 * decision record. Mutated only through {@link StagingState}, which journals every change.
 */
public final class StagedCache {
  private static final class Entry {
    final long bytes;
    boolean inFlight;
    double lastUse;
    /** The leaf queue charged with the file (see {@link CacheQuota}); null without a queue tree. */
    String queue;

    Entry(long bytes, boolean inFlight, double lastUse) {
      this.bytes = bytes;
      this.inFlight = inFlight;
      this.lastUse = lastUse;
    }
  }

  private final String node;
  private final Map<String, Entry> files = new HashMap<>();
  private long capacity;
  private long used;
  private EvictionPolicy policy;
  /** The instant of the last touch and the files used then (equally recent; see {@link #touch}). */
  private double lastTouch = Double.NEGATIVE_INFINITY;
  private final TreeSet<String> touchedAtLast = new TreeSet<>(Ids.ORDER);
  /** Bytes per charged queue; "" for files charged to none. Kept only once a file is charged. */
  private final Map<String, Long> charged = new HashMap<>();

  StagedCache(String node, long capacity, EvictionPolicy policy) {
    this.node = node;
    this.capacity = capacity;
    this.policy = policy;
  }

  public String node() {
    return node;
  }

  public long capacity() {
    return capacity;
  }

  /** Bytes of PRESENT and IN_FLIGHT files. */
  public long used() {
    return used;
  }

  public int size() {
    return files.size();
  }

  /** PRESENT or IN_FLIGHT: what ECT and MCT count as local. */
  public boolean contains(String file) {
    return files.containsKey(file);
  }

  public boolean isPresent(String file) {
    Entry e = files.get(file);
    return e != null && !e.inFlight;
  }

  public boolean isInFlight(String file) {
    Entry e = files.get(file);
    return e != null && e.inFlight;
  }

  public long bytes(String file) {
    Entry e = files.get(file);
    return e == null ? 0 : e.bytes;
  }

  /** lastUse[k][f]; NaN when absent. */
  public double lastUse(String file) {
    Entry e = files.get(file);
    return e == null ? Double.NaN : e.lastUse;
  }

  public Set<String> files() {
    return Collections.unmodifiableSet(files.keySet());
  }

  public String evictionPolicy() {
    return policy.name();
  }

  /** The queue charged with {@code file}; null when none is (no queue tree when it was staged). */
  public String queue(String file) {
    Entry e = files.get(file);
    return e == null ? null : e.queue;
  }

  /** Bytes of the files charged to {@code queue} ("": to none, once some file is charged). */
  public long chargedBytes(String queue) {
    return charged.getOrDefault(queue, 0L);
  }

  /** The queues some file here is charged to ("" for files charged to none), unordered. */
  Set<String> chargedQueues() {
    return Collections.unmodifiableSet(charged.keySet());
  }

  /** The eviction policy's next victim, never an in-flight or {@code pinned} file; or null. */
  String victim(Predicate<String> pinned) {
    return policy.victim(f -> pinned.test(f) || files.get(f).inFlight);
  }

  // ------------------------------------------------------------------ mutations (StagingState)

  void setCapacity(long capacity) {
    this.capacity = capacity;
  }

  /**
   * MAKE_SPACE (§3.1): evicts victims until {@code bytes} fit, never an in-flight or protected
   * file; stops when nothing is left to evict (the commit then proceeds over capacity).
   */
  List<String> makeSpace(long bytes, Predicate<String> protect) {
    List<String> evicted = new ArrayList<>();
    while (capacity - used < bytes) {
      String victim = policy.victim(f -> protect.test(f) || files.get(f).inFlight);
      if (victim == null) {
        break;
      }
      remove(victim);
      evicted.add(victim);
    }
    return evicted;
  }

  /** Adds a file (IN_FLIGHT when staged); insertion counts as a use at {@code now}. */
  void add(String file, long bytes, boolean inFlight, double now) {
    if (files.containsKey(file)) {
      throw new IllegalStateException(file + " is already cached on " + node);
    }
    files.put(file, new Entry(bytes, inFlight, Double.NaN));
    used += bytes;
    policy.onInsert(file, bytes);
    touch(List.of(file), now);
  }

  /**
   * Charges a cached file to {@code queue} (null: to none). The first charge on a node starts the
   * per-queue count; before it the cache keeps none, so a pool without a queue tree pays nothing.
   */
  void charge(String file, String queue) {
    Entry e = files.get(file);
    if (e == null) {
      return;
    }
    if (charged.isEmpty()) {
      for (Entry o : files.values()) {
        charged.merge(key(o.queue), o.bytes, Long::sum);
      }
    }
    uncount(e);
    e.queue = queue;
    charged.merge(key(queue), e.bytes, Long::sum);
  }

  private void uncount(Entry e) {
    if (charged.isEmpty()) {
      return;
    }
    String k = key(e.queue);
    long left = charged.getOrDefault(k, 0L) - e.bytes;
    if (left == 0) {
      charged.remove(k);
    } else {
      charged.put(k, left);
    }
  }

  private static String key(String queue) {
    return queue == null ? "" : queue;
  }

  boolean markPresent(String file) {
    Entry e = files.get(file);
    if (e == null || !e.inFlight) {
      return false;
    }
    e.inFlight = false;
    return true;
  }

  boolean remove(String file) {
    Entry e = files.remove(file);
    if (e == null) {
      return false;
    }
    used -= e.bytes;
    uncount(e);
    policy.onRemove(file);
    touchedAtLast.remove(file);
    return true;
  }

  /**
   * Sets lastUse = now for the cached ones among {@code ids}; returns those whose lastUse changed.
   * Files used at the same instant are equally recent and the spec breaks that tie by lowest id
   * (D14, §3.2), so all of them are re-touched in id order: the policy's recency order is then
   * exactly (lastUse, id).
   */
  List<String> touch(Collection<String> ids, double now) {
    if (now != lastTouch) {
      touchedAtLast.clear();
      lastTouch = now;
    }
    List<String> changed = new ArrayList<>();
    for (String id : ids) {
      Entry e = files.get(id);
      if (e == null) {
        continue;
      }
      if (e.lastUse != now) {
        e.lastUse = now;
        changed.add(id);
      }
      touchedAtLast.add(id);
    }
    for (String f : touchedAtLast) {
      policy.onAccess(f);
    }
    return changed;
  }

  /** Switches the eviction policy, feeding it the files oldest first, i.e. by (lastUse, id). */
  void usePolicy(EvictionPolicy p) {
    List<String> order = new ArrayList<>(files.keySet());
    order.sort((a, b) -> {
      int c = Double.compare(files.get(a).lastUse, files.get(b).lastUse);
      return c != 0 ? c : Ids.compare(a, b);
    });
    p.clear();
    for (String f : order) {
      p.onInsert(f, files.get(f).bytes);
    }
    policy = p;
  }

  /** Re-adds a persisted entry; call {@link #finishRestore} after the last one. */
  void restore(String file, long bytes, boolean inFlight, double lastUse) {
    Entry old = files.put(file, new Entry(bytes, inFlight, lastUse));
    if (old != null) {
      uncount(old);
    }
    used += bytes - (old == null ? 0 : old.bytes);
  }

  void finishRestore() {
    usePolicy(policy);
    lastTouch = Double.NEGATIVE_INFINITY;
    touchedAtLast.clear();
    for (Map.Entry<String, Entry> e : files.entrySet()) {
      lastTouch = Math.max(lastTouch, e.getValue().lastUse);
    }
    for (Map.Entry<String, Entry> e : files.entrySet()) {
      if (e.getValue().lastUse == lastTouch) {
        touchedAtLast.add(e.getKey());
      }
    }
  }
}
