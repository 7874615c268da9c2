package io.locus.hypergraph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Invariants of the multilevel machinery (package-private classes). */
class InternalsTest {
  /** After any sequence of moves, the delta-updated state equals one rebuilt from scratch. */
  @Test
  void gainCacheAndRunningKm1StayExact() {
    SplittableRandom rng = new SplittableRandom(17);
    int n = 150;
    int k = 7;
    Hypergraph h = RandomHypergraphs.weighted(n, 700, 2, 9, 0.5, 2, 1, 64, 4);
    int[] fixed = Instances.allFree(n);
    int[] parts = new int[n];
    for (int v = 0; v < n; v++) {
      parts[v] = rng.nextInt(k);
    }
    WorkState s = new WorkState(h, k, Double.MAX_VALUE, fixed);
    s.assignAll(parts);
    s.buildGainCache();
    for (int step = 0; step < 2000; step++) {
      int v = rng.nextInt(n);
      int b = rng.nextInt(k);
      if (b == s.part[v]) {
        continue;
      }
      double predicted = s.gain(v, b);
      double before = s.km1;
      s.move(v, b);
      assertThat(before - s.km1).isCloseTo(predicted, within(1e-6));
      if (step % 100 == 0) {
        WorkState fresh = new WorkState(h, k, Double.MAX_VALUE, fixed);
        fresh.assignAll(s.part);
        fresh.buildGainCache();
        assertThat(s.km1).isCloseTo(Partition.km1(h, k, s.part), within(1e-6));
        assertThat(s.km1).isCloseTo(fresh.km1, within(1e-6));
        for (int u = 0; u < n; u++) {
          assertThat(s.benefit[u]).isCloseTo(fresh.benefit[u], within(1e-6));
          for (int p = 0; p < k; p++) {
            assertThat(s.conn[u * k + p]).isCloseTo(fresh.conn[u * k + p], within(1e-6));
          }
        }
        for (int e = 0; e < h.numNets(); e++) {
          assertThat(s.lambda[e]).isEqualTo(fresh.lambda[e]);
          for (int p = 0; p < k; p++) {
            assertThat(s.pinsIn(e, p)).isEqualTo(fresh.pinsIn(e, p));
          }
        }
        for (int p = 0; p < k; p++) {
          assertThat(s.load[p]).isCloseTo(fresh.load[p], within(1e-9));
        }
      }
    }
  }

  @Test
  void coarseningNeverMergesVerticesFixedToDifferentPartsAndKeepsKm1() {
    SplittableRandom rng = new SplittableRandom(8);
    for (int t = 0; t < 20; t++) {
      int n = 100 + rng.nextInt(300);
      int k = 2 + rng.nextInt(5);
      Hypergraph h = Instances.random(n, 3 * n, 6, 1, 2, 4, rng);
      int[] fixed = Instances.allFree(n);
      for (int v = 0; v < n; v++) {
        if (rng.nextInt(4) == 0) {
          fixed[v] = rng.nextInt(k);
        }
      }
      Coarsener.Level level = Coarsener.coarsen(h, fixed, Double.MAX_VALUE, rng.split());
      Hypergraph c = level.h();
      int[] map = level.fineToCoarse();
      assertThat(c.numVertices()).isLessThan(n);
      assertThat(c.totalWeight()).isCloseTo(h.totalWeight(), within(1e-9));
      for (int v = 0; v < n; v++) {
        if (fixed[v] >= 0) {
          assertThat(level.fixed()[map[v]]).isEqualTo(fixed[v]); // inherited, never mixed
        }
      }
      // χ of any coarse partition equals χ of its projection
      int[] coarseParts = new int[c.numVertices()];
      for (int x = 0; x < coarseParts.length; x++) {
        coarseParts[x] = rng.nextInt(k);
      }
      int[] fineParts = new int[n];
      for (int v = 0; v < n; v++) {
        fineParts[v] = coarseParts[map[v]];
      }
      assertThat(Partition.of(c, k, coarseParts).km1())
          .isCloseTo(Partition.of(h, k, fineParts).km1(), within(1e-9));
    }
  }

  @Test
  void heapOrdersByKeyAndSupportsUpdates() {
    MaxHeap q = new MaxHeap(10);
    q.put(3, 1.0);
    q.put(5, 4.0);
    q.put(7, -2.0);
    q.put(1, 3.0);
    q.put(5, 0.5); // decrease
    q.put(7, 9.0); // increase
    q.remove(1);
    assertThat(q.size()).isEqualTo(3);
    assertThat(q.pop()).isEqualTo(7);
    assertThat(q.pop()).isEqualTo(3);
    assertThat(q.pop()).isEqualTo(5);
    assertThat(q.isEmpty()).isTrue();
    assertThat(q.contains(5)).isFalse();
  }
}
