package io.locus.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.locus.core.model.Command;
import io.locus.core.model.InputFile;
import io.locus.sim.SimulationConfig.Provisioning;
import io.locus.sim.engine.RunResult;
import io.locus.sim.exec.ExecConfig;
import io.locus.sim.metrics.DiffusionMetrics;
import io.locus.sim.metrics.TimeSeries;
import io.locus.sim.provision.LrmConfig;
import io.locus.workloads.TraceJob;
import io.locus.workloads.Workloads;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Whole simulations on small hand-built workloads: invariants, policies, provisioning. */
class SimulationTest {
  private static final long MB = TestJobs.MB;

  /** 3,000 MI-like tasks over 150 files of 10 MB; the rate grows 1.5x every 10 s from 5/s. */
  private static final List<TraceJob> MI_LIKE =
      TestJobs.miLike(3000, 150, 10 * MB, 5, 1.5, 10, 0.01, 42);

  private static SimulationConfig.Builder small() {
    return SimulationConfig.builder().nodes(8).minNodes(1).slots(2).cacheGb(1)
        .exec(ExecConfig.defaults(1.0)).window(500).theta(0.9).seed(1);
  }

  private record Decision(double time, String node, String task, int attempt) {}

  private static final class Recorder implements Simulation.DecisionListener {
    final List<Decision> runs = new ArrayList<>();
    final List<Command> other = new ArrayList<>();

    @Override
    public void decided(double time, Command c) {
      if (c instanceof Command.Run r) {
        runs.add(new Decision(time, r.node(), r.task().taskId(), r.task().attempt()));
      } else {
        other.add(c);
      }
    }
  }

  private static RunResult<DiffusionMetrics> run(SimulationConfig cfg, List<TraceJob> jobs,
      Recorder rec) {
    return Simulation.run(cfg, "test", jobs.iterator(), rec);
  }

  private static RunResult<DiffusionMetrics> run(SimulationConfig cfg, List<TraceJob> jobs) {
    return run(cfg, jobs, new Recorder());
  }

  @Test
  void sameSeedGivesTheSameDecisionsAndResultsAndAnotherSeedDoesNot() {
    SimulationConfig cfg = small().policy("GCC").provisioning(Provisioning.DRP).build();
    Recorder a = new Recorder();
    Recorder b = new Recorder();
    Recorder c = new Recorder();
    RunResult<DiffusionMetrics> ra = run(cfg, MI_LIKE, a);
    RunResult<DiffusionMetrics> rb = run(cfg, MI_LIKE, b);
    RunResult<DiffusionMetrics> rc = run(cfg.toBuilder().seed(2).build(), MI_LIKE, c);
    assertThat(b.runs).isEqualTo(a.runs);
    assertThat(b.other).isEqualTo(a.other);
    assertThat(DiffusionMetrics.fingerprint(rb)).isEqualTo(DiffusionMetrics.fingerprint(ra));
    assertThat(rb.detail().series().sameAs(ra.detail().series())).isTrue();
    assertThat(rb.detail().scheduling().digest()).isEqualTo(ra.detail().scheduling().digest());
    // another seed draws other LRM latencies: nodes arrive at other times
    assertThat(c.runs).isNotEqualTo(a.runs);
    assertThat(rc.detail().scheduling().digest()).isNotEqualTo(ra.detail().scheduling().digest());
  }

  @ParameterizedTest
  @ValueSource(strings = {"MCH", "GCC"})
  void theDispatchGateChangesNoDecision(String policy) {
    // evictions (small caches), registrations and releases (DRP) all pass through the gate
    SimulationConfig gated = small().policy(policy).cacheBytes(300 * MB)
        .provisioning(Provisioning.DRP).idleSeconds(5).theta(0.7).build();
    Recorder on = new Recorder();
    Recorder off = new Recorder();
    RunResult<DiffusionMetrics> a = run(gated, MI_LIKE, on);
    RunResult<DiffusionMetrics> b = run(gated.toBuilder().dispatchGate(false).build(), MI_LIKE,
        off);
    assertThat(on.runs).isEqualTo(off.runs);
    assertThat(on.other).isEqualTo(off.other);
    assertThat(DiffusionMetrics.fingerprint(a)).isEqualTo(DiffusionMetrics.fingerprint(b));
    assertThat(a.detail().scheduling().dispatchCalls())
        .isLessThan(b.detail().scheduling().dispatchCalls());
  }

