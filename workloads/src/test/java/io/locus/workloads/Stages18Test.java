package io.locus.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Data-diffusion spec §4.7 and worked example E10. */
class Stages18Test {

  @Test
  void tasksCpuSecondsAndStages() {
    List<TraceJob> jobs = Stages18.workload().toList();
    assertThat(jobs).hasSize(1000);
    double cpu = jobs.stream().mapToDouble(TraceJob::totalComputeSeconds).sum();
    assertThat(cpu).isEqualTo(17_820.0);
    assertThat(cpu / jobs.size()).isCloseTo(17.82, within(1e-9));
    assertThat(jobs).allMatch(j -> j.inputs().isEmpty() && j.arrival() == 0);
    assertThat(jobs.stream().mapToInt(TraceJob::stage).distinct().sorted().toArray())
        .containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18);
    // jobs come stage by stage
    for (int i = 1; i < jobs.size(); i++) {
      assertThat(jobs.get(i).stage()).isGreaterThanOrEqualTo(jobs.get(i - 1).stage());
    }
  }

  /**
   * Replays the trace on 32 always-present single-slot machines with the stage barrier: each task
   * starts on the earliest free machine once its stage is released.
   */
  @Test
  void idealScheduleOn32MachinesIs1260Seconds() {
    TreeMap<Integer, List<TraceJob>> byStage = new TreeMap<>();
    for (TraceJob j : Stages18.workload()) {
      byStage.computeIfAbsent(j.stage(), s -> new ArrayList<>()).add(j);
    }
    double[] free = new double[32];
    double release = 0;
    double queue = 0;
    for (List<TraceJob> stage : byStage.values()) {
      double end = release;
      for (TraceJob j : stage) {
        int m = 0;
        for (int i = 1; i < free.length; i++) {
          if (free[i] < free[m]) {
            m = i;
          }
        }
        double start = Math.max(free[m], release);
        queue += start - release;
        free[m] = start + j.computeSeconds();
        end = Math.max(end, free[m]);
      }
      release = end;
    }
    assertThat(release).isEqualTo(1260.0);
    // E10: 7·60 + 120 + 14·6 + 13·12 + 8·60
    assertThat(7 * 60 + 120 + 14 * 6 + 13 * 12 + 8 * 60).isEqualTo(1260);
    assertThat(Stages18.idealCompletionSeconds(32)).isEqualTo(1260.0);
    assertThat(queue / 1000).isCloseTo(42.34, within(0.005)); // ideal mean queue time
    assertThat(Stages18.idealMeanQueueSeconds(32)).isCloseTo(queue / 1000, within(1e-9));
  }
}
