package io.locus.core.staging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class GanttChartTest {
  @Test
  void firstFitUsesGapsAtOrAfterTheGivenTime() {
    GanttChart g = new GanttChart();
    g.reserve(0, 1);
    g.reserve(2, 3);
    g.reserve(3.5, 5);
    assertThat(g.firstFreeSlot(0, 1)).isEqualTo(1.0); // the gap [1, 2) fits exactly
    assertThat(g.firstFreeSlot(0, 1.5)).isEqualTo(5.0); // no gap of 1.5 before 5
    assertThat(g.firstFreeSlot(0, 0.5)).isEqualTo(1.0);
    assertThat(g.firstFreeSlot(2.5, 0.5)).isEqualTo(3.0); // [3, 3.5)
    assertThat(g.firstFreeSlot(6, 1)).isEqualTo(6.0);
    assertThat(g.firstFreeSlot(0.5, 0)).isEqualTo(0.5); // no storage time: no wait
  }

  @Test
  void overlappingReservationsAreRefusedAndTouchingOnesAccepted() {
    GanttChart g = new GanttChart();
    g.reserve(1, 2);
    g.reserve(2, 3);
    g.reserve(0, 1);
    assertThatThrownBy(() -> g.reserve(2.5, 4)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> g.reserve(0.5, 1.5)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> g.reserve(-1, 0.1)).isInstanceOf(IllegalStateException.class);
    assertThat(g.size()).isEqualTo(3);
  }

  @Test
  void pruneDropsOnlyIntervalsEndedBeforeNow() {
    GanttChart g = new GanttChart();
    g.reserve(0, 1);
    g.reserve(1, 2);
    g.reserve(3, 4);
    assertThat(g.prune(2)).hasSize(1);
    assertThat(g.intervals()).containsOnlyKeys(1.0, 3.0);
    assertThat(g.prune(10)).hasSize(2);
    assertThat(g.isEmpty()).isTrue();
  }

  /** Random first-fit reservations with random lengths and times: the chart never overlaps. */
  @Test
  void neverOverlaps() {
    GanttChart g = new GanttChart();
    Random r = new Random(9);
    for (int i = 0; i < 5000; i++) {
      double notBefore = r.nextDouble() * 200;
      double len = r.nextInt(4) == 0 ? 0.1 * (1 + r.nextInt(5)) : r.nextDouble() * 3;
      double t = g.firstFreeSlot(notBefore, len);
      assertThat(t).isGreaterThanOrEqualTo(notBefore);
      g.reserve(t, t + len);
      if (i % 500 == 499) {
        g.prune(i / 50.0);
      }
    }
    double prevEnd = Double.NEGATIVE_INFINITY;
    for (Map.Entry<Double, Double> e : g.intervals().entrySet()) {
      assertThat(e.getKey()).isGreaterThanOrEqualTo(prevEnd);
      assertThat(e.getValue()).isGreaterThan(e.getKey());
      prevEnd = e.getValue();
    }
    assertThat(g.size()).isGreaterThan(100);
  }
}
