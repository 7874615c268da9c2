package io.locus.core.split;

import io.locus.core.model.Ids;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The progress and cost model of spec §1.2–1.3 over a pool's state: per-event costs fixed at
 * dispatch (LOCAL, REMOTE, TAPE segments, with third-remote-access replication), the position a
 * running subjob has reached at the model clock, COST(v, r) under the current caches, backlogs,
 * the cache-aware cuts (SPLIT_BY_CACHE, SPLIT_TIME_BALANCED of a running subjob), and the cache
 * materialisation of §1.3.
 */
final class ProgressModel {
  /** Slack on progress arithmetic: event boundaries within a microsecond count as reached. */
  static final double EPS = 1e-6;

  private final SplitState state;
  private final SplitParams params;
  private final EventCosts costs;
  private final long min;
  /** backlog(u) includes u's private queue (policies that keep private queues). */
  private boolean queueBacklog;

  ProgressModel(SplitState state) {
    this.state = state;
    this.params = state.params;
    this.costs = params.costs();
    this.min = params.min();
  }

  void queueBacklog(boolean b) {
    this.queueBacklog = b;
  }

  boolean queueBacklog() {
    return queueBacklog;
  }

  // ===================================================================== progress

  /** pos(t): the first unprocessed event of a running subjob at the model clock (§1.3). */
  long pos(Subjob x) {
    if (x.held() || x.node == null) {
      return x.start;
    }
    double elapsed = state.now - x.dispatch + EPS;
    double acc = 0;
    for (CostSegment s : x.segments) {
      long a = Math.max(x.start, s.range().start());
      long b = Math.min(x.end, s.range().end());
      if (a >= b) {
        continue;
      }
      double c = (b - a) * s.secondsPerEvent();
      if (acc + c <= elapsed) {
        acc += c;
        continue;
      }
      long k = (long) Math.floor((elapsed - acc) / s.secondsPerEvent());
      return a + Math.max(0, Math.min(k, b - a));
    }
    return x.end;
  }

  /** Remaining events of a running subjob. */
  long remainingEvents(Subjob x) {
    return x.end - pos(x);
  }

  /** Seconds until a running subjob ends (its full cost while held). */
  double remainingTime(Subjob x) {
    double total = CostSegment.cost(x.segments, x.start, x.end);
    if (x.held()) {
      return total;
    }
    return Math.max(0, x.dispatch + total - state.now);
  }

  /** backlog(u): seconds of work the node has (spec §2.0). */
  double backlog(SplitNode u) {
    double running = u.running == null ? 0 : remainingTime(u.running);
    return queueBacklog ? running + queuedCost(u) : running;
  }

  // ===================================================================== costs

  /** COST(v, [s, e)) under the current caches (queued pieces, candidates). */
  double costOn(SplitNode v, long s, long e) {
    if (s >= e) {
      return 0;
    }
    if (!params.caching()) {
      return (e - s) * costs.cMiss();
    }
    double sum = 0;
    long pos = s;
    for (EventSpan c : cacheOf(v).cachedParts(s, e)) {
      if (c.start() > pos) {
        sum += gapCost(pos, c.start());
      }
      sum += c.length() * costs.cHit();
      pos = c.end();
    }
    if (pos < e) {
      sum += gapCost(pos, e);
    }
    return sum;
  }

  /** Σ COST(u, x) over u's private queue under the current caches. */
  double queuedCost(SplitNode u) {
    if (u.queueCosts != null && !params.replication()) {
      return u.queueCosts.sum(costs);
    }
    double b = 0; // remote costs depend on every cache: recompute
    for (Subjob x : u.queue) {
      b += costOn(u, x.start, x.end);
    }
    return b;
  }

  private double gapCost(long s, long e) {
    if (!params.replication()) {
      return (e - s) * costs.cMiss();
    }
    double sum = 0;
    for (CoverageIndex.Segment seg : coverageAll().segments(s, e)) {
      sum += seg.range().length() * (seg.holders().isEmpty() ? costs.cMiss() : costs.cRemote());
    }
    return sum;
  }

  /** Holder choice where several nodes cache a range: smallest backlog, tie lowest id. */
  String chooseHolder(List<String> holders) {
    return chooseHolder(holders, new HashMap<>());
  }

  private String chooseHolder(List<String> holders, Map<String, Double> memo) {
    String best = null;
    double bestBacklog = Double.POSITIVE_INFINITY;
    for (String h : holders) {
      SplitNode u = state.nodes.get(h);
      double b = u == null ? Double.POSITIVE_INFINITY
          : memo.computeIfAbsent(h, k -> backlog(u));
      if (best == null || b < bestBacklog) {
        best = h;
        bestBacklog = b;
      }
    }
    return best;
  }

