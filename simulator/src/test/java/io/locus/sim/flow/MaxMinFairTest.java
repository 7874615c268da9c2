package io.locus.sim.flow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Spec §1.4: max-min fair rates by progressive filling, recomputed on flow start and end. */
class MaxMinFairTest {
  private static final double EPS = 1e-9;

  @Test
  void flowsOnOneResourceShareItEqually() {
    double[] r = MaxMinFair.rates(new double[] {12}, new int[][] {{0}, {0}, {0}, {0}});
    assertThat(r).containsExactly(new double[] {3, 3, 3, 3}, within(EPS));
  }

  @Test
  void bottleneckSharedUnevenly() {
    // R0 = 10 carries A and B; R1 = 4 carries B and C. R1's share (2) is the smallest: B and C
    // freeze at 2; A then gets all R0 leaves: 10 - 2 = 8.
    double[] r = MaxMinFair.rates(new double[] {10, 4}, new int[][] {{0}, {0, 1}, {1}});
    assertThat(r).containsExactly(new double[] {8, 2, 2}, within(EPS));
  }

  @Test
  void slowNicCapsOneFileSystemReaderAndTheOthersSplitTheRest() {
    // FS = 4 with three readers; reader 0's NIC is 0.5: it gets 0.5, the others (4 - 0.5) / 2.
    double[] r = MaxMinFair.rates(new double[] {4, 0.5, 10, 10},
        new int[][] {{0, 1}, {0, 2}, {0, 3}});
    assertThat(r).containsExactly(new double[] {0.5, 1.75, 1.75}, within(EPS));
  }

  @Test
  void peerReadsFromOneHolderSplitItsNicOut() {
    // disk(h) 148, nicOut(h) 125, nicIn(e1) 125, nicIn(e2) 125: two peer reads from h.
    double[] r = MaxMinFair.rates(new double[] {148, 125, 125, 125},
        new int[][] {{0, 1, 2}, {0, 1, 3}});
    assertThat(r).containsExactly(new double[] {62.5, 62.5}, within(EPS));
  }

  @Test
  void threeLevelsOfBottlenecks() {
    // R0 = 1 (A, B), R1 = 5 (B, C, D), R2 = 9 (D, E).
    // Level 1: R0 share 0.5 -> A = B = 0.5. R1 left 4.5 over C, D -> 2.25. R2 left 6.75 -> E.
    double[] r = MaxMinFair.rates(new double[] {1, 5, 9},
        new int[][] {{0}, {0, 1}, {1}, {1, 2}, {2}});
    assertThat(r).containsExactly(new double[] {0.5, 0.5, 2.25, 2.25, 6.75}, within(EPS));
  }

  @Test
  void randomInstancesAreFeasibleAndMaxMinFair() {
    SplittableRandom rng = new SplittableRandom(7);
    for (int round = 0; round < 200; round++) {
      int nr = 1 + rng.nextInt(8);
      double[] cap = new double[nr];
      for (int i = 0; i < nr; i++) {
        cap[i] = 1 + rng.nextInt(100);
      }
      int nf = 1 + rng.nextInt(12);
      int[][] flows = new int[nf][];
      for (int f = 0; f < nf; f++) {
        List<Integer> res = new ArrayList<>();
        for (int i = 0; i < nr; i++) {
          if (rng.nextInt(3) == 0) {
            res.add(i);
          }
        }
        if (res.isEmpty()) {
          res.add(rng.nextInt(nr));
        }
        flows[f] = res.stream().mapToInt(Integer::intValue).toArray();
      }
      double[] rate = MaxMinFair.rates(cap, flows);
      double[] load = new double[nr];
      for (int f = 0; f < nf; f++) {
        for (int r : flows[f]) {
          load[r] += rate[f];
        }
      }
      for (int i = 0; i < nr; i++) {
        assertThat(load[i]).isLessThanOrEqualTo(cap[i] + 1e-6);
      }
      // Max-min fairness: every flow crosses a saturated resource on which no flow is faster.
      for (int f = 0; f < nf; f++) {
        boolean hasBottleneck = false;
        for (int r : flows[f]) {
          boolean saturated = load[r] >= cap[r] - 1e-6;
          boolean fastest = true;
          for (int g = 0; g < nf; g++) {
            for (int r2 : flows[g]) {
              if (r2 == r && rate[g] > rate[f] + 1e-6) {
                fastest = false;
              }
            }
          }
          hasBottleneck |= saturated && fastest;
        }
        assertThat(hasBottleneck).as("flow %d of round %d has a bottleneck", f, round).isTrue();
      }
    }
  }

