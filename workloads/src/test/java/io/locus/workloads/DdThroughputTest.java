package io.locus.workloads;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.workloads.DdThroughput.Locality;
import io.locus.workloads.DdThroughput.Mode;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Data-diffusion spec §4.6, D28. */
class DdThroughputTest {

  @Test
  void zeroLocalityReadsEveryFileOnce() {
    for (int nodes : DdThroughput.NODE_GRID) {
      Map<String, Integer> uses = new HashMap<>();
      Workload w = DdThroughput.workload(nodes, 2, DdThroughput.DEFAULT_FILE_BYTES, Locality.ZERO,
          Mode.READ, DdThroughput.TASKS_PER_SLOT);
      for (TraceJob j : w) {
        assertThat(j.inputs().get(0).bytes()).isEqualTo(100_000_000L);
        assertThat(j.attributes()).containsEntry("mode", "read").doesNotContainKey("prewarmExecutor");
        uses.merge(j.inputs().get(0).id(), 1, Integer::sum);
      }
      assertThat(w.size()).isEqualTo(20L * nodes * 2); // 20 tasks per slot
      assertThat(uses).hasSize(20 * nodes * 2);
      assertThat(uses.values()).containsOnly(1);
    }
  }

  @Test
  void fullLocalityHasOneFilePerSlotPrewarmedOnExactlyOneExecutor() {
    int nodes = 8;
    int slots = 2;
    Map<String, Integer> prewarm = DdThroughput.prewarmed(nodes, slots);
    assertThat(prewarm).hasSize(nodes * slots); // one file per slot
    Map<Integer, Integer> filesPerExecutor = new HashMap<>();
    prewarm.values().forEach(e -> filesPerExecutor.merge(e, 1, Integer::sum));
    assertThat(filesPerExecutor).hasSize(nodes);
    assertThat(filesPerExecutor.values()).containsOnly(slots);

    Map<String, Integer> uses = new HashMap<>();
    for (TraceJob j : DdThroughput.workload(nodes, slots, 1_000, Locality.FULL, Mode.READ_WRITE,
        20)) {
      String f = j.inputs().get(0).id();
      assertThat(prewarm).containsKey(f);
      assertThat(j.attributes())
          .containsEntry("prewarmExecutor", Integer.toString(prewarm.get(f)))
          .containsEntry("mode", "read+write")
          .containsEntry("writeBytes", "1000");
      uses.merge(f, 1, Integer::sum);
    }
    assertThat(uses.keySet()).isEqualTo(prewarm.keySet());
    assertThat(uses.values()).containsOnly(20);
  }
}
