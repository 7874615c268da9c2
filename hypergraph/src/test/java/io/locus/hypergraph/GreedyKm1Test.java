package io.locus.hypergraph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class GreedyKm1Test {
  // Setting U of spec §8: file size 1, RBW = 1, local read 0.3 and compute 0.2 per file.
  private static final double READ_PLUS_COMPUTE = 0.3 + 0.2;

  /** Eq. 5 per file (D4) with RBW = 1. */
  private static double tr(int sf, int p) {
    return (1.0 / sf) + (1 - 1.0 / sf) * (1 - 1.0 / p);
  }

  /**
   * T6 built as BUILD_HYPERGRAPH of §2.2 does it: vertices u1, u2 (running, fixed to nodes 1 and
   * 2, weights given), then v5, v6, v7 (pending, weights by Eq. 6 with s_f = pins of the net).
   */
  private record T6(Hypergraph h, int[] fixed, Map<String, Integer> sf, double[] weights) {}

  private static T6 t6() {
    int p = 2;
    Map<String, List<String>> pendingFiles = new LinkedHashMap<>();
    pendingFiles.put("v5", List.of("f1", "f2"));
    pendingFiles.put("v6", List.of("f2", "f3"));
    pendingFiles.put("v7", List.of("f4", "f5"));
    Map<String, List<String>> runningCache = new LinkedHashMap<>();
    runningCache.put("u1", List.of("f1", "f9"));
    runningCache.put("u2", List.of("f4"));
    List<String> ids = new ArrayList<>(runningCache.keySet());
    ids.addAll(pendingFiles.keySet());
    // nets: every file requested by a pending job; pins: those jobs and running nodes caching it
    Map<String, List<Integer>> pins = new LinkedHashMap<>();
    for (var j : pendingFiles.entrySet()) {
      for (String f : j.getValue()) {
        pins.computeIfAbsent(f, x -> new ArrayList<>()).add(ids.indexOf(j.getKey()));
      }
    }
    for (var u : runningCache.entrySet()) {
      for (String f : u.getValue()) {
        if (pins.containsKey(f)) {
          pins.get(f).add(ids.indexOf(u.getKey()));
        }
      }
    }
    Map<String, Integer> sf = new LinkedHashMap<>();
    pins.forEach((f, l) -> sf.put(f, l.size()));
    double[] w = new double[ids.size()];
    w[0] = 1.0; // w(u1), given
    w[1] = 3.5; // w(u2), given
    for (var j : pendingFiles.entrySet()) {
      double x = 0;
      for (String f : j.getValue()) {
        x += 1 * (tr(sf.get(f), p) + READ_PLUS_COMPUTE);
      }
      w[ids.indexOf(j.getKey())] = x;
    }
    Hypergraph.Builder b = Hypergraph.builder();
    for (double x : w) {
      b.addVertex(x);
    }
    for (var net : pins.entrySet()) {
      b.addNet(1, net.getValue().stream().mapToInt(Integer::intValue).toArray());
    }
    Hypergraph h = b.build().withoutSinglePinNets(); // after the weights, as §2.2 says
    return new T6(h, new int[] {0, 1, -1, -1, -1}, sf, w);
  }

  @Test
  void t6HypergraphWeightsAndCutsizes() {
    T6 t = t6();
    assertThat(t.sf()).containsExactly(Map.entry("f1", 2), Map.entry("f2", 2),
        Map.entry("f3", 1), Map.entry("f4", 2), Map.entry("f5", 1));
    Hypergraph h = t.h();
    assertThat(h.weight(2)).isCloseTo(2.5, within(1e-12)); // v5
    assertThat(h.weight(3)).isCloseTo(2.75, within(1e-12)); // v6
    assertThat(h.weight(4)).isCloseTo(2.75, within(1e-12)); // v7
    // f1 {v5, u1}, f2 {v5, v6}, f4 {v7, u2}; f3 and f5 dropped, f9 has no net
    assertThat(h.numNets()).isEqualTo(3);
    assertThat(h.pins(0)).containsExactly(2, 0);
    assertThat(h.pins(1)).containsExactly(2, 3);
    assertThat(h.pins(2)).containsExactly(4, 1);
    for (int e = 0; e < 3; e++) {
      assertThat(h.cost(e)).isEqualTo(1.0);
    }
    // parts: index 0 = node 1, index 1 = node 2; order u1, u2, v5, v6, v7
    assertThat(Partition.of(h, 2, new int[] {0, 1, 0, 0, 1}).km1()).isEqualTo(0.0);
    assertThat(Partition.of(h, 2, new int[] {0, 1, 0, 1, 1}).km1()).isEqualTo(1.0);
    assertThat(Partition.of(h, 2, new int[] {0, 1, 1, 1, 0}).km1()).isEqualTo(2.0);
    assertThat(Partition.maxPartWeight(h, 2, 0.10)).isCloseTo(6.875, within(1e-12));
  }

  @Test
  void t6GreedyKm1Result() {
    T6 t = t6();
    Partition p = new GreedyKm1().partition(t.h(), 2, 0.10, t.fixed(), 0);
    assertThat(p.parts()).containsExactly(0, 1, 0, 0, 1); // {u1, v5, v6} and {u2, v7}
    assertThat(p.partWeight(0)).isCloseTo(6.25, within(1e-12));
    assertThat(p.partWeight(1)).isCloseTo(6.25, within(1e-12));
    assertThat(p.km1()).isEqualTo(0.0);
    assertThat(p.isBalanced(0.10)).isTrue();
    // "Refinement makes no moves": the placement alone already gives this partition.
    assertThat(new GreedyKm1(0).partition(t.h(), 2, 0.10, t.fixed(), 0).parts())
        .containsExactly(p.parts());
    assertThat(new Greedy().partition(t.h(), 2, 0.10, t.fixed(), 0)).isEqualTo(
        Partition.of(t.h(), 2, p.parts()));
  }

  @Test
  void tiesGoToTheLighterPartThenTheLowerPart() {
    // Four free vertices without nets (conn 0 everywhere) into 3 parts; part 0 holds a fixed
    // vertex of weight 1. Order by (w desc, id asc): v2 (3), v1 (2), v3 (2), v4 (1).
    Hypergraph.Builder b = Hypergraph.builder();
    b.addVertex(1); // v0 fixed to part 0
    b.addVertex(2);
    b.addVertex(3);
    b.addVertex(2);
    b.addVertex(1);
    Hypergraph h = b.build();
    Partition p = new GreedyKm1().partition(h, 3, 1.0, new int[] {0, -1, -1, -1, -1}, 0);
    // v2 → part 1 (W 0 = 0 < 1: the lower of the lightest), v1 → part 2 (W 0), v3 → part 0
    // (W 1 < 2 < 3), v4 → part 2 (W 2 < 3 = 3).
    assertThat(p.parts()).containsExactly(0, 2, 1, 0, 2);
  }

  @Test
  void fallsBackToTheLightestPartWhenNothingFits() {
    Hypergraph.Builder b = Hypergraph.builder();
    b.addVertex(10); // heavier than L_max = 1.1 · 13 / 2 = 7.15
    b.addVertex(1);
    b.addVertex(1);
    b.addVertex(1);
    Hypergraph h = b.build();
    Partition p = new GreedyKm1().partition(h, 2, 0.10, null, 0);
    assertThat(p.part(0)).isEqualTo(0); // nothing fits an empty part either: argmin W, lower id
    assertThat(p.parts()).containsExactly(0, 1, 1, 1);
    assertThat(p.isBalanced(0.10)).isFalse();
  }

  @Test
  void refinementMovesOnlyWithPositiveGainAndRoom() {
    // Two triangles joined by one net; placement by (w desc, id asc) puts the heavy pair apart,
    // and refinement must pull vertices to their triangle when there is room.
    Hypergraph.Builder b = Hypergraph.builder();
    b.addVertices(6, 1);
    b.addNet(1, 0, 1);
    b.addNet(1, 1, 2);
    b.addNet(1, 0, 2);
    b.addNet(1, 3, 4);
    b.addNet(1, 4, 5);
    b.addNet(1, 3, 5);
    b.addNet(1, 2, 3);
    Hypergraph h = b.build();
    Partition p = new GreedyKm1().partition(h, 2, 0.0, null, 0);
    assertThat(p.km1()).isEqualTo(1.0);
    assertThat(p.isBalanced(0.0)).isTrue();
    assertThat(p.km1()).isEqualTo(reference(h, 2, 0.0, Instances.allFree(6), 10).km1());
  }

  /** GreedyKm1 equals a literal, independent transcription of the §2.2 pseudocode. */
  @Test
  void matchesALiteralTranscriptionOfThePseudocode() {
    SplittableRandom rng = new SplittableRandom(42);
    for (int trial = 0; trial < 300; trial++) {
      int n = 2 + rng.nextInt(40);
      int k = 1 + rng.nextInt(6);
      Hypergraph h = Instances.random(n, rng.nextInt(3 * n + 1), 6,
          trial % 3 == 0 ? 1 : 0.5, trial % 3 == 0 ? 1 : 4, trial % 2 == 0 ? 1 : 5, rng);
      int[] fixed = Instances.allFree(n);
      for (int v = 0; v < n; v++) {
        if (rng.nextInt(5) == 0) {
          fixed[v] = rng.nextInt(k);
        }
      }
      double eps = rng.nextInt(4) * 0.05;
      int passes = trial % 4 == 0 ? 0 : GreedyKm1.DEFAULT_MAX_PASSES;
      Partition actual = new GreedyKm1(passes).partition(h, k, eps, fixed, trial);
      Partition expected = reference(h, k, eps, fixed, passes);
      assertThat(actual.parts()).as("trial %d", trial).containsExactly(expected.parts());
    }
  }

  /** PARTITION of §2.2, line by line, with pin counts recomputed by scanning pins. */
  static Partition reference(Hypergraph h, int p, double eps, int[] fixed, int maxPasses) {
    int n = h.numVertices();
    double sumW = 0;
    for (int v = 0; v < n; v++) {
      sumW += h.weight(v);
    }
    double lMax = (1 + eps) * sumW / p;
    int[] part = new int[n];
    Arrays.fill(part, -1);
    double[] w = new double[p];
    List<Integer> free = new ArrayList<>();
    for (int v = 0; v < n; v++) {
      if (fixed[v] >= 0) {
        part[v] = fixed[v];
        w[fixed[v]] += h.weight(v);
      } else {
        free.add(v);
      }
    }
    List<Integer> order = new ArrayList<>(free);
    order.sort((x, y) -> h.weight(x) != h.weight(y)
        ? Double.compare(h.weight(y), h.weight(x)) : Integer.compare(x, y));
    for (int v : order) {
      double[] conn = new double[p];
      for (int e : h.incidentNets(v)) {
        for (int k = 0; k < p; k++) {
          if (pinsIn(h, part, e, k) >= 1) {
            conn[k] += h.cost(e);
          }
        }
      }
      List<Integer> feasible = new ArrayList<>();
      for (int k = 0; k < p; k++) {
        if (w[k] + h.weight(v) <= lMax) {
          feasible.add(k);
        }
      }
      if (feasible.isEmpty()) {
        int argmin = 0;
        for (int k = 1; k < p; k++) {
          if (w[k] < w[argmin]) {
            argmin = k;
          }
        }
        feasible.add(argmin);
      }
      int best = feasible.get(0);
      for (int k : feasible) {
        if (conn[k] > conn[best] || (conn[k] == conn[best] && w[k] < w[best])) {
          best = k;
        }
      }
      part[v] = best;
      w[best] += h.weight(v);
    }
    for (int pass = 0; pass < maxPasses; pass++) {
      boolean moved = false;
      for (int v : free) {
        int a = part[v];
        double[] gain = new double[p];
        for (int e : h.incidentNets(v)) {
          for (int b = 0; b < p; b++) {
            if (b != a) {
              int leaves = pinsIn(h, part, e, a) == 1 ? 1 : 0;
              int enters = pinsIn(h, part, e, b) == 0 ? 1 : 0;
              gain[b] += h.cost(e) * (leaves - enters);
            }
          }
        }
        int best = -1;
        for (int b = 0; b < p; b++) {
          if (b != a && gain[b] > 0 && w[b] + h.weight(v) <= lMax
              && (best < 0 || gain[b] > gain[best]
                  || (gain[b] == gain[best] && w[b] < w[best]))) {
            best = b;
          }
        }
        if (best >= 0) {
          w[a] -= h.weight(v);
          w[best] += h.weight(v);
          part[v] = best;
          moved = true;
        }
      }
      if (!moved) {
        break;
      }
    }
    return Partition.of(h, p, part);
  }

  private static int pinsIn(Hypergraph h, int[] part, int e, int k) {
    int c = 0;
    for (int v : h.pins(e)) {
      if (part[v] == k) {
        c++;
      }
    }
    return c;
  }
}
