package io.locus.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.share.QueueSpec;
import io.locus.core.share.QueueTree;
import io.locus.sim.SimulationConfig.Provisioning;
import io.locus.sim.engine.RunResult;
import io.locus.sim.exec.ExecConfig;
import io.locus.sim.metrics.DiffusionMetrics;
import io.locus.sim.metrics.QueueMetrics;
import io.locus.workloads.Tenants;
import io.locus.workloads.TraceJob;
import io.locus.workloads.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The simulator with a queue tree (issue 24): the core's fair-share dispatch runs in it, the
 * per-queue measures are those of the hand-checkable flood, a run is deterministic, measuring a
 * FIFO run changes none of its decisions, and on the tenants workload each late tenant reaches its
 * guarantee within a bound while FIFO leaves it far longer below.
 */
class QueueSimulationTest {
  private static TraceJob job(String id, double arrival, double compute, String queue) {
    return new TraceJob(id, null, arrival, List.of(), compute, 0, Map.of(), null, List.of(),
        List.of(), null, List.of(), null, null, queue);
  }

  private static QueueTree twoQueues(int guarantee, int slots) {
    return QueueTree.build(List.of(QueueSpec.of("a", null, 1, guarantee, QueueSpec.UNLIMITED),
        QueueSpec.of("b", null, 1, guarantee, QueueSpec.UNLIMITED)), slots);
  }

  private static SimulationConfig.Builder oneNode() {
    return SimulationConfig.builder().policy("FA").nodes(1).minNodes(1).slots(2).cacheGb(1)
        .provisioning(Provisioning.SRP).exec(ExecConfig.defaults(4.0)).seed(1);
  }

  /**
   * Queue a floods 4 tasks of 10 s at t = 0 on 2 slots; b sends 2 at t = 1; guarantees of 1 slot.
   * Fair share: at 10 b is below its guarantee and takes the first free slot (9 s after it came);
   * FIFO: b waits for all of a's (19 s). Without preemption (PreemptionSimulationTest has it).
   */
  private static QueueMetrics flood(boolean fair) {
    List<TraceJob> jobs = new ArrayList<>();
    for (int i = 1; i <= 4; i++) {
      jobs.add(job("a" + i, 0, 10, "a"));
    }
    jobs.add(job("b1", 1, 10, "b"));
    jobs.add(job("b2", 1, 10, "b"));
    SimulationConfig cfg = oneNode().queues(new SimulationConfig.Queues(twoQueues(1, 2), fair,
        3.0, Double.NaN)).build();
    RunResult<DiffusionMetrics> r = Simulation.run(cfg, "flood", jobs.iterator(),
        Simulation.DecisionListener.NONE);
    assertThat(r.complete()).isTrue();
    assertThat(r.detail().tasks().completed()).isEqualTo(6);
    return r.detail().queues();
  }

  @Test
  void theFloodedQueueGetsItsGuaranteeAtTheFirstFreeSlotUnderFairShareAndLastUnderFifo() {
    QueueMetrics fair = flood(true);
    assertThat(fair.queue("b").firstToGuarantee()).isEqualTo(9.0);
    assertThat(fair.queue("b").meanResponse()).isEqualTo(24.0); // 10 -> 20 and 20 -> 30
    assertThat(fair.queue("a").completed() + fair.queue("b").completed()).isEqualTo(6);
    assertThat(fair.preempted()).isZero();
    QueueMetrics fifo = flood(false);
    assertThat(fifo.queue("b").firstToGuarantee()).isEqualTo(19.0);
    assertThat(fifo.queue("b").meanResponse()).isEqualTo(29.0); // both 20 -> 30
    // from 1 to 20 FIFO runs a on both slots while b waits: Jain 0.5 throughout
    assertThat(fifo.minJain()).isEqualTo(0.5);
    assertThat(fair.meanJain()).isGreaterThan(fifo.meanJain());
  }

  @Test
  void aJobNamingAQueueTheTreeLacksIsRefusedAndCounted() {
    List<TraceJob> jobs = List.of(job("a1", 0, 1, "a"), job("x1", 0, 1, "nope"),
        job("d1", 0, 1, null));
    SimulationConfig cfg = oneNode().queues(new SimulationConfig.Queues(twoQueues(1, 2), true))
        .build();
    RunResult<DiffusionMetrics> r = Simulation.run(cfg, "refused", jobs.iterator(),
        Simulation.DecisionListener.NONE);
    assertThat(r.complete()).isTrue();
    assertThat(r.detail().tasks().completed()).isEqualTo(2); // a1, and d1 in the default queue
    assertThat(r.detail().tasks().failedPermanently()).isEqualTo(1);
    QueueMetrics q = r.detail().queues();
    assertThat(q.refused()).isEqualTo(1);
    assertThat(q.firstRefusal()).isEqualTo("job x1: unknown queue 'nope' (this pool's queues: a,"
        + " b, default)");
    assertThat(q.queue("default").completed()).isEqualTo(1);
  }

