package io.locus.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.model.Command;
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
 * Preemption in the simulator (issue 24): the core's Preempt is carried out (the victim stops at
 * the grace, its slot goes to the queue below its guarantee, the task re-runs and completes once,
 * its lost work counted), a run with preemption is deterministic, and {@code off} (NaN) makes no
 * preemption and the same decisions as the preempting run until its first preemption.
 */
class PreemptionSimulationTest {
  private static TraceJob job(String id, double arrival, double compute, String queue) {
    return new TraceJob(id, null, arrival, List.of(), compute, 0, Map.of(), null, List.of(),
        List.of(), null, List.of(), null, null, queue);
  }

  /** What a run decided and which jobs ended how. */
  private record Outcome(RunResult<DiffusionMetrics> result, List<Command> decisions,
      List<Double> times, List<Simulation.TaskRecord> ended) {
    QueueMetrics queues() {
      return result.detail().queues();
    }

    List<Command.Preempt> preemptions() {
      return decisions.stream().filter(c -> c instanceof Command.Preempt)
          .map(c -> (Command.Preempt) c).toList();
    }

    List<Command.Run> runs() {
      return decisions.stream().filter(c -> c instanceof Command.Run).map(c -> (Command.Run) c)
          .toList();
    }
  }

  private static Outcome run(SimulationConfig cfg, String name, List<TraceJob> jobs) {
    List<Command> decisions = new ArrayList<>();
    List<Double> times = new ArrayList<>();
    List<Simulation.TaskRecord> ended = new ArrayList<>();
    RunResult<DiffusionMetrics> r = Simulation.run(cfg, name, jobs.iterator(), (t, c) -> {
      decisions.add(c);
      times.add(t);
    }, ended::add);
    assertThat(r.complete()).isTrue();
    return new Outcome(r, decisions, times, ended);
  }

  /**
   * One node of 2 slots (FA), queues a and b of weight 1 guaranteed 1 slot each. a floods 4 tasks
   * of 100 s (no inputs: they compute from their start) at t = 0 and takes both slots; b sends
   * one at t = 1.
   */
  private static Outcome flood(double grace) {
    List<TraceJob> jobs = new ArrayList<>();
    for (int i = 1; i <= 4; i++) {
      jobs.add(job("a" + i, 0, 100, "a"));
    }
    jobs.add(job("b1", 1, 100, "b"));
    QueueTree tree = QueueTree.build(List.of(
        QueueSpec.of("a", null, 1, 1, QueueSpec.UNLIMITED),
        QueueSpec.of("b", null, 1, 1, QueueSpec.UNLIMITED)), 2);
    SimulationConfig cfg = SimulationConfig.builder().policy("FA").nodes(1).minNodes(1).slots(2)
        .cacheGb(1).provisioning(Provisioning.SRP).exec(ExecConfig.defaults(4.0)).seed(1)
        .queues(new SimulationConfig.Queues(tree, true, 3.0, grace)).build();
    Outcome o = run(cfg, "preempt-flood", jobs);
    assertThat(o.result().detail().tasks().completed()).isEqualTo(5);
    return o;
  }

  /**
   * By hand, grace 10 s: at t = 1 b is below its guarantee with no free slot, so the round
   * preempts one of a's two attempts (equal elapsed time and locality: the lower task id, a1),
   * leaving a at its guarantee. a1 computes, so it stops at 1 + 10 = 11; b1 takes its slot then:
   * b reaches its guarantee 10 s after it came, the grace. a1 goes back to a's queue at its
   * original position (attempt 1), runs when a2 ends at 100, and completes once at 200; its 11
   * slot-seconds are lost. Without preemption b1 waits for the first task of a to end: 99 s.
   */
  @Test
  void preemptionBringsTheLateQueueToItsGuaranteeWithinTheGraceAndTheVictimRunsAgainOnce() {
    Outcome p = flood(10.0);
    assertThat(p.preemptions()).hasSize(1);
    Command.Preempt stop = p.preemptions().get(0);
    assertThat(stop.taskId()).isEqualTo("a1");
    assertThat(stop.attempt()).isZero();
    assertThat(stop.forQueue()).isEqualTo("b");
    assertThat(stop.graceSeconds()).isEqualTo(10.0);
    assertThat(p.times().get(p.decisions().indexOf(stop))).isEqualTo(1.0);

    QueueMetrics.Queue b = p.queues().queue("b");
    assertThat(b.firstToGuarantee()).isEqualTo(10.0);
    assertThat(b.meanResponse()).isEqualTo(110.0); // 11 -> 111
    QueueMetrics.Queue a = p.queues().queue("a");
    assertThat(a.preempted()).isEqualTo(1);
    assertThat(a.lostSlotSeconds()).isEqualTo(11.0);
    assertThat(b.preempted()).isZero();
    assertThat(p.queues().preempted()).isEqualTo(1);
    // preempted is not failed: no retry, no permanent failure
    assertThat(p.result().detail().tasks().failedPermanently()).isZero();
    assertThat(p.result().detail().tasks().retries()).isZero();

    // a1 ran twice (attempts 0 and 1) and ended once, completed, at 200
    assertThat(p.runs()).filteredOn(r -> r.task().taskId().equals("a1"))
        .extracting(r -> r.task().attempt()).containsExactly(0, 1);
    assertThat(p.ended()).filteredOn(e -> e.jobId().equals("a1")).singleElement()
        .satisfies(e -> {
          assertThat(e.completed()).isTrue();
          assertThat(e.started()).isEqualTo(100.0);
          assertThat(e.ended()).isEqualTo(200.0);
        });
    assertThat(p.ended()).hasSize(5).allMatch(Simulation.TaskRecord::completed);

    Outcome off = flood(Double.NaN);
    assertThat(off.preemptions()).isEmpty();
    assertThat(off.queues().queue("b").firstToGuarantee()).isEqualTo(99.0); // one task length
    assertThat(off.queues().queue("b").meanResponse()).isEqualTo(199.0); // 100 -> 200
    assertThat(off.queues().preempted()).isZero();
    assertThat(off.queues().lostSlotSeconds()).isZero();
  }

