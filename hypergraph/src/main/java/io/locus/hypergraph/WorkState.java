package io.locus.hypergraph;

import java.util.Arrays;

/**
 * Mutable partition of one hypergraph level: part per vertex, part loads, pins per (net, part),
 * the connectivity set of every net and the running χ. Shared by the multilevel partitioner's
 * initial partitioning and refinement.
 *
 * <p>Once every vertex is placed, {@link #buildGainCache} adds a gain cache that {@link #move}
 * keeps up to date by deltas: conn(v, p) = Σ c_e over nets of v that touch p, and benefit(v) =
 * Σ c_e over nets where v is alone in its part. The km1 gain of moving v to b ≠ part(v) is then
 * benefit(v) − Σ_{e∋v} c_e + conn(v, b). While an FM pass runs ({@link #attachHeap}), every
 * cache change also re-keys the affected vertex in the FM heap, so a move costs O(pins of its
 * nets) heap updates rather than a rescan of every neighbour.
 */
final class WorkState {
  final Hypergraph h;
  final int k;
  final double lMax;
  final int[] fixed;
  final int[] part;
  final double[] load;
  // Connectivity set of net e: parts connParts[connStart[e] .. connStart[e] + lambda[e]) with
  // their pin counts in connPins. Kept sparse, next to each other, because a dense (net × part)
  // table is megabytes at k = 64 and every access to it was a cache miss.
  final int[] connStart;
  final int[] connParts;
  final int[] connPins;
  final int[] lambda;
  double km1;
  /** Gains within tol of each other count as equal (running sums of real costs drift). */
  final double tol;

  // gain cache, null until buildGainCache()
  double[] conn; // conn(v, p) = conn[v·k + p]
  double[] benefit;
  double[] incident; // Σ_{e∋v} c_e

  // FM hook: the gain heap and each vertex's best target part
  private MaxHeap heap;
  private int[] lockedAt;
  private int pass;
  int[] target;

  // result of bestMove() and bestTarget()
  int bestTarget;
  double bestGain;

  // scan(): per-part connection cost of one (unassigned) vertex
  final double[] acc;
  final int[] touched;
  private final boolean[] isTouched;
  int nTouched;

  WorkState(Hypergraph h, int k, double lMax, int[] fixed) {
    this.h = h;
    this.k = k;
    this.lMax = lMax;
    this.fixed = fixed;
    this.part = new int[h.n];
    Arrays.fill(part, -1);
    this.load = new double[k];
    this.connStart = new int[h.m + 1];
    for (int e = 0; e < h.m; e++) {
      connStart[e + 1] = connStart[e] + Math.min(k, h.netSize(e)); // λ ≤ min(k, |e|)
    }
    this.connParts = new int[connStart[h.m]];
    this.connPins = new int[connStart[h.m]];
    this.lambda = new int[h.m];
    double maxCost = 0;
    for (double c : h.cost) {
      maxCost = Math.max(maxCost, c);
    }
    this.tol = 1e-9 * maxCost;
    this.acc = new double[k];
    this.touched = new int[k];
    this.isTouched = new boolean[k];
  }

  /** Places the fixed vertices; every other vertex stays unassigned (part −1). */
  void placeFixed() {
    for (int v = 0; v < h.n; v++) {
      if (fixed[v] >= 0) {
        assign(v, fixed[v]);
      }
    }
  }

  /** Assigns every vertex its part from {@code parts} (the state must be empty). */
  void assignAll(int[] parts) {
    for (int v = 0; v < h.n; v++) {
      assign(v, parts[v]);
    }
  }

  boolean isFree(int v) {
    return fixed[v] < 0;
  }

  /** Puts an unassigned vertex into part p (before the gain cache exists). */
  void assign(int v, int p) {
    if (conn != null) {
      throw new IllegalStateException("assign after the gain cache was built");
    }
    part[v] = p;
    load[p] += h.weight[v];
    for (int i = h.vertexStart[v]; i < h.vertexStart[v + 1]; i++) {
      int e = h.nets[i];
      if (addPin(e, p) == 1 && lambda[e] > 1) {
        km1 += h.cost[e];
      }
    }
  }

