package io.locus.hypergraph;

import java.util.Arrays;

/**
 * Refinement of one level: rebalancing, label propagation, then k-way FM passes with rollback to
 * the best prefix. Rebalancing removes overload where it can; label propagation only moves into
 * parts with room; FM may overload a part for one step but ends no less balanced than it began.
 * Scratch arrays are sized once for the finest level and reused on every level.
 */
final class Refiner {
  private final int lpRounds;
  private final int fmPasses;
  private final int fmStopAfter;
  private MaxHeap heap; // made on first use
  private final int[] lockedAt;
  private int pass;
  private final int[] logV;
  private final int[] logFrom;
  private final int[] cand;
  private final double[] candGain;
  private final double[] candDelta;
  private final boolean[] candFits;
  private double[] cap = new double[0]; // per part, for the current FM pass
  private int reliefVertex; // result of relief()

  Refiner(int capacity, int lpRounds, int fmPasses, int fmStopAfter) {
    this.lpRounds = lpRounds;
    this.fmPasses = fmPasses;
    this.fmStopAfter = fmStopAfter;
    this.lockedAt = new int[capacity];
    this.logV = new int[capacity];
    this.logFrom = new int[capacity];
    this.cand = new int[capacity];
    this.candGain = new double[capacity];
    this.candDelta = new double[capacity];
    this.candFits = new boolean[capacity];
  }

  /** Rebalance, then label propagation, then FM; {@code order} lists the free vertices. */
  void refine(WorkState s, int[] order, boolean fm) {
    if (s.conn == null) {
      s.buildGainCache();
    }
    rebalance(s);
    for (int r = 0; r < lpRounds; r++) {
      if (labelPropagation(s, order) == 0) {
        break;
      }
    }
    for (int p = 0; fm && p < fmPasses; p++) {
      if (!fmPass(s, order)) {
        break;
      }
    }
  }

  /**
   * One round over the free vertices: move each to its best part with room when that lowers χ,
   * or keeps χ and evens the loads (which lowers Σ W², so rounds cannot cycle).
   */
  int labelPropagation(WorkState s, int[] order) {
    int moved = 0;
    for (int v : order) {
      if (!s.bestMove(v)) {
        continue;
      }
      double g = s.bestGain;
      int a = s.part[v];
      int b = s.bestTarget;
      if (g > s.tol || (g >= -s.tol && s.load[b] + s.h.weight[v] < s.load[a])) {
        s.move(v, b);
        moved++;
      }
    }
    return moved;
  }

  /**
   * One k-way FM pass over the free vertices, each keyed in a max-heap by its best gain to a part
   * it is connected to.
   *
   * <p>While no part is above its cap (L_max, or its load at the start if that was more), a
   * step moves the top vertex to its best part (negative gains too), even if that part is full.
   * A step that takes a part above its cap must be followed by a relief step: the best move of a
   * vertex out of such a part into a part with room. So FM swaps and shifts along chains of full
   * parts, which single moves under W ≤ L_max cannot do when balance is tight (unit weights,
   * small ε).
   * Moved vertices are locked; the gain cache re-keys the pins of nets whose pin counts crossed a
   * threshold. The pass stops after {@code fmStopAfter} moves without improvement and rolls back
   * to the best prefix (least overload, then least χ), so it never ends less balanced than it
   * began. Returns whether the pass improved.
   */
  boolean fmPass(WorkState s, int[] order) {
    if (heap == null) {
      heap = new MaxHeap(lockedAt.length);
    }
    if (cap.length != s.k) {
      cap = new double[s.k];
    }
    pass++;
    s.attachHeap(heap, lockedAt, pass);
    for (int v : order) {
      s.insertIntoHeap(v);
    }
    double otol = 1e-12 * Math.max(s.lMax, Double.MIN_NORMAL) * s.k;
    // A part overloaded at the start (say by a heavy fixed vertex) keeps its load as its cap, so
    // FM still optimises χ when balance cannot hold; only loads above the caps need relief.
    for (int p = 0; p < s.k; p++) {
      cap[p] = Math.max(s.lMax, s.load[p]) + otol;
    }
    double bestOver = s.overload();
    double bestKm1 = s.km1;
    int bestLen = 0;
    int len = 0;
    int since = 0;
    while (true) {
      int v;
      int b;
      if (aboveCap(s)) {
        if (!relief(s, order)) {
          break;
        }
        v = reliefVertex;
        b = s.bestTarget;
      } else {
        v = s.verifiedTop();
        if (v < 0) {
          break;
        }
        b = s.target[v];
      }
      lockedAt[v] = pass;
      heap.remove(v);
      int a = s.part[v];
      s.move(v, b); // re-keys the neighbours through the gain cache
      logV[len] = v;
      logFrom[len] = a;
      len++;
      double over = s.overload();
      if (over < bestOver - otol || (over <= bestOver + otol && s.km1 < bestKm1 - s.tol)) {
        bestOver = over;
        bestKm1 = s.km1;
        bestLen = len;
        since = 0;
      } else if (++since >= fmStopAfter) {
        break;
      }
    }
    s.detachHeap();
    heap.clear();
    for (int i = len - 1; i >= bestLen; i--) {
      s.move(logV[i], logFrom[i]);
    }
    return bestLen > 0;
  }