  // ===================================================================== cuts

  /** SPLIT_BY_CACHE of r with this pool's caches (holder: smallest backlog, lowest id). */
  List<Pieces.Piece> splitByCache(EventSpan r) {
    if (!params.caching()) {
      return List.of(new Pieces.Piece(r, null));
    }
    CoverageIndex idx = coverageAll();
    Map<String, Double> backlogs = new HashMap<>(); // nothing changes during the cut
    return Pieces.splitByCache(r, idx, holders -> chooseHolder(holders, backlogs), min);
  }

  /** SPLIT_TIME_BALANCED of the remaining part of y (running on its node, W_a = 0) toward b. */
  long splitRunningBalanced(Subjob y, SplitNode b) {
    long m = pos(y);
    long e = y.end;
    return Pieces.splitTimeBalanced(m, e, min, x -> CostSegment.cost(y.segments, m, x),
        x -> costOn(b, x, e), 0, 0);
  }

  // ===================================================================== segments at dispatch

  /**
   * The per-event cost segments of [s, e) on v: LOCAL where v caches, REMOTE where another node
   * does (replication variant), TAPE elsewhere. With {@code countAccess}, remote reads count
   * toward third-remote-access replication (once per subjob) and replicated parts are marked to be
   * cached.
   */
  List<CostSegment> segmentsFor(SplitNode v, long s, long e, boolean countAccess, JobState j) {
    List<CostSegment> raw = new ArrayList<>();
    if (!params.caching()) {
      raw.add(new CostSegment(new EventSpan(s, e), Source.TAPE, null, costs.cMiss(), false));
      return raw;
    }
    long pos = s;
    for (EventSpan c : cacheOf(v).cachedParts(s, e)) {
      if (c.start() > pos) {
        gapSegments(pos, c.start(), raw);
      }
      raw.add(new CostSegment(c, Source.LOCAL, null, costs.cHit(), false));
      pos = c.end();
    }
    if (pos < e) {
      gapSegments(pos, e, raw);
    }
    if (countAccess && params.replication()) {
      raw = replicate(raw, j);
    }
    return joined(raw);
  }

  private void gapSegments(long s, long e, List<CostSegment> raw) {
    if (!params.replication()) {
      raw.add(new CostSegment(new EventSpan(s, e), Source.TAPE, null, costs.cMiss(), true));
      return;
    }
    for (CoverageIndex.Segment seg : coverageAll().segments(s, e)) {
      if (seg.holders().isEmpty()) {
        raw.add(new CostSegment(seg.range(), Source.TAPE, null, costs.cMiss(), true));
      } else {
        raw.add(new CostSegment(seg.range(), Source.REMOTE, chooseHolder(seg.holders()),
            costs.cRemote(), false));
      }
    }
  }

  /** §3.2: counts this subjob's remote reads per owner; marks the parts that replicate. */
  private List<CostSegment> replicate(List<CostSegment> raw, JobState j) {
    Map<String, List<EventSpan>> byPeer = new TreeMap<>(Ids.ORDER);
    for (CostSegment c : raw) {
      if (c.source() == Source.REMOTE) {
        byPeer.computeIfAbsent(c.peer(), k -> new ArrayList<>()).add(c.range());
      }
    }
    if (byPeer.isEmpty()) {
      return raw;
    }
    List<EventSpan> copy = new ArrayList<>();
    for (Map.Entry<String, List<EventSpan>> e : byPeer.entrySet()) {
      copy.addAll(cacheOf(state.nodes.get(e.getKey())).remoteAccess(joinRanges(e.getValue()),
          params.replicationThreshold()));
    }
    if (copy.isEmpty()) {
      return raw;
    }
    state.replications++;
    j.replicated = true;
    state.changes.job(j);
    copy.sort(null);
    List<CostSegment> outSegs = new ArrayList<>();
    for (CostSegment c : raw) {
      if (c.source() != Source.REMOTE) {
        outSegs.add(c);
        continue;
      }
      long p = c.range().start();
      for (EventSpan r : copy) {
        EventSpan in = r.intersection(c.range());
        if (in == null) {
          continue;
        }
        if (in.start() > p) {
          outSegs.add(new CostSegment(new EventSpan(p, in.start()), Source.REMOTE, c.peer(),
              c.secondsPerEvent(), false));
        }
        outSegs.add(new CostSegment(in, Source.REMOTE, c.peer(), c.secondsPerEvent(), true));
        p = in.end();
      }
      if (p < c.range().end()) {
        outSegs.add(new CostSegment(new EventSpan(p, c.range().end()), Source.REMOTE, c.peer(),
            c.secondsPerEvent(), false));
      }
    }
    return outSegs;
  }