  @ParameterizedTest
  @FieldSource("io.locus.sim.SimulationConfig#POLICIES")
  void everyTaskCompletesOnceCachesStayWithinCapacityAndBytesAreConserved(String policy) {
    // Small caches (40 files of 10 MB per node) force evictions; DRP adds and removes nodes.
    SimulationConfig cfg = small().policy(policy).cacheBytes(400 * MB)
        .provisioning(Provisioning.DRP).idleSeconds(5).build();
    Recorder rec = new Recorder();
    RunResult<DiffusionMetrics> r = run(cfg, MI_LIKE, rec);
    assertThat(r.complete()).isTrue();
    assertThat(r.detail().tasks().completed()).isEqualTo(MI_LIKE.size());
    assertThat(r.detail().tasks().failedPermanently()).isZero();
    Map<String, Integer> placements = new HashMap<>();
    rec.runs.forEach(d -> placements.merge(d.task(), 1, Integer::sum));
    assertThat(placements).hasSize(MI_LIKE.size());
    assertThat(placements.values()).allMatch(n -> n == 1);
    assertThat(r.detail().io().maxCacheFill()).isLessThanOrEqualTo(1.0);
    long[] b = r.detail().io().bytes();
    assertThat(r.detail().io().bytesRead()).isEqualTo(b[0] + b[1] + b[2])
        .isEqualTo(TestJobs.totalBytes(MI_LIKE));
    assertThat(r.detail().io().totalAccesses()).isEqualTo(MI_LIKE.size());
    // every byte a flow moved belongs to a completed read or an aborted one
    DiffusionMetrics.Io io = r.detail().io();
    assertThat(io.flowBytes()).isCloseTo(io.bytesRead() + io.abortedBytes(),
        within(1e-6 * io.bytesRead()));
    TimeSeries s = r.detail().series();
    assertThat(sum(s.column(TimeSeries.ARRIVALS))).isEqualTo(MI_LIKE.size());
    assertThat(sum(s.column(TimeSeries.COMPLETIONS))).isEqualTo(MI_LIKE.size());
    double seriesBytes = sum(s.column(TimeSeries.THROUGHPUT_GBPS)) * 1e9 / 8;
    assertThat(seriesBytes).isCloseTo(io.flowBytes(), within(1e-6 * io.flowBytes()));
  }

  @Test
  void faReadsEverythingFromStorage() {
    RunResult<DiffusionMetrics> r = run(small().policy("FA").provisioning(Provisioning.SRP).build(),
        MI_LIKE);
    assertThat(r.detail().io().accesses()).containsExactly(0, 0, MI_LIKE.size());
    assertThat(r.detail().io().bytes()[2]).isEqualTo(TestJobs.totalBytes(MI_LIKE));
    assertThat(r.detail().io().missShare()).isEqualTo(1.0);
  }

  @Test
  void dataAwarePoliciesHitTheirCaches() {
    SimulationConfig.Builder b = small().provisioning(Provisioning.SRP);
    RunResult<DiffusionMetrics> fa = run(b.policy("FA").build(), MI_LIKE);
    RunResult<DiffusionMetrics> gcc = run(b.policy("GCC").build(), MI_LIKE);
    RunResult<DiffusionMetrics> mch = run(b.policy("MCH").build(), MI_LIKE);
    RunResult<DiffusionMetrics> mcu = run(b.policy("MCU").build(), MI_LIKE);
    assertThat(gcc.detail().io().localShare()).isGreaterThan(fa.detail().io().localShare() + 0.5);
    assertThat(gcc.detail().times().completionTime())
        .isLessThan(fa.detail().times().completionTime());
    // MCH only runs a task where its data is: its local hit ratio is at least MCU's
    assertThat(mch.detail().io().localShare())
        .isGreaterThanOrEqualTo(mcu.detail().io().localShare());
    assertThat(mch.detail().io().peerShare()).isZero();
  }

