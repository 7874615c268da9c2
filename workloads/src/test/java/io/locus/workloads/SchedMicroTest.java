package io.locus.workloads;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.model.InputFile;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Data-diffusion spec §4.5. */
class SchedMicroTest {

  @Test
  void quarterMillionTasksOverTenThousandOneByteFiles() {
    Set<String> files = new HashSet<>();
    long n = 0;
    for (TraceJob j : SchedMicro.workload(true, 5)) {
      assertThat(j.arrival()).isZero();
      assertThat(j.totalComputeSeconds()).isZero();
      InputFile f = j.inputs().get(0);
      assertThat(f.bytes()).isEqualTo(1);
      files.add(f.id());
      n++;
    }
    assertThat(n).isEqualTo(250_000);
    assertThat(files).hasSizeLessThanOrEqualTo(10_000).hasSizeGreaterThan(9_900);
  }

  @Test
  void withoutIoVariantReadsNothing() {
    Workload w = SchedMicro.workload(false, 5);
    assertThat(w.size()).isEqualTo(250_000);
    assertThat(w.stream().allMatch(j -> j.inputs().isEmpty() && j.arrival() == 0)).isTrue();
  }
}
