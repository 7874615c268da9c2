package io.locus.core.cache;

import java.util.Map;
import java.util.function.Predicate;

/**
 * DEMAND: eviction that knows the queue (issue 16). The victim is, among unpinned files:
 * <ol>
 *   <li>the least recently used file that no queued task reads (nothing is lost by evicting it);
 *   <li>else the file whose eviction costs the least re-reading per byte freed. Evicting f frees
 *       bytes(f) and costs queuedReaders(f) re-reads of bytes(f), so per byte freed the cost is
 *       queuedReaders(f) × the cost of a re-read per byte. That cost is lower when another node
 *       holds f (a peer read, and the pool keeps a copy) than when this is the only copy known
 *       (a read from storage). Without measured rates we use only that order, not a ratio: a
 *       file with another copy goes before a sole copy, then the fewest queued readers, then the
 *       least recently used.
 * </ol>
 * No constant is tuned: the order follows from "evict what costs least to read again". The demand
 * is read live from the pool at each victim choice; the scan is over this node's files.
 */
public final class DemandAware extends RecencyOrder {
  private final FileDemand demand;
  /** File → bytes, least recently used first. */

  public DemandAware(FileDemand demand) {
    if (demand == null) {
      throw new IllegalArgumentException("DEMAND eviction needs the pool's FileDemand");
    }
    this.demand = demand;
  }

  @Override
  public String name() {
    return "DEMAND";
  }

  @Override
  public String victim(Predicate<String> pinned) {
    String best = null;
    boolean bestShared = false;
    int bestReaders = 0;
    for (Map.Entry<String, Long> e : order.entrySet()) {
      String f = e.getKey();
      if (pinned.test(f)) {
        continue;
      }
      int readers = demand.queuedReaders(f);
      if (readers == 0) {
        return f; // the least recently used unneeded file
      }
      boolean shared = demand.copies(f) >= 2;
      // strict comparisons: among equals the older (earlier in the order) stays
      if (best == null || (shared && !bestShared)
          || (shared == bestShared && readers < bestReaders)) {
        best = f;
        bestShared = shared;
        bestReaders = readers;
      }
    }
    return best;
  }
}