  /** Pins of net e in part p. */
  int pinsIn(int e, int p) {
    int j = find(e, p);
    return j < 0 ? 0 : connPins[j];
  }

  private int find(int e, int p) {
    for (int j = connStart[e], end = j + lambda[e]; j < end; j++) {
      if (connParts[j] == p) {
        return j;
      }
    }
    return -1;
  }

  /** Adds a pin of e in p; returns the new count. */
  private int addPin(int e, int p) {
    int j = find(e, p);
    if (j >= 0) {
      return ++connPins[j];
    }
    j = connStart[e] + lambda[e]++;
    connParts[j] = p;
    connPins[j] = 1;
    return 1;
  }

  /** Removes a pin of e from p (p must hold one); returns the new count. */
  private int removePin(int e, int p) {
    int j = find(e, p);
    int left = --connPins[j];
    if (left == 0) {
      int last = connStart[e] + --lambda[e];
      connParts[j] = connParts[last];
      connPins[j] = connPins[last];
    }
    return left;
  }

  /** Builds the gain cache from scratch; every vertex must be placed. */
  void buildGainCache() {
    int n = h.n;
    conn = new double[n * k];
    benefit = new double[n];
    incident = new double[n];
    for (int v = 0; v < n; v++) {
      int a = part[v];
      double b = 0;
      double t = 0;
      for (int i = h.vertexStart[v]; i < h.vertexStart[v + 1]; i++) {
        int e = h.nets[i];
        double c = h.cost[e];
        t += c;
        if (pinsIn(e, a) == 1) {
          b += c;
        }
        for (int j = connStart[e], end = j + lambda[e]; j < end; j++) {
          conn[v * k + connParts[j]] += c;
        }
      }
      benefit[v] = b;
      incident[v] = t;
    }
  }

  /** km1 gain of moving v to b ≠ part[v] (gain cache). */
  double gain(int v, int b) {
    return benefit[v] - incident[v] + conn[v * k + b];
  }

  /**
   * During an FM pass, cache changes re-key the free unlocked vertices in {@code heap}, keyed by
   * their best gain over the parts they are connected to ({@code target[v]}).
   */
  void attachHeap(MaxHeap heap, int[] lockedAt, int pass) {
    this.heap = heap;
    this.lockedAt = lockedAt;
    this.pass = pass;
    if (target == null) {
      target = new int[h.n];
    }
  }

  void detachHeap() {
    heap = null;
  }

  private boolean inHeapScope(int u) {
    return heap != null && fixed[u] < 0 && lockedAt[u] != pass;
  }

  /** Moves an assigned vertex to part b ≠ part[v], updating the gain cache if built. */
  void move(int v, int b) {
    int a = part[v];
    double w = h.weight[v];
    load[a] -= w;
    load[b] += w;
    part[v] = b;
    boolean cache = conn != null;
    double vBenefit = 0;
    for (int i = h.vertexStart[v]; i < h.vertexStart[v + 1]; i++) {
      int e = h.nets[i];
      double c = h.cost[e];
      int pa = removePin(e, a);
      int pb = addPin(e, b);
      if (pa == 0) {
        km1 -= c;
      }
      if (pb == 1) {
        km1 += c;
      }
      if (!cache) {
        continue;
      }
      if (pb == 1) {
        vBenefit += c;
      }
      if (pa > 1 && pb > 2) {
        continue; // no pin's gain changes through e
      }
      for (int j = h.netStart[e]; j < h.netStart[e + 1]; j++) {
        int u = h.pins[j];
        if (pa == 0) {
          connDelta(u, a, -c);
        } else if (pa == 1 && part[u] == a) {
          benefitDelta(u, c); // u is now alone in a
        }
        if (pb == 1) {
          connDelta(u, b, c);
        } else if (pb == 2 && u != v && part[u] == b) {
          benefitDelta(u, -c); // u is no longer alone in b
        }
      }
    }
    if (cache) {
      benefit[v] = vBenefit;
    }
  }

  // A heap key is an upper bound of the vertex's best gain, exact after most updates: increases
  // are applied at once, a drop of the conn of its target is left lazy (finding the new best
  // part costs O(k)). The FM pass verifies the top before using it (verifiedTop), so it always
  // takes a true best move.

