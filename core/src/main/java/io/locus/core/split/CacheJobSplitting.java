package io.locus.core.split;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code CACHE_JOB_SPLITTING} (spec §2.3): {@link JobSplitting}'s FIFO discipline and "a started
 * job keeps a node" rule over cache-aligned pieces (SPLIT_BY_CACHE); tape data is cached where it
 * is processed (LRU_RANGE); nodes holding a job's data are preferred, uncached work is preempted
 * first, and freed nodes split running subjobs for caching benefit (D13) with SPLIT_TIME_BALANCED
 * (D12), after reactivating suspended work (D11) and starting the FIFO head (D28).
 */
final class CacheJobSplitting extends FcfsWork {
  CacheJobSplitting(Primitives ops) {
    super(ops);
  }

  private List<Subjob> cut(JobState j) {
    List<Subjob> p = new ArrayList<>();
    for (Pieces.Piece piece : model.splitByCache(j.events)) {
      Subjob x = ops.newPiece(j, piece.range().start(), piece.range().end());
      x.cachedOn = piece.cachedOn();
      p.add(x);
    }
    return p;
  }

  @Override
  public void arrival(JobState j) {
    List<SplitNode> idle = ops.idleNodes();
    if (!idle.isEmpty()) {
      List<Subjob> p = cut(j);
      for (SplitNode v : new ArrayList<>(idle)) {
        Subjob x = largestCachedOn(p, v);
        if (x != null) {
          p.remove(x);
          ops.run(x, v);
          idle.remove(v);
        }
      }
      for (SplitNode v : new ArrayList<>(idle)) {
        if (p.isEmpty()) {
          break;
        }
        Subjob x = mostSuitable(p, v);
        p.remove(x);
        ops.run(x, v);
        idle.remove(v);
      }
      while (!idle.isEmpty()) {
        Subjob y = null;
        double longest = -1;
        for (SplitNode u : ops.nodes()) {
          Subjob x = u.running;
          if (x != null && x.job == j && !x.frozen() && model.remainingEvents(x) >= 2 * ops.min) {
            double rt = model.remainingTime(x);
            if (rt > longest) {
              longest = rt;
              y = x;
            }
          }
        }
        if (y == null) {
          break;
        }
        SplitNode v = idle.get(0);
        long cutAt = model.splitRunningBalanced(y, v);
        if (cutAt < 0) {
          break;
        }
        ops.run(ops.shrinkRunning(y.node, cutAt), v);
        idle.remove(0);
      }
      for (Subjob x : p) {
        pushSuspended(x);
      }
      return;
    }
    SplitNode fallback = victimNode(); // rule (a) needs a job with >= 2 active nodes too
    if (fallback == null) {
      fifo.addLast(j);
      return;
    }
    List<Subjob> p = cut(j);
    SplitNode victim = cachedVictim(p);
    if (victim == null) {
      victim = fallback;
    }
    suspendTo(victim);
    Subjob x = mostSuitable(p, victim);
    p.remove(x);
    ops.run(x, victim);
    for (Subjob rest : p) {
      pushSuspended(rest);
    }
  }

  /**
   * Rule (a): a node running an uncached subjob (no event read from its own cache) of a job with
   * ≥ 2 active nodes, on which a piece of the new job is cached; the one holding the largest such
   * piece (tie: lowest id).
   */
  private SplitNode cachedVictim(List<Subjob> p) {
    SplitNode best = null;
    long bestLen = -1;
    for (SplitNode v : ops.nodes()) {
      Subjob y = v.running;
      if (y == null || y.frozen() || y.job.active < 2 || hasLocal(y)) {
        continue;
      }
      Subjob x = largestCachedOn(p, v);
      if (x != null && x.length() > bestLen) {
        bestLen = x.length();
        best = v;
      }
    }
    return best;
  }

  private static boolean hasLocal(Subjob y) {
    for (CostSegment s : y.segments) {
      if (s.source() == Source.LOCAL && s.range().start() < y.end && s.range().end() > y.start) {
        return true;
      }
    }
    return false;
  }

  private static Subjob largestCachedOn(List<Subjob> p, SplitNode v) {
    Subjob best = null;
    for (Subjob x : p) {
      if (v.id.equals(x.cachedOn) && (best == null || x.length() > best.length())) {
        best = x;
      }
    }
    return best;
  }

