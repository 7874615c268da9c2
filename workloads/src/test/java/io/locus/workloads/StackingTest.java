package io.locus.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Data-diffusion spec §4.4. */
class StackingTest {

  @Test
  void everyRowHasItsObjectsFilesAndLocality() {
    for (Stacking.Row row : Stacking.TABLE) {
      Map<String, Integer> uses = new HashMap<>();
      BitSet objects = new BitSet(row.objects());
      boolean shuffled = false;
      int k = 0;
      for (TraceJob j : Stacking.workload(row.locality(), Stacking.Format.GZ, 0.01, 0, 3)) {
        int o = Integer.parseInt(j.attributes().get("object"));
        assertThat(objects.get(o)).as("object %d twice", o).isFalse();
        objects.set(o);
        shuffled |= o != k++;
        // object o is in file o mod F
        assertThat(j.inputs().get(0).id()).isEqualTo("stack-f" + o % row.files());
        assertThat(j.arrival()).isZero();
        uses.merge(j.inputs().get(0).id(), 1, Integer::sum);
      }
      assertThat(objects.cardinality()).isEqualTo(row.objects()); // tasks = objects
      assertThat(uses).hasSize(row.files());
      assertThat(shuffled).as("submission order is a shuffle").isTrue();
      // as evenly as possible: every file holds floor or ceil of objects / files
      int lo = row.objects() / row.files();
      assertThat(uses.values()).allMatch(u -> u == lo || u == lo + 1);
      // objects / files matches the L column, at the precision it is printed with
      BigDecimal label = new BigDecimal(row.locality());
      BigDecimal measured = BigDecimal.valueOf(row.objects())
          .divide(BigDecimal.valueOf(uses.size()), label.scale(), RoundingMode.HALF_UP);
      assertThat(measured).as("L = %s", row.locality()).isEqualByComparingTo(label);
      // ideal hit ratio 1 - 1/L: each distinct file misses once
      double ideal = 1 - (double) uses.size() / row.objects();
      assertThat(ideal).isCloseTo(1 - 1 / label.doubleValue(), within(0.001));
    }
    assertThat(Stacking.row("1.38").ratio()).isCloseTo(1.382, within(0.0005));
  }

  @Test
  void formatSetsSizeAndDecompressionOnlyForGz() {
    List<TraceJob> gz = Stacking.workload("30", Stacking.Format.GZ, 0.01, 0.5, 1).toList();
    List<TraceJob> fit = Stacking.workload("30", Stacking.Format.FIT, 0.01, 0.5, 1).toList();
    assertThat(gz.get(0).inputs().get(0).bytes()).isEqualTo(2_000_000L);
    assertThat(fit.get(0).inputs().get(0).bytes()).isEqualTo(6_000_000L);
    assertThat(gz.get(0).computeSeconds()).isEqualTo(0.51);
    assertThat(fit.get(0).computeSeconds()).isEqualTo(0.01);
    assertThat(Stacking.workload("30", Stacking.Format.GZ, 0.01, 0.5, 1).toList()).isEqualTo(gz);
    assertThat(Stacking.workload("30", Stacking.Format.GZ, 0.01, 0.5, 2).toList()).isNotEqualTo(gz);
  }

  @Test
  void unknownLocalityListsTheTable() {
    assertThatThrownBy(() -> Stacking.row("7"))
        .hasMessageContaining("1, 1.38, 2, 3, 4, 5, 10, 20, 30");
  }
}
