package io.locus.sim.hybrid.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.locus.core.model.ResourceVector;
import io.locus.sim.engine.RunResult;
import io.locus.sim.hybrid.ClusterExperiment;
import io.locus.sim.hybrid.ClusterSimulation;
import io.locus.workloads.HybridJob;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * EFT's cluster form on constructed cases, each worked by hand with the fluid model of §1.4: it
 * shares a node when the slowdown it causes and suffers costs less than waiting, waits when not,
 * never overcommits memory, and through whole runs completes every job deterministically.
 */
class FluidEarliestFinishTest {
  private static final ResourceVector CPU = new ResourceVector(0.9, 0.1, 0.05, 0);
  private static final ResourceVector IO = new ResourceVector(0.05, 0.1, 0.8, 0);

  private static HybridJob job(String id, long seq, ResourceVector p, double at, double t) {
    return new HybridJob(id, seq, p, at, t);
  }

  private static RunResult<ClusterSimulation.Metrics> run(List<HybridJob> jobs, int nodes) {
    return ClusterSimulation.run(jobs, new FluidEarliestFinish(),
        new ClusterSimulation.Config(nodes, 1.0));
  }

  @Test
  void anIdleNodeIsTakenAtOnceAndAComplementaryJobSharesUnslowed() {
    // io arrives while cpu runs on the only node: together CPU 0.95 and disk 0.85, nobody slows
    RunResult<ClusterSimulation.Metrics> r = run(List.of(job("cpu", 0, CPU, 0, 100),
        job("io", 1, IO, 10, 100)), 1);
    assertThat(r.detail().meanWait()).isZero();
    assertThat(r.detail().maxSlowdown()).isCloseTo(1.0, within(1e-9));
    assertThat(r.endTime()).isCloseTo(110, within(1e-9));
  }

  @Test
  void aShortJobSharesWithALongOneRatherThanWaitForIt() {
    // long: 1000 s of CPU 0.9; short (CPU 0.9, 100 s) arrives at 0. Sharing, load 1.8: both at
    // 1/1.8; short ends at 180 s, long has then done 100 s and ends 900 s later, at 1080 s.
    // Cost of sharing: 180 + 80 (the delay to long) = 260 s; of waiting: 1000 + 100 = 1100 s.
    RunResult<ClusterSimulation.Metrics> r = run(List.of(job("long", 0, CPU, 0, 1000),
        job("short", 1, CPU, 0, 100)), 1);
    assertThat(r.detail().meanWait()).isZero();
    assertThat(r.endTime()).isCloseTo(1080, within(1e-6));
    assertThat(r.detail().meanResponse()).isCloseTo((180 + 1080) / 2.0, within(1e-6));
  }

  @Test
  void aLongJobWaitsForAShortOneRatherThanSlowIt() {
    // short: 10 s of CPU 0.9 runs; long (CPU 0.9, 1000 s) arrives at 0. Sharing: short ends at
    // 18 s (8 s late), long then alone ends at 18 + 990 = 1008 s: cost 1016 s. Waiting: 10 s,
    // then 1000 s: cost 1010 s. It waits.
    RunResult<ClusterSimulation.Metrics> r = run(List.of(job("short", 0, CPU, 0, 10),
        job("long", 1, CPU, 0, 1000)), 1);
    assertThat(r.detail().meanWait()).isCloseTo(10 / 2.0, within(1e-9));
    assertThat(r.detail().maxSlowdown()).isCloseTo(1.0, within(1e-9));
    assertThat(r.endTime()).isCloseTo(1010, within(1e-9));
  }

  @Test
  void memoryIsNeverOvercommitted() {
    ResourceVector big = new ResourceVector(0.1, 0.6, 0.1, 0);
    // the second job would share at no slowdown at all, but 0.6 + 0.6 of memory does not fit
    RunResult<ClusterSimulation.Metrics> r = run(List.of(job("a", 0, big, 0, 100),
        job("b", 1, big, 0, 100)), 1);
    assertThat(r.endTime()).isCloseTo(200, within(1e-9));
    assertThat(r.detail().meanWait()).isCloseTo(50, within(1e-9));
    // a job larger than a node's memory fits nowhere: the run says so
    assertThatThrownBy(() -> run(List.of(job("huge", 0, new ResourceVector(0.1, 1.5, 0, 0), 0,
        10)), 2)).hasMessageContaining("fit no node");
  }

  @Test
  void theStartCostIsTheResponseTimeTheStartAdds() {
    FluidEarliestFinish eft = new FluidEarliestFinish();
    assertThat(eft.name()).isEqualTo("EFT-FLUID");
    assertThat(new FluidEarliestFinish(600).name()).isEqualTo("EFT-FLUID (durations unknown)");
    assertThatThrownBy(() -> new FluidEarliestFinish(0)).hasMessageContaining("> 0");
    // on an empty node: its own standalone time, and room at once
    assertThat(FluidEarliestFinish.startCost(List.of(), CPU, 1.0, 100)).isCloseTo(100,
        within(1e-9));
    assertThat(FluidEarliestFinish.roomIn(List.of(), CPU)).isZero();
  }

  @Test
  void wholeRunsCompleteEveryJobTheSameWayTwice() {
    List<ClusterExperiment.Run> a = ClusterExperiment.run(150, 1, 3, new double[] {0.9},
        List.of(ClusterExperiment.EFT_FLUID));
    List<ClusterExperiment.Run> b = ClusterExperiment.run(150, 1, 3, new double[] {0.9},
        List.of(ClusterExperiment.EFT_FLUID));
    assertThat(a.get(0).result().jobs()).isEqualTo(150);
    assertThat(a.get(0).metrics().meanResponse()).isEqualTo(b.get(0).metrics().meanResponse());
    assertThat(a.get(0).metrics().meanSlowdown()).isGreaterThanOrEqualTo(1.0);
  }
}
