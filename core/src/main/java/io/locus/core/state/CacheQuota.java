package io.locus.core.state;

import io.locus.core.model.InputFile;
import io.locus.core.share.QueueSpec;
import io.locus.core.share.QueueTree;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The per-queue cache bytes of a pool's queue tree ({@link QueueSpec#cacheGuaranteeBytes()},
 * {@link QueueSpec#cacheLimitBytes()}) applied to one node's {@link StagedCache}
 * (docs/policies.md, "Cache bytes per queue").
 *
 * <p>Each cached file is charged to the leaf queue of the task that staged it; a queue's bytes on a
 * node are those of the files charged to the leaves of its subtree. The quota is per node cache:
 * a pool-wide figure would need every commit to know the charges of every other node, and each
 * node's cache fills and empties on its own.
 *
 * <ul>
 *   <li>Limit: a queue at its cache limit does not grow. A file it stages first evicts its own
 *       (subtree's) files, by the cache's eviction policy; if that cannot make room, nothing is
 *       evicted and the file is streamed, not cached.
 *   <li>Guarantee: when space must be made, victims come first from the queues most over their
 *       cache guarantee (a queue with none is over by all its bytes), within a queue by the
 *       eviction policy. Files of queues within their guarantee go only when nothing else can.
 * </ul>
 *
 * Deterministic: ties between queues go by name, and within a queue the eviction policy decides as
 * it does without queues.
 */
final class CacheQuota {
  /** What making room decided: files evicted, files to stream and the queue to charge. */
  record Room(List<String> evicted, Set<String> streamed, String queue) {}

  private final QueueTree tree;

  private CacheQuota(QueueTree tree) {
    this.tree = tree;
  }

  /** The quota of {@code tree}, or null when it has no cache field at all (nothing changes). */
  static CacheQuota of(QueueTree tree) {
    if (tree == null) {
      return null;
    }
    for (QueueSpec s : tree.specs().values()) {
      if (s.cacheGuaranteeBytes() != null || s.cacheLimitBytes() != null) {
        return new CacheQuota(tree);
      }
    }
    return null;
  }

  /**
   * Room on {@code c} for {@code fetch}, files a task of leaf {@code leaf} is about to stage, never
   * evicting an in-flight or protected file. Streamed files need no room; if the others still do
   * not fit once nothing is left to evict, the commit proceeds over capacity, as without queues.
   */
  Room makeRoom(StagedCache c, String leaf, Collection<InputFile> fetch,
      Predicate<String> protect) {
    Predicate<String> pinned = f -> protect.test(f) || c.isInFlight(f);
    List<String> evicted = new ArrayList<>();
    Set<String> streamed = new LinkedHashSet<>();
    long admitted = 0;
    for (InputFile u : fetch) {
      if (withinLimits(c, leaf, admitted + u.bytes(), pinned, evicted)) {
        admitted += u.bytes();
      } else {
        streamed.add(u.id());
      }
    }
    while (c.capacity() - c.used() < admitted) {
      String victim = victim(c, pinned);
      if (victim == null) {
        break;
      }
      c.remove(victim);
      evicted.add(victim);
    }
    return new Room(evicted, streamed, leaf);
  }

  /**
   * Whether {@code extra} more bytes of {@code leaf} fit under the cache limit of every queue on
   * its lineage, evicting that queue's own files where that makes them fit. Evicts nothing when
   * even all of them would not be enough: a file that cannot be cached should not empty its
   * queue's share for nothing.
   */
  private boolean withinLimits(StagedCache c, String leaf, long extra, Predicate<String> pinned,
      List<String> evicted) {
    for (String q : tree.lineage(leaf)) {
      Long limit = tree.spec(q).cacheLimitBytes();
      if (limit == null) {
        continue;
      }
      Predicate<String> notOwn = f -> pinned.test(f) || !under(c.queue(f), q);
      long over = bytes(c, q) + extra - limit;
      if (over > 0 && evictableBytes(c, notOwn) < over) {
        return false;
      }
    }
    for (String q : tree.lineage(leaf)) {
      Long limit = tree.spec(q).cacheLimitBytes();
      if (limit == null) {
        continue;
      }
      Predicate<String> notOwn = f -> pinned.test(f) || !under(c.queue(f), q);
      while (bytes(c, q) + extra > limit) {
        String victim = c.victim(notOwn);
        c.remove(victim); // never null: evictableBytes said there is enough
        evicted.add(victim);
      }
    }
    return true;
  }

  /**
   * The next victim: from the queue most over its cache guarantee, then by the eviction policy;
   * files no queue of the tree is charged with (staged before the tree, or of a queue it no longer
   * has) count as a queue without a guarantee. Null when nothing can be evicted.
   */
  private String victim(StagedCache c, Predicate<String> pinned) {
    Map<String, Long> overBy = new HashMap<>();
    for (String q : c.chargedQueues()) {
      String key = chargeKey(q);
      overBy.put(key, overGuarantee(c, key));
    }
    List<String> order = new ArrayList<>(overBy.keySet());
    order.removeIf(q -> overBy.get(q) <= 0);
    order.sort((a, b) -> {
      int x = Long.compare(overBy.get(b), overBy.get(a));
      return x != 0 ? x : a.compareTo(b);
    });
    for (String q : order) {
      String v = c.victim(f -> pinned.test(f) || !q.equals(chargeKey(c.queue(f))));
      if (v != null) {
        return v;
      }
    }
    return c.victim(pinned);
  }

  /**
   * How far the leaf's files are over the guarantees protecting them: the least, over its lineage,
   * of a queue's bytes less its guarantee (none: 0). At most 0 means every byte is guaranteed by
   * some queue on the way up.
   */
  private long overGuarantee(StagedCache c, String key) {
    if (key.isEmpty()) {
      long sum = 0;
      for (String q : c.chargedQueues()) {
        sum += chargeKey(q).isEmpty() ? c.chargedBytes(q) : 0;
      }
      return sum;
    }
    long over = Long.MAX_VALUE;
    for (String q : tree.lineage(key)) {
      Long g = tree.spec(q).cacheGuaranteeBytes();
      over = Math.min(over, bytes(c, q) - (g == null ? 0 : g));
    }
    return over;
  }

  /** The charge key of a file: its leaf when the tree still has it, else "" (no queue). */
  private String chargeKey(String queue) {
    return queue != null && tree.contains(queue) ? queue : "";
  }

  /** Bytes on c charged to the leaves of q's subtree. */
  private long bytes(StagedCache c, String q) {
    long sum = 0;
    for (String leaf : c.chargedQueues()) {
      if (under(leaf, q)) {
        sum += c.chargedBytes(leaf);
      }
    }
    return sum;
  }

  private boolean under(String leaf, String q) {
    return leaf != null && tree.contains(leaf) && tree.lineage(leaf).contains(q);
  }

  private static long evictableBytes(StagedCache c, Predicate<String> pinned) {
    long sum = 0;
    for (String f : c.files()) {
      if (!pinned.test(f)) {
        sum += c.bytes(f);
      }
    }
    return sum;
  }
}