  // ------------------------------------------------------------------ the tenants workload

  private static final Tenants.Options SMALL = new Tenants.Options(3, 2, 5, Tenants.Shape.MIX, 4,
      500_000_000L, 0.02, 30, 0.0);

  private static QueueTree tenantsTree() {
    List<QueueSpec> specs = new ArrayList<>();
    for (int t = 1; t <= 3; t++) {
      specs.add(QueueSpec.of(Tenants.tenant(t), null, 1, 2, QueueSpec.UNLIMITED));
    }
    return QueueTree.build(specs, 6);
  }

  private static RunResult<DiffusionMetrics> tenants(String policy, SimulationConfig.Queues q) {
    SimulationConfig cfg = SimulationConfig.builder().policy(policy).nodes(3).minNodes(3)
        .slots(2).cacheGb(2).provisioning(Provisioning.SRP).exec(ExecConfig.defaults(4.0))
        .seed(3).queues(q).build();
    Workload w = Tenants.workload(SMALL, 3);
    RunResult<DiffusionMetrics> r = Simulation.run(cfg, w);
    assertThat(r.complete()).isTrue();
    assertThat(r.detail().tasks().completed()).isEqualTo(w.size());
    return r;
  }

  @Test
  void aRunWithATreeIsDeterministicAndMeasuringFifoChangesNoDecision() {
    for (String policy : List.of("MCH", "EFT")) {
      var fair = new SimulationConfig.Queues(tenantsTree(), true);
      RunResult<DiffusionMetrics> one = tenants(policy, fair);
      RunResult<DiffusionMetrics> two = tenants(policy, fair);
      assertThat(DiffusionMetrics.fingerprint(two)).isEqualTo(DiffusionMetrics.fingerprint(one));
      RunResult<DiffusionMetrics> plain = tenants(policy, null);
      RunResult<DiffusionMetrics> measured = tenants(policy,
          new SimulationConfig.Queues(tenantsTree(), false));
      assertThat(measured.detail().scheduling().digest())
          .isEqualTo(plain.detail().scheduling().digest());
      assertThat(plain.detail().queues()).isNull();
      // the tree is used: fair share decides otherwise than the FIFO queue
      assertThat(one.detail().scheduling().digest())
          .isNotEqualTo(plain.detail().scheduling().digest());
    }
  }

  /**
   * The bound: a late tenant is below its guarantee only until slots free up, and without
   * preemption a slot frees when a running task ends, so within the longest task's time: its
   * compute plus reading its inputs at the NIC's 1 Gb/s (storage shared by four nodes at 4 Gb/s
   * gives each about that), plus the locality wait's 3 s.
   */
  @Test
  void eachLateTenantReachesItsGuaranteeWithinATaskLengthUnderFairShare() {
    double longest = 0;
    for (TraceJob j : Tenants.workload(SMALL, 3)) {
      longest = Math.max(longest, j.computeSeconds() + j.totalBytes() * 8 / 1e9);
    }
    double bound = longest + 3;
    for (String policy : List.of("MCH", "EFT")) {
      QueueMetrics fair = tenants(policy, new SimulationConfig.Queues(tenantsTree(), true))
          .detail().queues();
      QueueMetrics fifo = tenants(policy, new SimulationConfig.Queues(tenantsTree(), false))
          .detail().queues();
      for (int t = 2; t <= 3; t++) {
        QueueMetrics.Queue q = fair.queue(Tenants.tenant(t));
        assertThat(q.firstToGuarantee()).as("%s %s", policy, q.name()).isLessThanOrEqualTo(bound);
        assertThat(fifo.queue(Tenants.tenant(t)).firstToGuarantee())
            .as("FIFO %s %s", policy, q.name()).isGreaterThan(bound);
      }
      assertThat(fair.meanJain()).isGreaterThan(fifo.meanJain());
      assertThat(fair.meanShareError()).isLessThan(fifo.meanShareError());
    }
  }
}