  private void connDelta(int u, int p, double d) {
    conn[u * k + p] += d;
    if (d > 0 && inHeapScope(u) && p != part[u]) {
      int t = target[u];
      if (t == p) {
        heap.put(u, heap.key(u) + d);
      } else {
        double g = gain(u, p);
        if (t < 0 || !heap.contains(u) || g > heap.key(u)) {
          target[u] = p;
          heap.put(u, g);
        }
      }
    }
  }

  private void benefitDelta(int u, double d) {
    benefit[u] += d;
    if (inHeapScope(u) && heap.contains(u)) {
      heap.put(u, heap.key(u) + d); // shifts the gain to every part alike
    }
  }

  /** Keys free vertex u exactly: its best target among the parts it is connected to. */
  void insertIntoHeap(int u) {
    if (bestTarget(u)) {
      target[u] = bestTarget;
      heap.put(u, bestGain);
    } else {
      target[u] = -1;
      heap.remove(u);
    }
  }

  /**
   * Re-keys stale tops until the top's key is its true best gain; returns it (its target in
   * {@code target}) or −1 when the heap is empty.
   */
  int verifiedTop() {
    while (!heap.isEmpty()) {
      int u = heap.top();
      double key = heap.topKey();
      if (!bestTarget(u)) {
        target[u] = -1;
        heap.remove(u);
        continue;
      }
      target[u] = bestTarget;
      if (bestGain == key) {
        return u;
      }
      heap.put(u, bestGain);
    }
    return -1;
  }

  /**
   * The best part for v among those it is connected to, room ignored: largest gain, then lighter
   * part, then lower part. Sets bestTarget and bestGain; false when v touches no other part.
   */
  boolean bestTarget(int v) {
    int a = part[v];
    double base = benefit[v] - incident[v];
    int row = v * k;
    int best = -1;
    double bestG = 0;
    for (int b = 0; b < k; b++) {
      double cb = conn[row + b];
      if (b == a || !(cb > 0)) {
        continue;
      }
      double g = base + cb;
      if (best < 0 || g > bestG || (g == bestG && load[b] < load[best])) {
        best = b;
        bestG = g;
      }
    }
    bestTarget = best;
    bestGain = bestG;
    return best >= 0;
  }

  /** Σ_p max(0, W_p − L_max). */
  double overload() {
    double over = 0;
    for (int p = 0; p < k; p++) {
      over += Math.max(0, load[p] - lMax);
    }
    return over;
  }

  /**
   * The best km1 move of v (gain cache) to a part it is connected to and that has room
   * (W_b + w ≤ L_max): largest gain, then lighter part, then lower part. Returns false when there
   * is none.
   */
  boolean bestMove(int v) {
    int a = part[v];
    double w = h.weight[v];
    double base = benefit[v] - incident[v];
    int row = v * k;
    int best = -1;
    double bestG = 0;
    for (int b = 0; b < k; b++) {
      double cb = conn[row + b];
      if (b == a || !(cb > 0) || load[b] + w > lMax) {
        continue;
      }
      double g = base + cb;
      if (best < 0 || g > bestG || (g == bestG && load[b] < load[best])) {
        best = b;
        bestG = g;
      }
    }
    bestTarget = best;
    bestGain = bestG;
    return best >= 0;
  }

  /**
   * Fills {@code acc[p]} = Σ c_e over the nets of v that touch p, for the parts p ≠ part[v] listed
   * in {@code touched[0..nTouched)} (for an unassigned v: every part its nets touch). Call
   * {@link #clearScan} afterwards. Needs no gain cache.
   */
  void scan(int v) {
    int a = part[v];
    for (int i = h.vertexStart[v]; i < h.vertexStart[v + 1]; i++) {
      int e = h.nets[i];
      double c = h.cost[e];
      for (int j = connStart[e], end = j + lambda[e]; j < end; j++) {
        int p = connParts[j];
        if (p != a) {
          if (!isTouched[p]) {
            isTouched[p] = true;
            touched[nTouched++] = p;
          }
          acc[p] += c;
        }
      }
    }
  }

  void clearScan() {
    for (int i = 0; i < nTouched; i++) {
      int p = touched[i];
      acc[p] = 0;
      isTouched[p] = false;
    }
    nTouched = 0;
  }
}
