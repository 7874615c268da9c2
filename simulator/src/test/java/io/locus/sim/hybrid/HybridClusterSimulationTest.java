package io.locus.sim.hybrid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.locus.core.model.Resource;
import io.locus.core.model.ResourceVector;
import io.locus.sim.engine.RunResult;
import io.locus.sim.hybrid.cluster.OnlineFirstFit;
import io.locus.sim.hybrid.cluster.OnlineGreedySortMerge;
import io.locus.sim.hybrid.cluster.PowerModel;
import io.locus.sim.hybrid.cluster.ProfileBlindSlots;
import io.locus.workloads.HybridJob;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The cluster-mode simulation: the fluid model through a run, metrics, energy. */
class HybridClusterSimulationTest {
  /** G3 through the simulation: the profile-blind slots co-locate A and B on one node. */
  @Test
  void g3ThroughTheSimulation() {
    List<HybridJob> jobs = List.of(
        new HybridJob("A", 0, new ResourceVector(0.99, 0, 0, 0), 0, 100),
        new HybridJob("B", 1, new ResourceVector(0.25, 0, 0.5, 0), 0, 50));
    RunResult<ClusterSimulation.Metrics> r = ClusterSimulation.run(jobs, new ProfileBlindSlots(2),
        new ClusterSimulation.Config(1, 1.0));
    assertThat(r.jobs()).isEqualTo(2);
    assertThat(r.endTime()).isCloseTo(112.0, within(1e-9));
    assertThat(r.detail().meanResponse()).isCloseTo((62.0 + 112.0) / 2, within(1e-9));
    assertThat(r.detail().maxSlowdown()).isCloseTo(1.24, within(1e-9)); // B: 62 s for 50 s of work
    // CPU delivered: 100 % for 62 s (1.24 capped at 1), then 99 % for 50 s
    assertThat(r.detail().utilisation().get(Resource.CPU))
        .isCloseTo((62 * 1.0 + 50 * 0.99) / 112, within(1e-9));
    assertThat(r.detail().busyNodeSeconds()).isCloseTo(112, within(1e-9));
    // profile-aware GSM with headroom 0.9 will not co-locate them: serial, 150 s
    RunResult<ClusterSimulation.Metrics> gsm = ClusterSimulation.run(jobs,
        new OnlineGreedySortMerge(), new ClusterSimulation.Config(1, 0.9));
    assertThat(gsm.endTime()).isCloseTo(150.0, within(1e-9));
    assertThat(gsm.detail().meanSlowdown()).isEqualTo(1.0);
    // equal window 150 s: 572 W · 150 s + 116 W · busy node-seconds
    assertThat(ClusterSimulation.energyJoules(r, PowerModel.LINEAR, 150))
        .isCloseTo(572 * 150 + 116 * 112, within(1e-6));
    assertThat(ClusterSimulation.energyJoules(gsm, PowerModel.LINEAR, 150))
        .isCloseTo(572 * 150 + 116 * 150, within(1e-6));
  }

  @Test
  void complementaryJobsShareANodeAndArrivalsWait() {
    List<HybridJob> jobs = List.of(
        new HybridJob("cpu", 0, new ResourceVector(0.8, 0.1, 0.05, 0), 0, 100),
        new HybridJob("io", 1, new ResourceVector(0.05, 0.1, 0.8, 0), 10, 100),
        new HybridJob("cpu2", 2, new ResourceVector(0.8, 0.1, 0.05, 0), 20, 100));
    RunResult<ClusterSimulation.Metrics> r = ClusterSimulation.run(jobs, new OnlineFirstFit(),
        new ClusterSimulation.Config(1, 0.9));
    // io runs beside cpu at once; cpu2 waits for cpu to end at 100, then ends at 200
    assertThat(r.endTime()).isCloseTo(200, within(1e-9));
    assertThat(r.detail().meanWait()).isCloseTo((0 + 0 + 80) / 3.0, within(1e-9));
    assertThat(r.detail().meanSlowdown()).isEqualTo(1.0);
    assertThat(r.jobs() / r.endTime() * 3600).isCloseTo(3 / 200.0 * 3600, within(1e-9));
  }

  @Test
  void theExperimentIsDeterministicAndCompletesEveryJob() {
    List<ClusterExperiment.Run> a = ClusterExperiment.run(120, 2, 1, new double[] {0.7},
        ClusterExperiment.policies());
    List<ClusterExperiment.Run> b = ClusterExperiment.run(120, 2, 1, new double[] {0.7},
        ClusterExperiment.policies());
    assertThat(a).hasSize(2 * ClusterExperiment.policies().size());
    assertThat(modelOutputs(a)).isEqualTo(modelOutputs(b));
    for (ClusterExperiment.Run r : a) {
      assertThat(r.result().jobs()).isEqualTo(120);
      assertThat(r.window()).isGreaterThanOrEqualTo(r.result().endTime());
      assertThat(r.metrics().utilisation().get(Resource.CPU)).isBetween(0.0, 1.0);
      if (!r.policy().startsWith("SLOTS")) {
        assertThat(r.metrics().maxSlowdown()).as(r.policy()).isCloseTo(1.0, within(1e-9));
      }
    }
    assertThat(ClusterExperiment.markdown(a, new double[] {0.7}))
        .contains("GREEDY_SORT_MERGE", "FIRST_FIT", "SLOTS-2", "energy kWh");
  }

  /** The runs without their host measurements (wall time): what the model computed. */
  private static List<List<Object>> modelOutputs(List<ClusterExperiment.Run> runs) {
    return runs.stream().map(r -> List.<Object>of(r.load(), r.seed(), r.policy(),
        r.result().withoutHostMeasures(), r.window(), r.energyKwh())).toList();
  }
}
