package io.locus.core.split;

import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * Σ COST(u, x) over a node's private queue, kept up to date incrementally (backlog(u) is asked for
 * every node on every steal and holder choice, and queues grow long near overload). Without remote
 * reads COST(u, x) = c_hit · cached + c_miss · (|x| − cached), so the queue keeps two integers:
 * its events and those of them cached on u. A member's cached count is recounted only when u's
 * cached events change inside its range, found through the cache's recent-change log; when the log
 * has overflowed, everything is recounted. Integer bookkeeping keeps the sum exact and independent
 * of the order of updates (a restored policy computes the same value).
 */
final class QueueCosts implements SubjobQueue.Listener {
  private static final Comparator<Subjob> BY_START = Comparator
      .comparingLong((Subjob x) -> x.start).thenComparing(x -> x.id);

  private final ProgressModel model;
  private final SplitNode node;
  private final TreeSet<Subjob> byStart = new TreeSet<>(BY_START);
  private long maxLength;
  private long events;
  private long cached;
  private long seen = -1;

  QueueCosts(ProgressModel model, SplitNode node) {
    this.model = model;
    this.node = node;
  }

  @Override
  public void added(Subjob x) {
    refresh();
    x.cachedOnQueue = count(x);
    events += x.length();
    cached += x.cachedOnQueue;
    byStart.add(x);
    maxLength = Math.max(maxLength, x.length());
  }

  @Override
  public void removed(Subjob x) {
    byStart.remove(x);
    events -= x.length();
    cached -= x.cachedOnQueue;
    if (byStart.isEmpty()) {
      maxLength = 0;
    }
  }

  /** Σ COST(u, x) over the queue under the current cache. */
  double sum(EventCosts c) {
    refresh();
    return c.cHit() * cached + c.cMiss() * (events - cached);
  }

  private long count(Subjob x) {
    return node.cache.cachedCount(x.start, x.end);
  }

  private void refresh() {
    RangeLru c = model.cacheOf(node);
    long v = c.version();
    if (v == seen) {
      return;
    }
    if (seen < 0 || c.changedRanges(seen) == null) {
      cached = 0;
      for (Subjob x : byStart) {
        x.cachedOnQueue = count(x);
        cached += x.cachedOnQueue;
      }
    } else {
      for (EventSpan r : c.changedRanges(seen)) {
        Subjob probe = new Subjob("", null, Math.max(0, r.start() - maxLength), r.start());
        for (Subjob x : byStart.tailSet(probe, true)) {
          if (x.start >= r.end()) {
            break;
          }
          if (x.end > r.start()) {
            long n = count(x);
            cached += n - x.cachedOnQueue;
            x.cachedOnQueue = n;
          }
        }
      }
    }
    seen = v;
  }

  /** For tests: the members in start order. */
  List<Subjob> members() {
    return List.copyOf(byStart);
  }
}
