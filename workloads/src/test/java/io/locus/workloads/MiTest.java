package io.locus.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.locus.core.model.InputFile;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Data-diffusion spec §4.1 and worked example E1. */
class MiTest {

  @Test
  void rateListIsThePublishedOne() {
    assertThat(Mi.rates()).containsExactly(1, 2, 3, 4, 6, 8, 11, 15, 20, 26, 34, 45, 59, 77, 101,
        132, 172, 224, 292, 380, 494, 643, 836, 1000);
    assertThat(Mi.rate(40)).isEqualTo(1000);
  }

  @Test
  void scheduleMatchesE1AndTheCheckableProperties() {
    long total = 0;
    long before1380 = 0;
    long finalStep = 0;
    double firstOfFinal = -1;
    double last = -1;
    double prev = -1;
    int[] perSecond = new int[1416];
    long bytes = 0;
    Set<String> files = new HashSet<>();
    for (TraceJob j : Mi.workload(42)) {
      total++;
      double a = j.arrival();
      int step = Integer.parseInt(j.attributes().get("step"));
      assertThat(step).isEqualTo((int) (a / 60));
      if (prev >= 0 && (int) (prev / 60) == step) {
        // evenly spaced inside a step (D14): the gap is exactly 1 / A_i
        assertThat(a - prev).isCloseTo(1.0 / Mi.rate(step), within(1e-9));
      }
      if (a < 1380) {
        before1380++;
      }
      if (step == 23) {
        finalStep++;
        if (firstOfFinal < 0) {
          firstOfFinal = a;
        }
      }
      perSecond[(int) a]++;
      assertThat(j.inputs()).hasSize(1);
      InputFile f = j.inputs().get(0);
      assertThat(f.bytes()).isEqualTo(10_000_000L);
      assertThat(f.location()).isNull();
      assertThat(Integer.parseInt(f.id().substring("mi-f".length()))).isBetween(0, 9_999);
      assertThat(j.computeSeconds()).isEqualTo(0.010);
      bytes += f.bytes();
      files.add(f.id());
      prev = a;
      last = a;
    }
    assertThat(total).isEqualTo(250_000);
    assertThat(before1380).isEqualTo(215_100);
    assertThat(finalStep).isEqualTo(34_900);
    assertThat(firstOfFinal).isEqualTo(1380.0);
    assertThat(last - firstOfFinal + 1.0 / 1000).isCloseTo(34.9, within(1e-9)); // 34,900 over 34.9 s
    assertThat(last).isCloseTo(1414.899, within(1e-9));
    assertThat(Math.ceil(last)).isEqualTo(1415.0); // ideal time
    int maxRate = 0;
    for (int n : perSecond) {
      maxRate = Math.max(maxRate, n);
    }
    assertThat(maxRate).isEqualTo(1000);
    // peak demand 1000 x 80 Mb = 80 Gb/s; mean demand 250,000 x 80 Mb / 1,415 s = 14.13 Gb/s
    assertThat(maxRate * 10_000_000L * 8).isEqualTo(80_000_000_000L);
    assertThat(bytes * 8 / 1415.0 / 1e9).isCloseTo(14.13, within(0.005));
    assertThat((double) total / Mi.FILES).isEqualTo(25.0); // mean accesses per file
    // ideal hit ratio 1 - distinct / 250,000, about 0.96 since each file is hit w.p. 1 - e^-25
    assertThat(1 - files.size() / 250_000.0).isCloseTo(0.96, within(1e-4));
  }

  @Test
  void sameSeedSameTraceOtherSeedOtherFiles() {
    Iterator<TraceJob> a = Mi.workload(1).iterator();
    Iterator<TraceJob> b = Mi.workload(1).iterator();
    Iterator<TraceJob> c = Mi.workload(2).iterator();
    int differ = 0;
    while (a.hasNext()) {
      TraceJob x = a.next();
      assertThat(b.next()).isEqualTo(x);
      if (!c.next().equals(x)) {
        differ++;
      }
    }
    assertThat(b.hasNext()).isFalse();
    assertThat(differ).isGreaterThan(200_000);
  }
}
