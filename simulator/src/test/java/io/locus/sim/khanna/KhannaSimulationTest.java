package io.locus.sim.khanna;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.locus.core.staging.CostModel;
import io.locus.sim.engine.RunResult;
import io.locus.workloads.TraceJob;
import io.locus.workloads.Workloads;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.ValueSource;

class KhannaSimulationTest {
  private static List<TraceJob> trace(int n, long seed) {
    return Workloads.create("khanna", Map.of("n", "" + n), seed).toList();
  }

  @ParameterizedTest
  @FieldSource("io.locus.sim.khanna.KhannaPlans#POLICIES")
  void everyJobCompletesWithConsistentTimes(String policy) {
    List<TraceJob> jobs = trace(200, 3);
    RunResult<KhannaSimulation.Metrics> r = KhannaSimulation.run(jobs,
        KhannaSimulation.Config.of(policy, 4));
    assertThat(r.jobs()).isEqualTo(200);
    assertThat(r.detail().perJob()).hasSize(200);
    CostModel c = CostModel.DEFAULT;
    Map<String, TraceJob> byId = new java.util.HashMap<>();
    jobs.forEach(j -> byId.put(j.jobId(), j));
    for (KhannaSimulation.JobTimes t : r.detail().perJob()) {
      assertThat(t.waitTime()).isGreaterThanOrEqualTo(-1e-9);
      // exec ≥ reading and computing every file once (§1.4): staging can only add to it
      double readCompute = c.readComputeSeconds(byId.get(t.jobId()).totalBytes());
      assertThat(t.execTime()).isGreaterThanOrEqualTo(readCompute - 1e-9);
      assertThat(t.response()).isCloseTo(t.waitTime() + t.execTime(), within(1e-9));
      assertThat(t.arrival()).isEqualTo(byId.get(t.jobId()).arrival());
    }
    double mean = r.detail().perJob().stream().mapToDouble(KhannaSimulation.JobTimes::response)
        .average().orElseThrow();
    assertThat(r.detail().averageResponse()).isCloseTo(mean, within(1e-9));
    assertThat(r.detail().stagingTransfers()).isPositive();
    assertThat(r.detail().replicationTransfers() > 0).isEqualTo(policy.equals("JDPDLL"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"ONLINE_HPS", "SA", "JDPDLL"})
  void sameTraceSameResult(String policy) {
    RunResult<KhannaSimulation.Metrics> a = KhannaSimulation.run(trace(200, 5),
        KhannaSimulation.Config.of(policy, 4));
    RunResult<KhannaSimulation.Metrics> b = KhannaSimulation.run(trace(200, 5),
        KhannaSimulation.Config.of(policy, 4));
    assertThat(a.detail().perJob()).isEqualTo(b.detail().perJob());
    assertThat(a.detail().remoteTransfers()).isEqualTo(b.detail().remoteTransfers());
  }

  @Test
  void aJobAloneTakesItsExecutionEstimate() {
    // one job on an empty cluster: staging of every file (serialised ingress) + read + compute
    List<TraceJob> one = trace(20, 1).subList(0, 1);
    RunResult<KhannaSimulation.Metrics> r = KhannaSimulation.run(one,
        KhannaSimulation.Config.of("MCT", 4));
    TraceJob j = one.get(0);
    CostModel c = CostModel.DEFAULT;
    double expected = c.exec(j.totalBytes(), j.totalBytes());
    assertThat(r.detail().perJob().get(0).execTime()).isCloseTo(expected, within(1e-6));
    assertThat(r.detail().perJob().get(0).waitTime()).isCloseTo(0, within(1e-9));
  }

  @Test
  void confidenceIntervalsUseStudentT() {
    KhannaExperiments.MeanInterval s = KhannaExperiments.MeanInterval.of(new double[] {1, 2, 3, 4, 5});
    assertThat(s.mean()).isEqualTo(3.0);
    // sd = sqrt(2.5); half = t(4) · sd / sqrt(5) = 2.776 · 0.7071
    assertThat(s.half()).isCloseTo(2.776 * Math.sqrt(2.5 / 5), within(1e-9));
  }
}