  /**
   * A victim whose run ends on its own within the grace ends PREEMPTED all the same (the agent
   * does not report a stopped process's completion): grace 200 s, a1 would end at 100; it is
   * stopped then, its 100 slot-seconds lost, and re-runs from 100 (b1 takes the freed slot at 100,
   * as without preemption).
   */
  @Test
  void aVictimEndingWithinTheGraceIsStillPreemptedAndReRun() {
    Outcome p = flood(200.0);
    assertThat(p.preemptions()).extracting(Command.Preempt::taskId).containsExactly("a1");
    assertThat(p.queues().queue("a").lostSlotSeconds()).isEqualTo(100.0);
    assertThat(p.queues().queue("b").firstToGuarantee()).isEqualTo(99.0);
    assertThat(p.ended()).filteredOn(e -> e.jobId().equals("a1")).singleElement()
        .satisfies(e -> assertThat(e.started()).isEqualTo(100.0));
  }

  // ------------------------------------------------------------------ the tenants workload

  private static final Tenants.Options SMALL = new Tenants.Options(3, 2, 5, Tenants.Shape.MIX, 4,
      500_000_000L, 0.02, 30, 0.0);

  private static Outcome tenants(String policy, double grace) {
    List<QueueSpec> specs = new ArrayList<>();
    for (int t = 1; t <= 3; t++) {
      specs.add(QueueSpec.of(Tenants.tenant(t), null, 1, 2, QueueSpec.UNLIMITED));
    }
    SimulationConfig cfg = SimulationConfig.builder().policy(policy).nodes(3).minNodes(3)
        .slots(2).cacheGb(2).provisioning(Provisioning.SRP).exec(ExecConfig.defaults(4.0))
        .seed(3).queues(new SimulationConfig.Queues(QueueTree.build(specs, 6), true, 3.0, grace))
        .build();
    Workload w = Tenants.workload(SMALL, 3);
    List<TraceJob> jobs = new ArrayList<>();
    w.forEach(jobs::add);
    Outcome o = run(cfg, w.name(), jobs);
    assertThat(o.result().detail().tasks().completed()).isEqualTo(w.size());
    return o;
  }

  @Test
  void aRunWithPreemptionIsDeterministicAndOffDecidesAsWithoutIt() {
    for (String policy : List.of("MCH", "EFT")) {
      Outcome one = tenants(policy, 5.0);
      Outcome two = tenants(policy, 5.0);
      assertThat(one.preemptions()).as(policy).isNotEmpty();
      assertThat(one.queues().preempted()).isEqualTo(one.preemptions().size());
      assertThat(DiffusionMetrics.fingerprint(two.result()))
          .isEqualTo(DiffusionMetrics.fingerprint(one.result()));
      assertThat(two.queues().fingerprint()).isEqualTo(one.queues().fingerprint());
      assertThat(two.result().detail().scheduling().digest())
          .isEqualTo(one.result().detail().scheduling().digest());

      Outcome off = tenants(policy, Double.NaN);
      assertThat(off.preemptions()).isEmpty();
      assertThat(off.queues().preempted()).isZero();
      // until the first preemption the two runs decide alike; from it on they differ
      int first = one.decisions().indexOf(one.preemptions().get(0));
      assertThat(off.decisions().subList(0, first)).isEqualTo(one.decisions().subList(0, first));
      assertThat(off.result().detail().scheduling().digest())
          .isNotEqualTo(one.result().detail().scheduling().digest());
    }
  }
}
