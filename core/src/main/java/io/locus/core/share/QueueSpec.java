package io.locus.core.share;

/**
 * One queue of a pool, as configured: plain data, checked only when a {@link QueueTree} is built
 * from a list of them (so a bad configuration is refused whole, with every reason at once).
 *
 * <ul>
 *   <li>{@code parent}: the parent queue's name, or null for a top-level queue (a child of the pool).
 *   <li>{@code weight}: the queue's weight among its siblings when they share what is above their
 *       guarantees (Kueue's {@code fairSharing.weight}, YuniKorn's and the Hadoop fair scheduler's
 *       weight); &gt; 0.
 *   <li>{@code guaranteedSlots}: slots the queue gets whenever it has work for them, taken back by
 *       preemption if another queue borrowed them (Kueue's {@code nominalQuota}, YuniKorn's
 *       {@code guaranteed}).
 *   <li>{@code limitSlots}: the most slots the queue's subtree may hold, borrowing included
 *       (YuniKorn's {@code max}; Kueue's nominal + {@code borrowingLimit}); {@link #UNLIMITED} for none.
 *   <li>{@code lendingLimitSlots}: how much of its guarantee idle others may borrow; the rest of the
 *       guarantee stays free for the queue's own next task (Kueue's {@code lendingLimit}). Null: all.
 *   <li>{@code cacheGuaranteeBytes}, {@code cacheLimitBytes}: the cache bytes the queue's files may
 *       keep where the policy manages caches, per node cache; null when not set. Checked here,
 *       enforced by eviction in staged caches (io.locus.core.state.CacheQuota).
 *   <li>{@code maxWaitSeconds}: the CERN starvation bound per queue (spec D16, T_starve): a queue
 *       whose oldest pending task has waited longer goes first and its head waits for no locality.
 *       Null: no bound.
 * </ul>
 */
public record QueueSpec(
    String name,
    String parent,
    double weight,
    int guaranteedSlots,
    int limitSlots,
    Integer lendingLimitSlots,
    Long cacheGuaranteeBytes,
    Long cacheLimitBytes,
    Double maxWaitSeconds) {

  /** No slot limit. */
  public static final int UNLIMITED = Integer.MAX_VALUE;

  /** A queue with a weight, a guarantee and a limit, lending all of its guarantee. */
  public static QueueSpec of(String name, String parent, double weight, int guaranteed, int limit) {
    return new QueueSpec(name, parent, weight, guaranteed, limit, null, null, null, null);
  }

  /** The pool's default queue when the configuration does not declare it: no guarantee, no limit. */
  public static QueueSpec defaultQueue() {
    return of(QueueTree.DEFAULT, null, 1.0, 0, UNLIMITED);
  }

  public QueueSpec withLendingLimit(Integer slots) {
    return new QueueSpec(name, parent, weight, guaranteedSlots, limitSlots, slots,
        cacheGuaranteeBytes, cacheLimitBytes, maxWaitSeconds);
  }

  public QueueSpec withCache(Long guaranteeBytes, Long limitBytes) {
    return new QueueSpec(name, parent, weight, guaranteedSlots, limitSlots, lendingLimitSlots,
        guaranteeBytes, limitBytes, maxWaitSeconds);
  }

  public QueueSpec withMaxWait(Double seconds) {
    return new QueueSpec(name, parent, weight, guaranteedSlots, limitSlots, lendingLimitSlots,
        cacheGuaranteeBytes, cacheLimitBytes, seconds);
  }

  /**
   * Slots of the guarantee that others may never borrow: guarantee − lending limit (Kueue keeps
   * nominal − lendingLimit for the queue itself). 0 when every guaranteed slot may be lent.
   */
  public int reservedSlots() {
    return lendingLimitSlots == null ? 0 : Math.max(0, guaranteedSlots - lendingLimitSlots);
  }

  /** The spec in one line, for a dry run's "what changes". */
  public String describe() {
    StringBuilder b = new StringBuilder();
    b.append("parent ").append(parent == null ? "-" : parent)
        .append(", weight ").append(num(weight))
        .append(", guaranteed ").append(guaranteedSlots)
        .append(", limit ").append(limitSlots == UNLIMITED ? "none" : String.valueOf(limitSlots));
    if (lendingLimitSlots != null) {
      b.append(", lending limit ").append(lendingLimitSlots);
    }
    if (cacheGuaranteeBytes != null) {
      b.append(", cache guaranteed ").append(cacheGuaranteeBytes).append(" B");
    }
    if (cacheLimitBytes != null) {
      b.append(", cache limit ").append(cacheLimitBytes).append(" B");
    }
    if (maxWaitSeconds != null) {
      b.append(", max wait ").append(num(maxWaitSeconds)).append(" s");
    }
    return b.toString();
  }

  static String num(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.valueOf((long) v) : String.valueOf(v);
  }
}
