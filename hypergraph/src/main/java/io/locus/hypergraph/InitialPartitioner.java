package io.locus.hypergraph;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Initial k-way partitions of the coarsest level: several tries, each rebalanced and refined
 * (label propagation; FM too when the level is small), the best kept (least overload, then least
 * χ, then earliest try).
 *
 * <p>Try 0 is the greedy placement of GreedyKm1 (w desc, id asc). Odd tries grow the parts one
 * after the other from a random seed vertex, always adding the unassigned vertex most connected
 * to the growing part. Other even tries are the greedy placement in a random order (heaviest
 * first).
 */
final class InitialPartitioner {
  static final int MAX_TRIES = 32;
  /** Pins × tries spent on the coarsest level before the minimum number of tries is all. */
  static final int TRY_BUDGET_PINS = 40_000;
  /** Up to this many pins, each try is refined with FM too. */
  static final int FM_TRY_PINS = 10_000;

  private InitialPartitioner() {}

  /**
   * The best of the tries. Small coarsest levels are cheap, so they get more tries (up to
   * {@link #MAX_TRIES}) and FM on every try; large ones get LP on each try and leave FM to the
   * caller.
   */
  static int[] partition(Hypergraph h, int k, double lMax, int[] fixed, int minTries,
      Refiner refiner, SplittableRandom rng) {
    int tries = Math.max(minTries, Math.min(MAX_TRIES, TRY_BUDGET_PINS / Math.max(1, h.numPins())));
    boolean fmOnTries = h.numPins() <= FM_TRY_PINS;
    int[] best = null;
    double bestOver = 0;
    double bestKm1 = 0;
    int[] free = freeVertices(fixed);
    for (int t = 0; t < tries; t++) {
      SplittableRandom r = rng.split();
      WorkState s = new WorkState(h, k, lMax, fixed);
      s.placeFixed();
      if (t % 2 == 1) {
        grow(s, free, r);
      } else {
        int[] order = free.clone();
        if (t > 0) {
          Coarsener.shuffle(order, r);
        }
        greedy(s, heaviestFirst(h, order));
      }
      int[] refineOrder = free.clone();
      Coarsener.shuffle(refineOrder, r);
      refiner.refine(s, refineOrder, fmOnTries);
      double over = s.overload();
      double tol = 1e-12 * Math.max(lMax, Double.MIN_NORMAL) * k;
      if (best == null || over < bestOver - tol
          || (over <= bestOver + tol && s.km1 < bestKm1 - s.tol)) {
        best = s.part.clone();
        bestOver = over;
        bestKm1 = s.km1;
      }
    }
    return best;
  }

  static int[] freeVertices(int[] fixed) {
    int cnt = 0;
    for (int f : fixed) {
      if (f < 0) {
        cnt++;
      }
    }
    int[] free = new int[cnt];
    for (int v = 0, i = 0; v < fixed.length; v++) {
      if (fixed[v] < 0) {
        free[i++] = v;
      }
    }
    return free;
  }

  /** Stable sort by weight desc. */
  private static int[] heaviestFirst(Hypergraph h, int[] order) {
    Integer[] boxed = new Integer[order.length];
    for (int i = 0; i < order.length; i++) {
      boxed[i] = order[i];
    }
    Arrays.sort(boxed, (x, y) -> Double.compare(h.weight[y], h.weight[x]));
    int[] out = new int[order.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = boxed[i];
    }
    return out;
  }

  /** GreedyKm1's placement rule: the feasible part of most connection cost, else the lightest. */
  static void greedy(WorkState s, int[] order) {
    for (int v : order) {
      if (s.part[v] < 0) {
        s.assign(v, greedyTarget(s, v));
      }
    }
  }

  private static int greedyTarget(WorkState s, int v) {
    s.scan(v);
    double w = s.h.weight[v];
    int best = -1;
    for (int p = 0; p < s.k; p++) {
      if (s.load[p] + w > s.lMax) {
        continue;
      }
      if (best < 0 || s.acc[p] > s.acc[best]
          || (s.acc[p] == s.acc[best] && s.load[p] < s.load[best])) {
        best = p;
      }
    }
    s.clearScan();
    if (best < 0) {
      best = 0;
      for (int p = 1; p < s.k; p++) {
        if (s.load[p] < s.load[best]) {
          best = p;
        }
      }
    }
    return best;
  }

  /**
   * Greedy growing: part p takes, one by one, the unassigned free vertex of most connection cost
   * to p (a random one when none is connected) until W_p reaches Σw/k; what is left goes by the
   * greedy rule.
   */
  static void grow(WorkState s, int[] free, SplittableRandom rng) {
    Hypergraph h = s.h;
    int k = s.k;
    double target = h.totalWeight / k;
    MaxHeap heap = new MaxHeap(h.n);
    int[] pool = free.clone();
    Coarsener.shuffle(pool, rng);
    int cursor = 0;
    int[] netSeen = new int[h.m];
    Arrays.fill(netSeen, -1);
    for (int p = 0; p < k; p++) {
      heap.clear();
      for (int v = 0; v < h.n; v++) { // nets already in p (fixed vertices) attract their pins
        if (s.part[v] == p) {
          attract(s, v, p, heap, netSeen);
        }
      }
      while (s.load[p] < target) {
        int v;
        if (!heap.isEmpty()) {
          v = heap.pop();
        } else {
          while (cursor < pool.length && s.part[pool[cursor]] >= 0) {
            cursor++;
          }
          if (cursor == pool.length) {
            break;
          }
          v = pool[cursor];
        }
        if (s.load[p] + h.weight[v] > s.lMax) {
          if (heap.isEmpty() && s.part[v] < 0) {
            break; // the next random seed does not fit either: leave p as it is
          }
          continue;
        }
        s.assign(v, p);
        attract(s, v, p, heap, netSeen);
      }
    }
    heap.clear();
    int[] rest = Arrays.stream(free).filter(v -> s.part[v] < 0).toArray();
    greedy(s, heaviestFirst(h, rest));
  }

  /** Adds c_e to the key of every unassigned pin of each net of v first reached by part p. */
  private static void attract(WorkState s, int v, int p, MaxHeap heap, int[] netSeen) {
    Hypergraph h = s.h;
    for (int i = h.vertexStart[v]; i < h.vertexStart[v + 1]; i++) {
      int e = h.nets[i];
      if (netSeen[e] == p) {
        continue;
      }
      netSeen[e] = p;
      double c = h.cost[e];
      for (int j = h.netStart[e]; j < h.netStart[e + 1]; j++) {
        int u = h.pins[j];
        if (s.part[u] < 0) {
          heap.put(u, heap.contains(u) ? heap.key(u) + c : c);
        }
      }
    }
  }
}
