package io.locus.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.JobSubmitted;
import io.locus.workloads.HybridMix;
import io.locus.workloads.TraceJob;
import io.locus.workloads.Workloads;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Replayed hybrid-mix jobs carry their profile in JobSubmitted (cpu, io = disk, mem). */
class HybridReplayProfileTest {
  @Test
  void profilesTravelInJobSubmitted() {
    TraceJob t = Workloads.create("noisy-mix", Map.of("n", "4"), 2).toList().get(1);
    JobSubmitted j = ReplayCommand.toJob(t, "p", 1000);
    var p = HybridMix.profile(t);
    assertThat(j.getProfile()).isNotNull();
    assertThat(j.getProfile().getCpu()).isEqualTo(p.cpu());
    assertThat(j.getProfile().getIo()).isEqualTo(p.disk());
    assertThat(j.getProfile().getMem()).isEqualTo(p.mem());
    assertThat(ReplayCommand.toJob(new TraceJob("x", 0, List.of(), 1), "p", 0).getProfile())
        .isNull();
  }
}
