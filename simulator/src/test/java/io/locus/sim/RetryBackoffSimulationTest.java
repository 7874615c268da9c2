package io.locus.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.model.Command;
import io.locus.core.state.RetryBackoff;
import io.locus.sim.SimulationConfig.Provisioning;
import io.locus.sim.engine.RunResult;
import io.locus.sim.exec.ExecConfig;
import io.locus.sim.metrics.DiffusionMetrics;
import io.locus.workloads.TraceJob;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 23: the simulator's failed attempts follow the streaming scheduler's retry backoff, through
 * the same core code: a retry is never placed before its backoff has passed since the attempt
 * before it was placed (it failed later still), and every task still completes or fails for good.
 */
class RetryBackoffSimulationTest {
  private static final long MB = 1_000_000L;
  private static final List<TraceJob> JOBS = TestJobs.miLike(800, 150, 10 * MB, 5, 1.5, 10, 0.01,
      42);

  /** Per task, the placement times of its attempts, from the run's decisions. */
  private static Map<String, List<double[]>> placements(RetryBackoff backoff,
      RunResult<DiffusionMetrics>[] result) {
    // 10 % of attempts fail; no suspension, no timeout: every later attempt is a retry
    SimulationConfig.Replay replay = new SimulationConfig.Replay(false, 60, 10, 0.1, 1_000_000,
        60).withBackoff(backoff);
    SimulationConfig cfg = SimulationConfig.builder().nodes(8).minNodes(1).slots(2).cacheGb(1)
        .exec(ExecConfig.defaults(1.0)).window(500).theta(0.9).seed(1).policy("MCH")
        .provisioning(Provisioning.SRP).replay(replay).build();
    Map<String, List<double[]>> out = new HashMap<>();
    result[0] = Simulation.run(cfg, "test", JOBS.iterator(), (time, c) -> {
      if (c instanceof Command.Run r) {
        out.computeIfAbsent(r.task().taskId(), k -> new ArrayList<>())
            .add(new double[] {r.task().attempt(), time});
      }
    });
    return out;
  }

  /** The shortest time between an attempt's placement and its retry's, over all retries. */
  private static double shortestRetryGap(Map<String, List<double[]>> runs) {
    double min = Double.POSITIVE_INFINITY;
    for (List<double[]> attempts : runs.values()) {
      for (int i = 1; i < attempts.size(); i++) {
        assertThat(attempts.get(i)[0]).isEqualTo(attempts.get(i - 1)[0] + 1);
        min = Math.min(min, attempts.get(i)[1] - attempts.get(i - 1)[1]);
      }
    }
    return min;
  }

  @Test
  @SuppressWarnings("unchecked")
  void retriesWaitOutTheBackoffAndEveryTaskStillEnds() {
    RunResult<DiffusionMetrics>[] none = new RunResult[1];
    RunResult<DiffusionMetrics>[] backedOff = new RunResult[1];
    double atOnce = shortestRetryGap(placements(RetryBackoff.NONE, none));
    double waited = shortestRetryGap(placements(new RetryBackoff(30, 120), backedOff));
    assertThat(none[0].detail().tasks().retries()).isPositive();
    assertThat(atOnce).as("without backoff a retry may follow at once").isLessThan(30);
    assertThat(backedOff[0].detail().tasks().retries()).isPositive();
    assertThat(waited).isGreaterThanOrEqualTo(30);
    DiffusionMetrics.Tasks t = backedOff[0].detail().tasks();
    assertThat(backedOff[0].complete()).isTrue();
    assertThat(t.completed() + t.failedPermanently()).isEqualTo(JOBS.size());
  }
}
