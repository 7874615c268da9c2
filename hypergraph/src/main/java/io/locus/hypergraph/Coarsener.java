package io.locus.hypergraph;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * One coarsening step: heavy-connectivity matching, then contraction.
 *
 * <p>Vertices are visited in a seeded random order; an unmatched vertex u is matched with the
 * unmatched neighbour v of highest rating Σ_{e ∋ u,v} c_e/(|e| − 1) / (w_u·w_v). The weight
 * penalty keeps clusters even. A pair is allowed only if its weight stays within the cluster
 * limit and the two are not fixed to different parts; the pair inherits a fixed part.
 *
 * <p>Contraction drops nets left with one pin and merges nets with identical pin sets (costs
 * added), which leaves χ of any coarse partition equal to χ of its projection.
 */
final class Coarsener {
  /** Nets larger than this are ignored by the rating: they say little about any one pair. */
  private static final int RATING_NET_LIMIT = 500;

  /** A coarse level: its hypergraph, its fixed parts, and the map from the finer level. */
  record Level(Hypergraph h, int[] fixed, int[] fineToCoarse) {}

  private Coarsener() {}

  static Level coarsen(Hypergraph h, int[] fixed, double maxClusterWeight, SplittableRandom rng) {
    int n = h.n;
    int[] match = new int[n];
    Arrays.fill(match, -1);
    int[] order = identity(n);
    shuffle(order, rng);
    double[] rating = new double[n];
    int[] touched = new int[n];
    boolean[] isTouched = new boolean[n];
    double floor = 1e-6 * Math.max(h.totalWeight / Math.max(1, n), Double.MIN_NORMAL);
    for (int u : order) {
      if (match[u] >= 0) {
        continue;
      }
      int nt = 0;
      for (int i = h.vertexStart[u]; i < h.vertexStart[u + 1]; i++) {
        int e = h.nets[i];
        int size = h.netStart[e + 1] - h.netStart[e];
        if (size < 2 || size > RATING_NET_LIMIT) {
          continue;
        }
        double r = h.cost[e] / (size - 1);
        for (int j = h.netStart[e]; j < h.netStart[e + 1]; j++) {
          int v = h.pins[j];
          if (v == u || match[v] >= 0) {
            continue;
          }
          if (!isTouched[v]) {
            isTouched[v] = true;
            touched[nt++] = v;
          }
          rating[v] += r;
        }
      }
      double wu = h.weight[u];
      int best = -1;
      double bestScore = 0;
      for (int i = 0; i < nt; i++) {
        int v = touched[i];
        double wv = h.weight[v];
        if (wu + wv <= maxClusterWeight
            && (fixed[u] < 0 || fixed[v] < 0 || fixed[u] == fixed[v])) {
          double score = rating[v] / (Math.max(wu, floor) * Math.max(wv, floor));
          if (best < 0 || score > bestScore || (score == bestScore && v < best)) {
            best = v;
            bestScore = score;
          }
        }
        rating[v] = 0;
        isTouched[v] = false;
      }
      if (best >= 0) {
        match[u] = best;
        match[best] = u;
      } else {
        match[u] = u; // stays a singleton this round
      }
    }
    return contract(h, fixed, match);
  }

  /** Contracts each matched pair (match[v] = partner, or v itself) into one coarse vertex. */
  static Level contract(Hypergraph h, int[] fixed, int[] match) {
    int n = h.n;
    int[] map = new int[n];
    Arrays.fill(map, -1);
    int nc = 0;
    for (int v = 0; v < n; v++) {
      if (map[v] < 0) {
        map[v] = nc;
        if (match[v] >= 0) {
          map[match[v]] = nc;
        }
        nc++;
      }
    }
    double[] cw = new double[nc];
    int[] cfixed = new int[nc];
    Arrays.fill(cfixed, -1);
    for (int v = 0; v < n; v++) {
      cw[map[v]] += h.weight[v];
      if (fixed[v] >= 0) {
        cfixed[map[v]] = fixed[v];
      }
    }
    // Coarse pin lists, deduplicated and sorted; nets left with < 2 pins are dropped.
    int[] buf = new int[h.pins.length];
    int[] start = new int[h.m + 1];
    int[] origin = new int[h.m];
    int[] stampOf = new int[nc];
    int kept = 0;
    int len = 0;
    for (int e = 0; e < h.m; e++) {
      int s = len;
      for (int i = h.netStart[e]; i < h.netStart[e + 1]; i++) {
        int c = map[h.pins[i]];
        if (stampOf[c] != e + 1) {
          stampOf[c] = e + 1;
          buf[len++] = c;
        }
      }
      if (len - s < 2) {
        len = s;
        continue;
      }
      Arrays.sort(buf, s, len);
      origin[kept] = e;
      start[kept] = s;
      start[++kept] = len;
    }
    // Identical nets: sort (hash, index) pairs and compare within runs of equal hash.
    long[] keys = new long[kept];
    for (int j = 0; j < kept; j++) {
      int hash = start[j + 1] - start[j];
      for (int i = start[j]; i < start[j + 1]; i++) {
        hash = hash * 0x9E3779B1 + buf[i];
        hash ^= hash >>> 15;
      }
      keys[j] = ((long) hash << 32) | j;
    }
    Arrays.sort(keys);
    int[] rep = new int[kept];
    double[] cost = new double[kept];
    for (int j = 0; j < kept; j++) {
      rep[j] = j;
      cost[j] = h.cost[origin[j]];
    }
    for (int a = 0; a < kept; ) {
      int b = a + 1;
      while (b < kept && (keys[b] >>> 32) == (keys[a] >>> 32)) {
        b++;
      }
      for (int x = a; x < b; x++) {
        int jx = (int) keys[x];
        if (rep[jx] != jx) {
          continue;
        }
        for (int y = x + 1; y < b; y++) {
          int jy = (int) keys[y];
          if (rep[jy] == jy && samePins(buf, start, jx, jy)) {
            rep[jy] = jx; // jx < jy: keys are sorted by index within a hash
            cost[jx] += cost[jy];
          }
        }
      }
      a = b;
    }
    int m = 0;
    int np = 0;
    for (int j = 0; j < kept; j++) {
      if (rep[j] == j) {
        m++;
        np += start[j + 1] - start[j];
      }
    }
    double[] ccost = new double[m];
    int[] cstart = new int[m + 1];
    int[] cpins = new int[np];
    for (int j = 0, e = 0; j < kept; j++) {
      if (rep[j] == j) {
        ccost[e] = cost[j];
        int l = start[j + 1] - start[j];
        System.arraycopy(buf, start[j], cpins, cstart[e], l);
        cstart[e + 1] = cstart[e] + l;
        e++;
      }
    }
    return new Level(new Hypergraph(cw, ccost, cstart, cpins), cfixed, map);
  }

  private static boolean samePins(int[] buf, int[] start, int x, int y) {
    int lx = start[x + 1] - start[x];
    if (lx != start[y + 1] - start[y]) {
      return false;
    }
    for (int i = 0; i < lx; i++) {
      if (buf[start[x] + i] != buf[start[y] + i]) {
        return false;
      }
    }
    return true;
  }

  static int[] identity(int n) {
    int[] a = new int[n];
    for (int i = 0; i < n; i++) {
      a[i] = i;
    }
    return a;
  }

  static void shuffle(int[] a, SplittableRandom rng) {
    for (int i = a.length - 1; i > 0; i--) {
      int j = rng.nextInt(i + 1);
      int t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
  }
}