  /** Largest piece cached on v, else largest uncached, else largest cached elsewhere. */
  private static Subjob mostSuitable(List<Subjob> p, SplitNode v) {
    Subjob onV = null;
    Subjob uncached = null;
    Subjob elsewhere = null;
    for (Subjob x : p) {
      if (v.id.equals(x.cachedOn)) {
        onV = larger(onV, x);
      } else if (x.cachedOn == null) {
        uncached = larger(uncached, x);
      } else {
        elsewhere = larger(elsewhere, x);
      }
    }
    return onV != null ? onV : uncached != null ? uncached : elsewhere;
  }

  private static Subjob larger(Subjob best, Subjob x) {
    return best == null || x.length() > best.length() ? x : best;
  }

  @Override
  public void subjobEnded(SplitNode v, JobState k, boolean jobFinished) {
    if (!v.idle()) {
      return;
    }
    if (!jobFinished && !k.suspended.isEmpty()) {
      ops.run(mostCachedOn(k.suspended.toList(), v), v);
    } else {
      nodeAvailable(v);
    }
  }

  /** onJobEnd(v): START_FROM_FIFO, else reactivate suspended work (D11), else SPLIT_FOR_CACHE. */
  @Override
  public void nodeAvailable(SplitNode v) {
    if (!fifo.isEmpty()) {
      JobState j = fifo.pollFirst();
      List<Subjob> p = cut(j);
      Subjob x = mostSuitable(p, v);
      p.remove(x);
      ops.run(x, v);
      for (Subjob rest : p) {
        pushSuspended(rest);
      }
      return;
    }
    Subjob best = null;
    long bestCached = -1;
    for (var it = withSuspended.values().iterator(); it.hasNext(); ) { // by arrival
      JobState k = it.next();
      if (k.suspended.isEmpty() || !ops.unfinished(k)) {
        it.remove(); // stale
        continue;
      }
      for (Subjob x : k.suspended) {
        long c = model.cacheOf(v).cachedCount(x.start, x.end);
        if (c > bestCached || (c == bestCached && x.job == best.job && x.start < best.start)) {
          bestCached = c;
          best = x;
        }
      }
    }
    if (best != null) {
      ops.run(best, v);
    } else {
      splitForCache(v);
    }
  }

  /** The subjob with the most events cached on v (tie: first in the given order = lowest start). */
  private Subjob mostCachedOn(List<Subjob> xs, SplitNode v) {
    xs.sort((a, b) -> Long.compare(a.start, b.start));
    Subjob best = null;
    long most = -1;
    for (Subjob x : xs) {
      long c = model.cacheOf(v).cachedCount(x.start, x.end);
      if (c > most) {
        most = c;
        best = x;
      }
    }
    return best;
  }

  /** SPLIT_FOR_CACHE(v) (D13). */
  private void splitForCache(SplitNode v) {
    Subjob byBenefit = null;
    long bestCached = 0;
    long bestRemaining = -1;
    Subjob byLength = null;
    long longest = -1;
    for (SplitNode u : ops.nodes()) {
      Subjob x = u.running;
      if (u == v || x == null || x.frozen()) {
        continue;
      }
      long m = model.pos(x);
      long rem = x.end - m;
      if (rem < 2 * ops.min) {
        continue;
      }
      long gain = 0;
      for (EventSpan c : model.cacheOf(v).cachedParts(m, x.end)) {
        gain += c.length() - model.cacheOf(u).cachedCount(c.start(), c.end());
      }
      if (gain > bestCached || (gain == bestCached && gain > 0 && rem > bestRemaining)) {
        bestCached = gain;
        bestRemaining = rem;
        byBenefit = x;
      }
      if (rem > longest) {
        longest = rem;
        byLength = x;
      }
    }
    Subjob x = bestCached > 0 && ops.costs.cMiss() > ops.costs.cHit() ? byBenefit : byLength;
    if (x == null) {
      return;
    }
    long cutAt = model.splitRunningBalanced(x, v);
    if (cutAt >= 0) {
      ops.run(ops.shrinkRunning(x.node, cutAt), v);
    }
  }
}