  private static List<EventSpan> joinRanges(List<EventSpan> rs) {
    List<EventSpan> outR = new ArrayList<>();
    for (EventSpan r : rs) {
      if (!outR.isEmpty() && outR.get(outR.size() - 1).end() == r.start()) {
        EventSpan l = outR.remove(outR.size() - 1);
        outR.add(new EventSpan(l.start(), r.end()));
      } else {
        outR.add(r);
      }
    }
    return outR;
  }

  /** Joins neighbouring segments with equal source, peer, cost and caching. */
  private static List<CostSegment> joined(List<CostSegment> raw) {
    List<CostSegment> o = new ArrayList<>(raw.size());
    for (CostSegment c : raw) {
      if (!o.isEmpty()) {
        CostSegment l = o.get(o.size() - 1);
        if (l.range().end() == c.range().start() && l.source() == c.source()
            && Objects.equals(l.peer(), c.peer()) && l.secondsPerEvent() == c.secondsPerEvent()
            && l.cacheAfterRead() == c.cacheAfterRead()) {
          o.set(o.size() - 1, new CostSegment(new EventSpan(l.range().start(), c.range().end()),
              c.source(), c.peer(), c.secondsPerEvent(), c.cacheAfterRead()));
          continue;
        }
      }
      o.add(c);
    }
    return o;
  }

  // ===================================================================== cache materialisation

  /**
   * §1.3: before deciding, every running subjob's processed prefix is due in the caches. It is
   * applied when a cache is first read (cacheOf, coverageAll): a node's cache and LRU order change
   * only through its own subjob's reads until someone looks, so applying them later gives the same
   * state. The replication variant applies everything at once (remote reads touch other caches).
   */
  void materialise() {
    if (!params.caching()) {
      return;
    }
    boolean eager = SplitPolicy.eagerMaterialisation || params.replication();
    for (SplitNode v : state.nodes.values()) {
      Subjob x = v.running;
      if (x != null && !x.held()) {
        v.dirty = true;
        if (eager) {
          cacheOf(v);
        }
      }
    }
  }

  /** v's cache with v's running subjob's progress applied (the §1.3 materialisation, lazily). */
  RangeLru cacheOf(SplitNode v) {
    if (v.dirty) {
      v.dirty = false;
      Subjob x = v.running;
      if (x != null && !x.held()) {
        materialiseUpTo(x, pos(x));
      }
    }
    return v.cache;
  }

  /** The pool-wide index with every node's progress applied. */
  CoverageIndex coverageAll() {
    for (SplitNode v : state.nodes.values()) {
      if (v.dirty) {
        cacheOf(v);
      }
    }
    return state.index;
  }

  void materialiseUpTo(Subjob x, long p) {
    if (p > x.materialised) {
      if (x.node != null) {
        materialiseOn(x, x.node, x.materialised, p);
      }
      x.materialised = p;
      state.changes.subjob(x);
    }
  }

  /**
   * Applies the reads of x in [from, to) to the caches at the model clock: the cached-on-read
   * events are inserted into v's cache, then the whole processed prefix [x.start, to) is touched
   * on v (and on the owners of remote reads). Touching the whole prefix, not only the new part, is
   * how we read §1.3's "touches its processed cached parts": a running subjob's processed range is
   * then one entry stamped with the latest materialisation, so the cache after the subjob (and its
   * LRU order) does not depend on how often progress was materialised (D7), and entries do not
   * fragment into one per decision.
   */
  void materialiseOn(Subjob x, SplitNode v, long from, long to) {
    if (!params.caching() || from >= to) {
      return;
    }
    double now = state.now;
    for (CostSegment s : x.segments) {
      long a = Math.max(from, s.range().start());
      long b = Math.min(to, s.range().end());
      if (a < b && s.cacheAfterRead() && s.source() != Source.LOCAL) {
        v.cache.insert(a, b, now);
      }
    }
    v.cache.touch(x.start, to, now);
    for (CostSegment s : x.segments) {
      if (s.source() == Source.REMOTE) {
        long a = Math.max(x.start, s.range().start());
        long b = Math.min(to, s.range().end());
        SplitNode owner = state.nodes.get(s.peer());
        if (a < b && owner != null) {
          owner.cache.touch(a, b, now);
        }
      }
    }
  }

  /** Undoes the insertion of x's events in [from, to) on v (an ack behind the model). */
  void uncache(Subjob x, SplitNode v, long from, long to) {
    for (CostSegment s : x.segments) {
      long a = Math.max(from, s.range().start());
      long b = Math.min(to, s.range().end());
      if (a < b && s.cacheAfterRead()) {
        v.cache.remove(a, b);
      }
    }
  }
}