  @Test
  void drpAcquiresAndReleasesNodesWithinItsMaximum() {
    List<TraceJob> bursts = new ArrayList<>();
    for (int i = 0; i < 1500; i++) {
      double t = i < 750 ? i / 50.0 : 400 + (i - 750) / 50.0;
      bursts.add(TestJobs.job("b" + i, t, 0.5, InputFile.of("f" + (i % 60), 10 * MB)));
    }
    SimulationConfig cfg = small().policy("GCC").provisioning(Provisioning.DRP).nodes(6).build();
    Recorder rec = new Recorder();
    RunResult<DiffusionMetrics> r = run(cfg, bursts, rec);
    assertThat(r.detail().tasks().completed()).isEqualTo(bursts.size());
    assertThat(r.detail().resources().allocations()).isPositive();
    assertThat(r.detail().resources().releases()).isPositive();
    assertThat(r.detail().resources().maxNodes()).isLessThanOrEqualTo(6).isGreaterThan(1);
    assertThat(java.util.Arrays.stream(r.detail().series().column(TimeSeries.NODES)))
        .allMatch(n -> n <= 6 && n >= 1);
    assertThat(rec.other).anyMatch(c -> c instanceof Command.Acquire)
        .anyMatch(c -> c instanceof Command.Release);
    // CPU_T counts registered time only: less than 6 nodes for the whole run
    assertThat(r.detail().resources().cpuHours())
        .isLessThan(6 * 2 * r.detail().times().lastCompletion() / 3600.0);
  }

  @Test
  void equalTimeEventsAreAppliedBeforeOneDispatch() {
    // 50 one-second tasks at t = 0 on 10 single-slot nodes: batches at t = 0, 1, ..., 5
    SimulationConfig cfg = small().policy("FA").provisioning(Provisioning.SRP).nodes(10).slots(1)
        .build();
    RunResult<DiffusionMetrics> r = run(cfg, TestJobs.sleeps(50, 0.0, 1.0));
    assertThat(r.detail().scheduling().dispatchCalls()).isEqualTo(6);
    assertThat(r.detail().times().completionTime()).isEqualTo(5.0);
    assertThat(r.detail().resources().cpuHours()).isCloseTo(10 * 5 / 3600.0, within(1e-12));
    assertThat(r.detail().resources().utilisation()).isEqualTo(1.0);
  }

  @Test
  void dispatcherCostSerialisesPlacements() {
    SimulationConfig cfg = small().policy("FA").provisioning(Provisioning.SRP).nodes(10).slots(1)
        .tauDispatch(0.1).build();
    Recorder rec = new Recorder();
    RunResult<DiffusionMetrics> r = run(cfg, TestJobs.sleeps(10, 0.0, 0.0), rec);
    // the k-th placement starts (and, with nothing to do, ends) at 0.1·k
    assertThat(r.detail().times().completionTime()).isCloseTo(1.0, within(1e-9));
  }

  @Test
  void stages18OnThirtyTwoHeldMachinesTakesItsIdealTime() {
    SimulationConfig cfg = SimulationConfig.builder().policy("FA").provisioning(Provisioning.SRP)
        .nodes(32).slots(1).cacheBytes(0).build();
    RunResult<DiffusionMetrics> r = Simulation.run(cfg, Workloads.create("stages18", Map.of(), 1));
    assertThat(r.detail().tasks().completed()).isEqualTo(1000);
    assertThat(r.detail().times().idealTime()).isEqualTo(1260.0);
    assertThat(r.detail().times().completionTime()).isEqualTo(1260.0);
    assertThat(r.detail().times().efficiency()).isEqualTo(1.0);
  }

  @Test
  void lrmPerTaskGivesEveryTaskItsOwnAllocation() {
    SimulationConfig cfg = SimulationConfig.builder().policy("FA")
        .provisioning(Provisioning.LRM_PER_TASK).nodes(32).slots(1).cacheBytes(0)
        .lrm(LrmConfig.withCapacity(100)).build();
    RunResult<DiffusionMetrics> r = Simulation.run(cfg, Workloads.create("stages18", Map.of(), 1));
    assertThat(r.detail().tasks().completed()).isEqualTo(1000);
    assertThat(r.detail().resources().allocations()).isEqualTo(1000);
    assertThat(r.detail().resources().releases()).isEqualTo(1000);
    assertThat(r.detail().resources().maxNodes()).isLessThanOrEqualTo(100);
    // every task waits at least the 30 s allocation latency
    assertThat(r.detail().times().meanQueue()).isGreaterThanOrEqualTo(30.0);
    assertThat(r.detail().times().completionTime()).isGreaterThan(1260.0);
  }

