package io.locus.sim.hybrid;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.model.Command;
import io.locus.core.model.InputFile;
import io.locus.sim.Simulation;
import io.locus.sim.SimulationConfig;
import io.locus.sim.engine.RunResult;
import io.locus.sim.exec.ExecConfig;
import io.locus.sim.metrics.DiffusionMetrics;
import io.locus.workloads.TraceJob;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** COMPLEMENTARY_PLACE in the data-diffusion simulator: profiles from the trace, caches, peers. */
class ComplementaryPlaceSimulationTest {
  private static final long MB = 1_000_000L;

  /** CPU-heavy and I/O-heavy tasks over 12 files of 20 MB, arriving 2 per second. */
  private static List<TraceJob> jobs(boolean withProfiles) {
    SplittableRandom rnd = new SplittableRandom(4);
    List<TraceJob> out = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      boolean cpu = rnd.nextBoolean();
      Map<String, String> attrs = withProfiles
          ? Map.of("cpu", cpu ? "0.6" : "0.1", "mem", "0.1", "disk", cpu ? "0.1" : "0.6")
          : Map.of();
      out.add(new TraceJob("t" + i, null, i * 0.5,
          List.of(InputFile.of("f" + rnd.nextInt(12), 20 * MB)), cpu ? 4.0 : 1.0, 0, attrs));
    }
    return out;
  }

  private static RunResult<DiffusionMetrics> run(List<TraceJob> jobs, List<String> log) {
    SimulationConfig cfg = SimulationConfig.builder().policy("complementary_place").nodes(4)
        .minNodes(4).slots(3).cacheGb(1).exec(ExecConfig.defaults(1.0)).seed(1).build();
    return Simulation.run(cfg, "cp-test", jobs.iterator(), (t, c) -> {
      if (c instanceof Command.Run r) {
        log.add(t + " " + r.task().taskId() + "@" + r.node() + " " + r.reason().policy());
      }
    });
  }

  @Test
  void runsToCompletionDeterministicallyAndProfilesChangeThePacking() {
    List<String> a = new ArrayList<>();
    List<String> b = new ArrayList<>();
    List<String> cold = new ArrayList<>();
    RunResult<DiffusionMetrics> ra = run(jobs(true), a);
    RunResult<DiffusionMetrics> rb = run(jobs(true), b);
    RunResult<DiffusionMetrics> rc = run(jobs(false), cold);
    assertThat(ra.detail().tasks().completed()).isEqualTo(200);
    assertThat(ra.complete()).isTrue();
    assertThat(rc.detail().tasks().completed()).isEqualTo(200);
    assertThat(b).isEqualTo(a);
    assertThat(rb.detail().scheduling().digest()).isEqualTo(ra.detail().scheduling().digest());
    assertThat(a).allMatch(l -> l.endsWith(" COMPLEMENTARY_PLACE"));
    // without profiles every task is a cold start and runs alone: one busy slot per node at most,
    // so the run is no shorter than with profiles, where two tasks share a node
    assertThat(rc.detail().times().completionTime())
        .isGreaterThanOrEqualTo(ra.detail().times().completionTime());
    assertThat(rc.detail().scheduling().digest()).isNotEqualTo(ra.detail().scheduling().digest());
    assertThat(ra.detail().io().localShare()).isGreaterThan(0.0);
  }
}