  @Test
  void ratesAreRecomputedWhenAFlowEnds() {
    FlowNetwork net = new FlowNetwork(1);
    int r = net.addResource(10);
    List<Long> ended = new ArrayList<>();
    FlowOwner owner = (f, t) -> ended.add(f.id());
    Flow small = net.start(0, new int[] {r}, 10, 0, owner);
    Flow big = net.start(0, new int[] {r}, 30, 0, owner);
    net.settle(0);
    assertThat(small.rate()).isEqualTo(5.0);
    assertThat(net.nextFinish()).isEqualTo(2.0);
    assertThat(net.pollFinished(2.0)).isSameAs(small);
    net.settle(2.0);
    // the big flow moved 10 bytes at 5 B/s, then has 20 left at the full 10 B/s
    assertThat(big.rate()).isEqualTo(10.0);
    assertThat(big.finish()).isCloseTo(4.0, within(EPS));
    assertThat(net.pollFinished(3.9)).isNull();
    assertThat(net.pollFinished(4.0)).isSameAs(big);
    assertThat(net.activeFlows()).isZero();
    assertThat(net.rateSum(0)).isZero();
  }

  @Test
  void aNewFlowSlowsOnlyItsOwnComponent() {
    FlowNetwork net = new FlowNetwork(1);
    int a = net.addResource(10);
    int b = net.addResource(10);
    Flow onA = net.start(0, new int[] {a}, 100, 0, (f, t) -> { });
    Flow onB = net.start(0, new int[] {b}, 100, 0, (f, t) -> { });
    net.settle(0);
    Flow second = net.start(1, new int[] {a}, 100, 0, (f, t) -> { });
    net.settle(1);
    assertThat(onA.rate()).isEqualTo(5.0);
    assertThat(second.rate()).isEqualTo(5.0);
    assertThat(onB.rate()).isEqualTo(10.0);
    assertThat(onB.finish()).isEqualTo(10.0);
    // 10 bytes moved by t = 1, 90 left at 5 B/s
    assertThat(onA.finish()).isCloseTo(19.0, within(EPS));
  }

  @Test
  void cancelledFlowReportsBytesMovedAndFreesItsShare() {
    FlowNetwork net = new FlowNetwork(2);
    int r = net.addResource(8);
    Flow x = net.start(0, new int[] {r}, 100, 0, (f, t) -> { });
    Flow y = net.start(0, new int[] {r}, 100, 1, (f, t) -> { });
    net.settle(0);
    assertThat(net.rateSum(0)).isEqualTo(4.0);
    assertThat(net.cancel(x, 2.5)).isCloseTo(10.0, within(EPS));
    net.settle(2.5);
    assertThat(y.rate()).isEqualTo(8.0);
    assertThat(net.rateSum(0)).isZero();
    assertThat(net.rateSum(1)).isEqualTo(8.0);
  }

  @Test
  void equalFinishTimesComeOutInStartOrder() {
    FlowNetwork net = new FlowNetwork(1);
    int r = net.addResource(2);
    Flow first = net.start(0, new int[] {r}, 4, 0, (f, t) -> { });
    Flow second = net.start(0, new int[] {r}, 4, 0, (f, t) -> { });
    net.settle(0);
    assertThat(net.pollFinished(4.0)).isSameAs(first);
    assertThat(net.pollFinished(4.0)).isSameAs(second);
  }
}