  @Test
  void drpWithoutMinimumNodesStillRunsAStagedWorkload() {
    SimulationConfig cfg = SimulationConfig.builder().policy("FA").provisioning(Provisioning.DRP)
        .nodes(32).minNodes(0).slots(1).cacheBytes(0).idleSeconds(60)
        .lrm(LrmConfig.withCapacity(100)).build();
    RunResult<DiffusionMetrics> r = Simulation.run(cfg, Workloads.create("stages18", Map.of(), 1));
    assertThat(r.detail().tasks().completed()).isEqualTo(1000);
    assertThat(r.detail().resources().maxNodes()).isLessThanOrEqualTo(32);
    assertThat(r.detail().resources().allocations()).isPositive();
  }

  @Test
  void failedAttemptsAreReplayedUntilTheyCompleteOrRunOutOfRetries() {
    SimulationConfig.Replay replay = new SimulationConfig.Replay(true, 60, 10, 0.1, 5, 60);
    SimulationConfig cfg = small().policy("GCC").provisioning(Provisioning.DRP).replay(replay)
        .build();
    List<TraceJob> jobs = MI_LIKE.subList(0, 800);
    RunResult<DiffusionMetrics> r = run(cfg, jobs);
    assertThat(r.complete()).isTrue();
    assertThat(r.detail().tasks().injectedFailures()).isPositive();
    assertThat(r.detail().tasks().retries()).isPositive();
    assertThat(r.detail().tasks().completed() + r.detail().tasks().failedPermanently())
        .isEqualTo(jobs.size());
  }

  @Test
  void executorsFailingRepeatedlyAreSuspended() {
    // half of all attempts fail: 5 failures within 60 s suspend (release) a node, and SRP never
    // replaces it, so the run ends early, flagged as truncated
    SimulationConfig.Replay replay = new SimulationConfig.Replay(true, 60, 10, 0.5, 5, 60);
    SimulationConfig cfg = small().policy("GCC").provisioning(Provisioning.SRP).replay(replay)
        .stallSeconds(100).build();
    RunResult<DiffusionMetrics> r = run(cfg, MI_LIKE.subList(0, 800));
    assertThat(r.detail().resources().releases()).isEqualTo(8);
    assertThat(r.complete()).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"FIFO", "LFU", "RANDOM"})
  void otherEvictionPoliciesWork(String eviction) {
    SimulationConfig cfg = small().policy("GCC").provisioning(Provisioning.SRP)
        .cacheBytes(300 * MB).exec(ExecConfig.defaults(1.0).withEviction(eviction)).build();
    RunResult<DiffusionMetrics> r = run(cfg, MI_LIKE.subList(0, 1500));
    assertThat(r.detail().tasks().completed()).isEqualTo(1500);
    assertThat(r.detail().io().maxCacheFill()).isLessThanOrEqualTo(1.0);
    assertThat(r.detail().io().localShare()).isPositive();
  }

  @Test
  void aRunThatCannotFinishStopsAndSaysSo() {
    SimulationConfig cfg = small().policy("GCC").provisioning(Provisioning.DRP).minNodes(0)
        .lrm(LrmConfig.withCapacity(1)).nodes(4).stallSeconds(600).build();
    // the provisioner asks for 4 nodes at once from an LRM that has 1: refused every poll
    List<TraceJob> jobs = TestJobs.sleeps(20, 0.0, 1.0);
    RunResult<DiffusionMetrics> r = run(cfg, jobs);
    assertThat(r.complete()).isFalse();
    assertThat(r.detail().tasks().completed()).isLessThan(20);
  }

  private static double sum(double[] v) {
    double s = 0;
    for (double x : v) {
      s += x;
    }
    return s;
  }
}
