package io.locus.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.core.model.InputFile;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Data-diffusion spec §4.3. */
class AllPairsTest {

  @ParameterizedTest
  @CsvSource({"500, 6000, 12", "1000, 24000, 24"})
  void countsAndBytes(int n, long totalGb, long minimalStorageGb) {
    Map<String, Integer> uses = new HashMap<>();
    Map<String, Long> size = new HashMap<>();
    long tasks = 0;
    long bytes = 0;
    for (TraceJob j : AllPairs.workload(n, 1.0)) {
      // row-major: task k is (k / N, k mod N), reading A_i then B_j (plain checks: 1M tasks)
      if (!j.inputs().get(0).id().equals("ap-a" + tasks / n)
          || !j.inputs().get(1).id().equals("ap-b" + tasks % n)
          || j.inputs().size() != 2 || j.arrival() != 0 || j.computeSeconds() != 1.0) {
        throw new AssertionError("task " + tasks + " is not (i, j) row-major at t = 0: " + j);
      }
      for (InputFile u : j.inputs()) {
        uses.merge(u.id(), 1, Integer::sum);
        size.put(u.id(), u.bytes());
      }
      bytes += j.totalBytes();
      tasks++;
    }
    assertThat(tasks).isEqualTo((long) n * n);
    assertThat(uses).hasSize(2 * n);
    assertThat(uses.values()).allMatch(u -> u == n);
    assertThat(size.values()).containsOnly(12_000_000L);
    assertThat(bytes).isEqualTo(totalGb * 1_000_000_000L);
    long eachOnce = size.values().stream().mapToLong(Long::longValue).sum();
    assertThat(eachOnce).isEqualTo(minimalStorageGb * 1_000_000_000L);
  }

  @Test
  void rejectsBadArguments() {
    assertThatThrownBy(() -> AllPairs.workload(0, 1.0)).hasMessageContaining("n >= 1");
    assertThatThrownBy(() -> AllPairs.workload(5, -1)).hasMessageContaining("compute");
  }
}
