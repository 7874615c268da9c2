package io.locus.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Hypergraph spec §4.4 (Lublin model) and the gamma pieces behind it. */
class LublinArrivalsTest {

  @Test
  void weightsAverageToOne() {
    double[] w = LublinArrivals.weights();
    assertThat(w).hasSize(48);
    double sum = 0;
    for (double x : w) {
      assertThat(x).isPositive();
      sum += x;
    }
    assertThat(sum).isCloseTo(48.0, within(1e-9));
  }

  @Test
  void gammaCdfMatchesClosedForms() {
    for (double x : new double[] {0.1, 1, 2.5, 7, 30}) {
      // shape 1 is the exponential; shape 2 is 1 - e^-x (1 + x); scale stretches x
      assertThat(GammaMath.gammaCdf(x, 1, 1)).isCloseTo(1 - Math.exp(-x), within(1e-12));
      assertThat(GammaMath.gammaCdf(x, 2, 1)).isCloseTo(1 - Math.exp(-x) * (1 + x), within(1e-12));
      assertThat(GammaMath.gammaCdf(3 * x, 2, 3)).isCloseTo(1 - Math.exp(-x) * (1 + x),
          within(1e-12));
    }
    assertThat(GammaMath.lnGamma(5)).isCloseTo(Math.log(24), within(1e-12));
    assertThat(GammaMath.lnGamma(0.5)).isCloseTo(0.5 * Math.log(Math.PI), within(1e-12));
  }

  @Test
  void gammaSamplesHaveTheRightMean() {
    SplittableRandom rng = new SplittableRandom(1);
    double shape = LublinArrivals.AARR * LublinArrivals.ARAR;
    double sum = 0;
    int n = 200_000;
    for (int i = 0; i < n; i++) {
      sum += GammaMath.sampleGamma(rng, shape, LublinArrivals.BARR);
    }
    // mean shape·scale; the standard error here is about 0.0035
    assertThat(sum / n).isCloseTo(shape * LublinArrivals.BARR, within(0.02));
  }

  @Test
  void arrivalsIncreaseAndEndAtTlArrival() {
    double[] a = LublinArrivals.generate(1200, 600, new SplittableRandom(3));
    assertThat(a[0]).isPositive();
    for (int i = 1; i < a.length; i++) {
      assertThat(a[i]).isGreaterThanOrEqualTo(a[i - 1]);
    }
    assertThat(a[a.length - 1]).isEqualTo(600.0);
  }
}
