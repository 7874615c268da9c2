package io.locus.sim.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.locus.core.model.Task;
import io.locus.sim.flow.FlowNetwork;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Worked examples E6, E8, E9 and E10 of the data-diffusion spec (§8). */
class MetricsExamplesTest {
  @Test
  void e6AbstractModel() {
    AbstractModel m = new AbstractModel(0.1, 0.2, 1.0, 0.5, 0.6, 0.3, 0.1);
    assertThat(m.taskTime()).isCloseTo(0.72, within(1e-12));
    assertThat(m.maxArrivalRate(10, 1.0)).isCloseTo(13.89, within(0.005));
    assertThat(m.completionTime(1000, 10, 1.0)).isCloseTo(72.0, within(1e-9));
    assertThat(m.completionTime(1000, 1, 1.0)).isCloseTo(720.0, within(1e-9));
    assertThat(m.speedup(1000, 10, 1.0)).isCloseTo(10.0, within(1e-9));
    assertThat(m.efficiency(1000, 10, 1.0)).isCloseTo(1.0, within(1e-9));
    assertThat(m.utilisation(10, 10, 1.0)).isCloseTo(0.72, within(1e-12));
    assertThat(AbstractModel.idealHitRatio(30)).isCloseTo(0.9667, within(5e-5));
  }

  @Test
  void e6FromMeasuredCounts() {
    AbstractModel m = AbstractModel.fromCounts(0.1, 0.2, 1.0, 0.5, 600, 300, 100);
    assertThat(m.taskTime()).isCloseTo(0.72, within(1e-12));
  }

  @Test
  void e8Slowdown() {
    MetricsRecorder rec = new MetricsRecorder(60);
    Task earlier = Task.of("a", 0, 10.0, 0.01);
    Task last = Task.of("b", 1, 59.90, 0.01);
    rec.released(earlier, 10.0);
    rec.released(last, 59.90);
    rec.completed(earlier, 10.0, 11.0);
    rec.completed(last, 59.90, 119.82);
    double[] sl = rec.slowdowns();
    assertThat(sl).hasSize(1);
    assertThat(sl[0]).isCloseTo(119.82 / 59.91, within(1e-12)).isCloseTo(2.0, within(1e-12));
  }

  @Test
  void slowdownFollowsTheLastSubmittedTaskOfEachStep() {
    MetricsRecorder rec = new MetricsRecorder(60);
    Task a = Task.of("a", 0, 50.0, 0.0);
    Task b = Task.of("b", 1, 70.0, 0.0);
    rec.released(a, 50.0);
    rec.completed(a, 50.0, 55.0); // a completes while it is still the last of step 0
    rec.released(b, 70.0);
    rec.completed(b, 70.0, 140.0);
    assertThat(rec.slowdowns()).containsExactly(55.0 / 50.0, 2.0);
  }

  @Test
  void e9PerformanceIndexNormalisation() {
    Map<String, PerformanceIndex.Input> set = new LinkedHashMap<>();
    set.put("X", new PerformanceIndex.Input(3.0, 20));
    set.put("Y", new PerformanceIndex.Input(2.0, 10));
    set.put("Z", new PerformanceIndex.Input(1.0, 100));
    Map<String, Double> pi = PerformanceIndex.normalise(set);
    assertThat(pi.get("X")).isCloseTo(0.75, within(1e-12));
    assertThat(pi.get("Y")).isCloseTo(1.00, within(1e-12));
    assertThat(pi.get("Z")).isCloseTo(0.05, within(1e-12));
  }

  @Test
  void e10Stages18Ideal() {
    int[] tasks = {1, 2, 4, 8, 16, 32, 32, 1, 440, 385, 4, 24, 20, 16, 8, 4, 2, 1};
    int[] len = {60, 60, 60, 60, 60, 60, 60, 120, 6, 12, 60, 60, 60, 60, 60, 60, 60, 60};
    IdealTime ideal = new IdealTime();
    for (int s = 0; s < tasks.length; s++) {
      for (int i = 0; i < tasks[s]; i++) {
        ideal.add(s + 1, len[s]);
      }
    }
    // 7·60 + 120 + 14·6 + 13·12 + 8·60
    assertThat(ideal.ideal("stages18", 0, 0, 32)).isEqualTo(1260.0);
  }

  @Test
  void idealTimesOfOpenWorkloads() {
    IdealTime open = new IdealTime();
    open.add(0, 0.01);
    assertThat(open.ideal("mi", 0, 1414.899, 128)).isEqualTo(1415.0);
    assertThat(open.ideal("sw", 0, 6503, 200)).isEqualTo(6505.0);
    assertThat(open.ideal("other", 2, 102.5, 8)).isEqualTo(101.0);
    assertThat(open.ideal("closed", 0, 0, 8)).isNaN();
  }

  @Test
  void peakThroughputIsTheNearestRank99thPercentile() {
    double[] v = new double[200];
    for (int i = 0; i < v.length; i++) {
      v[i] = i + 1;
    }
    assertThat(Percentiles.nearestRank(v, 99)).isEqualTo(198.0);
    assertThat(Percentiles.nearestRank(new double[] {5}, 99)).isEqualTo(5.0);
  }

  @Test
  void byteRatesAreIntegratedPerSecond() {
    FlowNetwork net = new FlowNetwork(3);
    int r = net.addResource(100);
    net.start(0.5, new int[] {r}, 1000, 2, (f, t) -> { });
    net.settle(0.5);
    MetricsRecorder rec = new MetricsRecorder(60);
    PoolView idle = new PoolView() {
      public int queueLength() {
        return 3;
      }

      public int busySlots() {
        return 1;
      }

      public int registeredSlots() {
        return 2;
      }

      public int registeredNodes() {
        return 1;
      }

      public int pendingNodes() {
        return 0;
      }
    };
    rec.advance(0.5, 2.25, net, idle);
    TimeSeries s = rec.series(2);
    // 100 B/s over [0.5, 1), [1, 2), [2, 2.25): 50, 100, 25 bytes
    assertThat(s.column(TimeSeries.STORAGE_GBPS)).containsExactly(
        new double[] {50 * 8 / 1e9, 100 * 8 / 1e9, 25 * 8 / 1e9}, within(1e-18));
    assertThat(s.column(TimeSeries.QUEUE)).containsExactly(3, 3, 3);
    assertThat(s.column(TimeSeries.CPU_UTIL)).containsExactly(0.5, 0.5, 0.5);
    assertThat(rec.busySlotSeconds()).isCloseTo(1.75, within(1e-12));
    assertThat(rec.integratedBytes()).isCloseTo(175.0, within(1e-9));
  }

  @Test
  void numbersAreFormattedCompactly() {
    assertThat(Numbers.format(0.5)).isEqualTo("0.5");
    assertThat(Numbers.format(1415)).isEqualTo("1415");
    assertThat(Numbers.format(2.0 / 3)).isEqualTo("0.666667");
    assertThat(Numbers.format(Double.NaN)).isEmpty();
    assertThat(Numbers.seconds(1417.93)).isEqualTo("1417.9");
    assertThat(Numbers.seconds(2.5)).isEqualTo("2.500");
    assertThat(Numbers.seconds(0.0012346)).isEqualTo("0.001235");
  }
}
