package io.locus.core.state;

import io.locus.core.model.InputFetch;
import io.locus.core.model.InputFile;
import io.locus.core.model.InputSource;
import io.locus.core.model.Task;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A pool's cache index, both directions: file → the nodes holding it, and each node's cached files
 * and bytes ({@link NodeView#cached}), from the agents' cache reports (a hint: the agents' caches
 * are the truth). Part of {@link PoolState}: every change goes to the journal and, once built, to
 * the pool's {@link DispatchIndex}.
 */
final class CacheIndex {
  private final Map<String, Set<String>> holders = new HashMap<>();
  private final Map<String, NodeView> nodes;
  private final StateJournal journal;
  private final PoolState state;

  /** {@code nodes}: the pool's registered nodes (read only). */
  CacheIndex(PoolState state, Map<String, NodeView> nodes, StateJournal journal) {
    this.state = state;
    this.nodes = nodes;
    this.journal = journal;
  }

  Set<String> holders(String file) {
    Set<String> h = holders.get(file);
    return h == null ? Set.of() : Collections.unmodifiableSet(h);
  }

  /** cached(t, e): bytes of the task's inputs the node holds. */
  static long cached(Task t, NodeView n) {
    long sum = 0;
    for (InputFile u : t.inputs()) {
      if (n.cached.containsKey(u.id())) {
        sum += u.bytes();
      }
    }
    return sum;
  }

  /** Holders summed by {@link #maxCached} so far (tests count a decision's work with it). */
  long maxCachedVisits;

  /** maxCached(t): the most bytes of the task any registered node (free or busy) holds. */
  long maxCached(Task t) {
    List<InputFile> in = t.inputs();
    if (in.size() == 1) {
      // The common case (one input per task): no per-holder accumulation needed.
      InputFile u = in.get(0);
      Set<String> h = holders.get(u.id());
      return h == null || h.isEmpty() ? 0 : u.bytes();
    }
    Map<String, Long> acc = new HashMap<>();
    long best = 0;
    for (InputFile u : in) {
      Set<String> h = holders.get(u.id());
      if (h == null) {
        continue;
      }
      maxCachedVisits += h.size();
      for (String node : h) {
        long v = acc.merge(node, u.bytes(), Long::sum);
        best = Math.max(best, v);
      }
    }
    return best;
  }

  /**
   * Where each input would come from if the task ran on {@code node}: local cache, the least busy
   * peer holding it, else storage; without {@code caching}, storage and not kept.
   */
  List<InputFetch> plan(Task t, NodeView node, boolean caching) {
    List<InputFetch> out = new ArrayList<>(t.inputs().size());
    for (InputFile u : t.inputs()) {
      if (!caching) {
        out.add(new InputFetch(u, InputSource.STORAGE, null, false));
      } else if (node.cached.containsKey(u.id())) {
        out.add(new InputFetch(u, InputSource.LOCAL, null, true));
      } else {
        NodeView peer = leastBusyHolder(u.id(), node.id());
        out.add(peer == null
            ? new InputFetch(u, InputSource.STORAGE, null, true)
            : new InputFetch(u, InputSource.PEER, peer.id(), true));
      }
    }
    return out;
  }

  /** The holder of the file other than {@code except} with the fewest outbound reads (tie: lowest id). */
  NodeView leastBusyHolder(String file, String except) {
    Set<String> h = holders.get(file);
    if (h == null) {
      return null;
    }
    NodeView best = null;
    for (String id : h) {
      if (id.equals(except)) {
        continue;
      }
      NodeView n = nodes.get(id);
      if (n == null) {
        continue;
      }
      if (best == null || n.outbound < best.outbound
          || (n.outbound == best.outbound && n.id().compareTo(best.id()) < 0)) {
        best = n;
      }
    }
    return best;
  }

  /** Applies a delta (removals first); the caller checked its sequence number. */
  void applyDelta(NodeView n, long seq, Map<String, Long> added, Collection<String> removed) {
    for (String f : removed) {
      uncache(n, f);
    }
    for (Map.Entry<String, Long> e : added.entrySet()) {
      cache(n, e.getKey(), e.getValue());
    }
    n.lastCacheSeq = seq;
    journal.nodeUpdated(n);
  }

  /** Replaces the node's cache view with a full snapshot. */
  void applySnapshot(NodeView n, long seq, Map<String, Long> files) {
    Set<String> gone = new HashSet<>(n.cached.keySet());
    gone.removeAll(files.keySet());
    for (String f : gone) {
      uncache(n, f);
    }
    for (Map.Entry<String, Long> e : files.entrySet()) {
      cache(n, e.getKey(), e.getValue());
    }
    n.lastCacheSeq = seq;
    journal.nodeUpdated(n);
  }

  /** Drops every file of the node (it leaves). */
  void reset(NodeView n) {
    for (String f : new ArrayList<>(n.cached.keySet())) {
      uncache(n, f);
    }
  }

  /** Re-adds a persisted entry, without journal or dispatch index (the restore drops the index). */
  void restoreEntry(NodeView n, String file, long bytes) {
    n.cached.put(file, bytes);
    n.cachedBytes += bytes;
    holders.computeIfAbsent(file, f -> new HashSet<>(4)).add(n.id());
  }

  private void cache(NodeView n, String file, long bytes) {
    Long old = n.cached.put(file, bytes);
    n.cachedBytes += bytes - (old == null ? 0 : old);
    if (holders.computeIfAbsent(file, f -> new HashSet<>(4)).add(n.id())) {
      DispatchIndex index = state.indexIfBuilt();
      if (index != null) {
        index.holderAdded(file, n);
      }
    }
    journal.cacheAdded(n.id(), file, bytes);
  }

  private void uncache(NodeView n, String file) {
    Long old = n.cached.remove(file);
    if (old == null) {
      return;
    }
    n.cachedBytes -= old;
    Set<String> h = holders.get(file);
    if (h != null) {
      h.remove(n.id());
      if (h.isEmpty()) {
        holders.remove(file);
      }
    }
    DispatchIndex index = state.indexIfBuilt();
    if (index != null) {
      index.holderRemoved(file, n);
    }
    journal.cacheRemoved(n.id(), file);
  }
}
