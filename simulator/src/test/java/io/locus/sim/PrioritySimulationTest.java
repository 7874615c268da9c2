package io.locus.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.model.InputFile;
import io.locus.sim.SimulationConfig.Provisioning;
import io.locus.sim.engine.RunResult;
import io.locus.sim.exec.ExecConfig;
import io.locus.sim.metrics.DiffusionMetrics;
import io.locus.workloads.TraceJob;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The simulator orders each pool's queue by the jobs' priority as the scheduler does: on one slot,
 * three jobs of priority 5 submitted after six of priority 0 finish right after the job that was
 * already running, before every earlier low-priority job; with equal priorities the run is FIFO.
 */
class PrioritySimulationTest {
  private static final long MB = TestJobs.MB;

  private static List<TraceJob> jobs(Integer high) {
    List<TraceJob> jobs = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      jobs.add(new TraceJob("low" + i, null, 0.01 * i, List.of(InputFile.of("l" + i, MB)), 10, 0,
          Map.of(), null, List.of(), List.of(), null, List.of(), null));
    }
    for (int i = 0; i < 3; i++) {
      jobs.add(new TraceJob("high" + i, null, 1 + 0.01 * i, List.of(InputFile.of("h" + i, MB)),
          10, 0, Map.of(), null, List.of(), List.of(), null, List.of(), high));
    }
    return jobs;
  }

  private static List<String> finishOrder(String policy, Integer high) {
    SimulationConfig cfg = SimulationConfig.builder().policy(policy).nodes(1).slots(1).cacheGb(1)
        .provisioning(Provisioning.SRP).exec(ExecConfig.defaults(4.0)).seed(1).build();
    List<Simulation.TaskRecord> ends = new ArrayList<>();
    RunResult<DiffusionMetrics> r = Simulation.run(cfg, "prio", jobs(high).iterator(),
        (t, c) -> { }, ends::add);
    assertThat(r.complete()).isTrue();
    assertThat(ends).hasSize(9).allMatch(Simulation.TaskRecord::completed);
    return ends.stream().sorted(Comparator.comparingDouble(Simulation.TaskRecord::ended))
        .map(Simulation.TaskRecord::jobId).toList();
  }

  @ParameterizedTest
  @FieldSource("io.locus.sim.SimulationConfig#POLICIES")
  void higherPriorityJobsFinishFirst(String policy) {
    assertThat(finishOrder(policy, 5)).containsExactly("low0", "high0", "high1", "high2", "low1",
        "low2", "low3", "low4", "low5");
    // equal priorities (set or not): arrival order
    List<String> fifo = List.of("low0", "low1", "low2", "low3", "low4", "low5", "high0", "high1",
        "high2");
    assertThat(finishOrder(policy, 0)).containsExactlyElementsOf(fifo);
    assertThat(finishOrder(policy, null)).containsExactlyElementsOf(fifo);
  }
}