  private boolean aboveCap(WorkState s) {
    for (int p = 0; p < s.k; p++) {
      if (s.load[p] > cap[p]) {
        return true;
      }
    }
    return false;
  }

  /**
   * The best move of an unlocked free vertex out of a part above its cap into a part with room
   * (largest gain, then lighter target, then lower vertex). Sets reliefVertex and bestTarget;
   * false when there is none.
   */
  private boolean relief(WorkState s, int[] order) {
    int bestV = -1;
    int bestT = -1;
    double bestG = 0;
    for (int u : order) {
      int a = s.part[u];
      if (lockedAt[u] == pass || s.load[a] <= cap[a]) {
        continue;
      }
      double w = s.h.weight[u];
      for (int t = 0; t < s.k; t++) {
        if (t == a || s.load[t] + w > s.lMax) {
          continue;
        }
        double g = s.gain(u, t);
        if (bestV < 0 || g > bestG || (g == bestG && s.load[t] < s.load[bestT])) {
          bestV = u;
          bestT = t;
          bestG = g;
        }
      }
    }
    reliefVertex = bestV;
    s.bestTarget = bestT;
    s.bestGain = bestG;
    return bestV >= 0;
  }

  /**
   * Moves free vertices out of overloaded parts: first to parts with room, cheapest in χ first;
   * when no part has room, to parts where the move still lowers the total overload (soft
   * balance). Each move strictly lowers Σ max(0, W − L_max), so this terminates.
   */
  void rebalance(WorkState s) {
    Hypergraph h = s.h;
    double otol = 1e-12 * Math.max(s.lMax, Double.MIN_NORMAL) * s.k;
    for (int round = 0; round < h.n && s.overload() > otol; round++) {
      int cnt = 0;
      for (int v = 0; v < h.n; v++) {
        if (s.isFree(v) && h.weight[v] > 0 && s.load[s.part[v]] > s.lMax
            && rebalanceMove(s, v, otol) >= 0) {
          cand[cnt] = v;
          candFits[v] = s.load[s.bestTarget] + h.weight[v] <= s.lMax;
          candGain[v] = s.bestGain;
          candDelta[v] = overloadDelta(s, v, s.bestTarget);
          cnt++;
        }
      }
      if (cnt == 0) {
        return;
      }
      Integer[] sorted = new Integer[cnt];
      for (int i = 0; i < cnt; i++) {
        sorted[i] = cand[i];
      }
      Arrays.sort(sorted, (x, y) -> {
        if (candFits[x] != candFits[y]) {
          return candFits[x] ? -1 : 1;
        }
        if (!candFits[x] && candDelta[x] != candDelta[y]) {
          return Double.compare(candDelta[x], candDelta[y]);
        }
        int c = Double.compare(candGain[y], candGain[x]);
        return c != 0 ? c : Integer.compare(x, y);
      });
      boolean moved = false;
      for (int v : sorted) {
        if (s.load[s.part[v]] > s.lMax && rebalanceMove(s, v, otol) >= 0) {
          s.move(v, s.bestTarget);
          moved = true;
        }
      }
      if (!moved) {
        return;
      }
    }
  }

  /** Change of Σ max(0, W − L_max) if v moved to b. */
  private static double overloadDelta(WorkState s, int v, int b) {
    double w = s.h.weight[v];
    int a = s.part[v];
    double before = Math.max(0, s.load[a] - s.lMax) + Math.max(0, s.load[b] - s.lMax);
    double after = Math.max(0, s.load[a] - w - s.lMax) + Math.max(0, s.load[b] + w - s.lMax);
    return after - before;
  }

  /**
   * The best rebalancing target of v (in an overloaded part), over all parts: a part with room
   * and the largest gain; else the part whose move lowers the overload most. Sets bestTarget and
   * bestGain; returns the target or −1.
   */
  private int rebalanceMove(WorkState s, int v, double otol) {
    int a = s.part[v];
    double w = s.h.weight[v];
    int best = -1;
    boolean bestFits = false;
    double bestDelta = 0;
    double bestG = 0;
    for (int b = 0; b < s.k; b++) {
      if (b == a) {
        continue;
      }
      double g = s.gain(v, b);
      boolean fits = s.load[b] + w <= s.lMax;
      double delta = fits ? 0 : overloadDelta(s, v, b);
      if (!fits && !(delta < -otol)) {
        continue;
      }
      boolean better;
      if (best < 0) {
        better = true;
      } else if (fits != bestFits) {
        better = fits;
      } else if (!fits && delta != bestDelta) {
        better = delta < bestDelta;
      } else if (g != bestG) {
        better = g > bestG;
      } else {
        better = s.load[b] < s.load[best];
      }
      if (better) {
        best = b;
        bestFits = fits;
        bestDelta = delta;
        bestG = g;
      }
    }
    s.bestTarget = best;
    s.bestGain = bestG;
    return best;
  }
}
