package io.locus.workloads;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.model.InputFile;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Data-diffusion spec §4.2 and worked example E2. */
class SwTest {

  @Test
  void rateFunctionMatchesE2() {
    long sum = 0;
    int max = 0;
    int firstMax = -1;
    int lastMax = -1;
    for (int sec = 0; sec <= 6503; sec++) {
      int a = Sw.rate(sec);
      sum += a;
      if (a > max) {
        max = a;
        firstMax = sec;
      }
      if (a == max) {
        lastMax = sec;
      }
    }
    assertThat(sum).isEqualTo(2_000_000);
    assertThat(max).isEqualTo(1000);
    assertThat(firstMax).isEqualTo(5267);
    assertThat(lastMax).isEqualTo(5300);
    assertThat(Sw.rate(487)).isEqualTo(91);
    assertThat(Sw.rate(517)).isEqualTo(91);
    assertThat(Sw.rate(1532)).isEqualTo(284);
    assertThat(Sw.rate(3125)).isEqualTo(587);
    assertThat(Sw.rate(5300)).isEqualTo(1000);
    assertThat(Sw.rate(6503)).isEqualTo(1);
    assertThat(Sw.rate(6504)).isZero();
  }

  /**
   * Waves are the runs between the troughs where A = 0. The first run (0–130 s) is the tail of a
   * wave cut by sec = 0, which §4.2's table does not list; the next four are the table's.
   */
  @Test
  void waveMaximaMatchTheTable() {
    List<int[]> waves = new ArrayList<>(); // {max, first second at max, last second at max}
    int[] cur = null;
    for (int sec = 0; sec <= 6503; sec++) {
      int a = Sw.rate(sec);
      if (a == 0) {
        cur = null;
        continue;
      }
      if (cur == null) {
        cur = new int[] {0, -1, -1};
        waves.add(cur);
      }
      if (a > cur[0]) {
        cur[0] = a;
        cur[1] = sec;
      }
      if (a == cur[0]) {
        cur[2] = sec;
      }
    }
    assertThat(waves).hasSize(5);
    assertThat(waves.get(0)[0]).isLessThan(91);
    assertThat(waves.get(1)).containsExactly(91, 487, 517);
    assertThat(waves.get(2)).containsExactly(284, 1503, 1532);
    assertThat(waves.get(3)).containsExactly(587, 3097, 3125);
    assertThat(waves.get(4)).containsExactly(1000, 5267, 5300);
  }

  /** All 2,000,000 tasks, twice side by side: per-second counts, spacing, files, determinism. */
  @Test
  void generatedTraceFollowsTheRateAndIsDeterministic() {
    int[] perSecond = new int[6505];
    BitSet files = new BitSet(Sw.FILES);
    Iterator<TraceJob> again = Sw.workload(9).iterator();
    Iterator<TraceJob> other = Sw.workload(10).iterator();
    long total = 0;
    int differ = 0;
    double last = -1;
    for (TraceJob j : Sw.workload(9)) {
      assertThat(again.next()).isEqualTo(j);
      if (!other.next().equals(j)) {
        differ++;
      }
      int sec = (int) Math.floor(j.arrival());
      // evenly spaced in [sec, sec + 1): the k-th of A(sec) tasks arrives at sec + k / A(sec)
      assertThat(j.arrival()).isEqualTo(sec + (double) perSecond[sec] / Sw.rate(sec));
      perSecond[sec]++;
      InputFile f = j.inputs().get(0);
      assertThat(f.bytes()).isEqualTo(10_000_000L);
      files.set(Integer.parseInt(f.id().substring("sw-f".length())));
      assertThat(j.computeSeconds()).isEqualTo(0.010);
      last = j.arrival();
      total++;
    }
    assertThat(again.hasNext()).isFalse();
    assertThat(total).isEqualTo(2_000_000);
    for (int sec = 0; sec < perSecond.length; sec++) {
      assertThat(perSecond[sec]).as("tasks in second %d", sec).isEqualTo(Sw.rate(sec));
    }
    assertThat(last).isEqualTo(6503.0);
    assertThat(files.length()).isLessThanOrEqualTo(Sw.FILES);
    assertThat((double) total / Sw.FILES).isEqualTo(20.0); // mean accesses per file
    assertThat(differ).isGreaterThan(1_900_000);
  }
}
