package io.locus.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.model.Command;
import io.locus.core.model.InputFile;
import io.locus.sim.SimulationConfig.Lifecycle;
import io.locus.sim.SimulationConfig.OnFailure;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The simulator runs the streaming scheduler's job lifecycle (issue 23): a cancel of a queued job
 * takes it off the queue, of a running job stops its attempt and frees its slot without a retry,
 * of a finished job does nothing; cancelled jobs stay out of the response times; drawn cancels are
 * seeded; a failed or cancelled workflow job fails its descendants or its whole workflow.
 */
class LifecycleSimulationTest {
  private static final long MB = TestJobs.MB;

  private static TraceJob job(String id, double arrival, double compute, Double cancelAfter,
      String... parents) {
    return new TraceJob(id, null, arrival, List.of(InputFile.of("in-" + id, MB)), compute, 0,
        Map.of(), null, List.of(parents), List.of(), null, List.of(), null, cancelAfter);
  }

  private static SimulationConfig.Builder oneSlot() {
    return SimulationConfig.builder().policy("FA").nodes(1).slots(1).cacheGb(1)
        .provisioning(Provisioning.SRP).exec(ExecConfig.defaults(4.0)).seed(1);
  }

  /** One run: its result, when each job was placed (every Run) and every job's end. */
  private record Observed(RunResult<DiffusionMetrics> result, Map<String, List<Double>> placed,
      Map<String, Simulation.TaskRecord> ends) {
    DiffusionMetrics.Lifecycle life() {
      return result.detail().lifecycle();
    }

    DiffusionMetrics.Tasks tasks() {
      return result.detail().tasks();
    }
  }

  private static Observed run(SimulationConfig cfg, List<TraceJob> jobs) {
    Map<String, List<Double>> placed = new HashMap<>();
    Map<String, Simulation.TaskRecord> ends = new HashMap<>();
    RunResult<DiffusionMetrics> r = Simulation.run(cfg, "lifecycle", jobs.iterator(), (t, c) -> {
      if (c instanceof Command.Run run) {
        placed.computeIfAbsent(run.task().taskId(), k -> new ArrayList<>()).add(t);
      }
    }, rec -> ends.put(rec.jobId(), rec));
    assertThat(r.complete()).isTrue();
    return new Observed(r, placed, ends);
  }

  @Test
  void aQueuedJobCancelledLeavesTheQueueAndIsNeverPlaced() {
    // one slot: A runs 100 s, B waits behind it and is cancelled at 10 s, C runs after A
    Observed o = run(oneSlot().build(), List.of(job("A", 0, 100, null), job("B", 0, 5, 10.0),
        job("C", 0, 5, null)));
    assertThat(o.placed()).doesNotContainKey("B");
    assertThat(o.ends()).containsOnlyKeys("A", "C");
    assertThat(o.life().cancelled()).isEqualTo(1);
    assertThat(o.life().cancelledRunning()).isZero();
    assertThat(o.life().wastedSlotSeconds()).isZero();
    assertThat(o.tasks().completed()).isEqualTo(2);
    assertThat(o.tasks().failedPermanently()).isZero();
    // the response times are A's and C's only
    double mean = (o.ends().get("A").ended() + o.ends().get("C").ended()) / 2;
    assertThat(o.result().detail().times().meanResponse()).isCloseTo(mean,
        org.assertj.core.data.Offset.offset(1e-9));
  }

  @Test
  void aRunningJobCancelledStopsFreesItsSlotAndIsNotRetried() {
    // A is placed at 0 and cancelled at 30 s; C, queued behind it, gets the slot at 30 s
    Observed o = run(oneSlot().maxRetries(3).build(),
        List.of(job("A", 0, 100, 30.0), job("C", 0, 5, null)));
    assertThat(o.placed().get("A")).containsExactly(0.0); // once: no retry
    assertThat(o.placed().get("C")).containsExactly(30.0);
    assertThat(o.ends()).containsOnlyKeys("C");
    assertThat(o.life().cancelled()).isEqualTo(1);
    assertThat(o.life().cancelledRunning()).isEqualTo(1);
    assertThat(o.life().wastedSlotSeconds()).isEqualTo(30.0);
    assertThat(o.tasks().retries()).isZero();
    assertThat(o.tasks().failedPermanently()).isZero();
  }

  @Test
  void aFinishedJobCancelledIsLeftAloneAndCountedTooLate() {
    // A ends at about 5 s, its cancel comes at 20 s while B still runs; D's cancel at 500 s is due
    // after everything ended
    Observed o = run(oneSlot().slots(2).build(), List.of(job("A", 0, 5, 20.0),
        job("B", 0, 100, null), job("D", 0, 1, 500.0)));
    assertThat(o.ends()).containsOnlyKeys("A", "B", "D");
    assertThat(o.ends().values()).allMatch(Simulation.TaskRecord::completed);
    assertThat(o.life().cancelled()).isZero();
    assertThat(o.life().cancelsTooLate()).isEqualTo(2);
    assertThat(o.tasks().completed()).isEqualTo(3);
  }

  /** The same cancels with one scheduler cell of two, and with a node per task from the LRM. */
  @ParameterizedTest
  @ValueSource(strings = {"cells", "lrm-per-task"})
  void everyPlacerCancelsQueuedAndRunningJobs(String placer) {
    SimulationConfig cfg = placer.equals("cells")
        ? oneSlot().nodes(2).cells(2).build()
        : oneSlot().provisioning(Provisioning.LRM_PER_TASK).build();
    // LRM_PER_TASK: every job waits 30 to 60 s for its node, so Q's cancel at 10 s finds it
    // waiting and R's at 200 s finds it running; with cells, R runs and Q queues behind it
    Observed o = run(cfg, List.of(job("R", 0, 500, 200.0), job("R2", 0, 500, null),
        job("Q", 0, 5, 10.0)));
    assertThat(o.placed()).doesNotContainKey("Q");
    assertThat(o.placed().get("R")).hasSize(1);
    assertThat(o.life().cancelled()).isEqualTo(2);
    assertThat(o.life().cancelledRunning()).isEqualTo(1);
    assertThat(o.life().wastedSlotSeconds()).isGreaterThan(0).isLessThanOrEqualTo(200.0);
    assertThat(o.ends()).containsOnlyKeys("R2");
    assertThat(o.tasks().completed()).isEqualTo(1);
  }

  @Test
  void drawnCancelsAreSeededAndAFractionOfZeroChangesNothing() {
    List<TraceJob> jobs = TestJobs.miLike(400, 40, 10 * MB, 2, 1.5, 20, 2, 7);
    SimulationConfig.Builder base = SimulationConfig.builder().policy("GCC").nodes(4).slots(2)
        .cacheGb(1).provisioning(Provisioning.SRP).exec(ExecConfig.defaults(4.0));
    Lifecycle tenth = new Lifecycle(0.1, Double.NaN, OnFailure.FAIL_DESCENDANTS);
    Observed a = run(base.seed(1).lifecycle(tenth).build(), jobs);
    Observed b = run(base.seed(1).lifecycle(tenth).build(), jobs);
    Observed c = run(base.seed(2).lifecycle(tenth).build(), jobs);
    assertThat(b.result().detail().scheduling().digest())
        .isEqualTo(a.result().detail().scheduling().digest());
    assertThat(b.life()).isEqualTo(a.life());
    assertThat(c.result().detail().scheduling().digest())
        .isNotEqualTo(a.result().detail().scheduling().digest());
    // about a tenth of the 400 jobs drawn; each cancel found its job queued, running or ended
    long drawn = a.life().cancelled() + a.life().cancelsTooLate();
    assertThat(drawn).isBetween(20L, 60L);
    assertThat(a.life().cancelled()).isPositive();
    assertThat(a.tasks().completed() + a.life().cancelled()).isEqualTo(400);

    Observed none = run(base.seed(1).lifecycle(Lifecycle.defaults()).build(), jobs);
    Observed zero = run(base.seed(1)
        .lifecycle(new Lifecycle(0.0, 60.0, OnFailure.FAIL_DESCENDANTS)).build(), jobs);
    assertThat(zero.result().detail().scheduling().digest())
        .isEqualTo(none.result().detail().scheduling().digest());
    assertThat(none.life().cancelled() + none.life().cancelsTooLate()).isZero();
    assertThat(none.tasks().completed()).isEqualTo(400);
  }

  @Test
  void aFixedCancelWindowBoundsTheCancelTimes() {
    // every job drawn, cancelled within 0 s of its arrival: none is ever placed
    Lifecycle all = new Lifecycle(1.0, 0.0, OnFailure.FAIL_DESCENDANTS);
    Observed o = run(oneSlot().lifecycle(all).build(), List.of(job("A", 0, 5, null),
        job("B", 1, 5, null)));
    assertThat(o.placed()).isEmpty();
    assertThat(o.life().cancelled()).isEqualTo(2);
  }

  /**
   * Two roots of one workflow, F (short) and G (long); H needs F, K needs G, M needs H and K. F is
   * cancelled while it runs. Descendants: H and M fail, K runs after G. Workflow: K fails too.
   */
  @ParameterizedTest
  @ValueSource(strings = {"FAIL_DESCENDANTS", "FAIL_WORKFLOW"})
  void aCancelledWorkflowJobFailsItsDescendantsOrItsWorkflow(String policy) {
    OnFailure onFailure = OnFailure.valueOf(policy);
    List<TraceJob> jobs = List.of(job("M", 0, 1, null, "H", "K"), job("H", 0, 1, null, "F"),
        job("K", 0, 1, null, "G"), job("F", 0, 50, 5.0), job("G", 0, 20, null));
    Observed o = run(oneSlot().slots(2).lifecycle(
        new Lifecycle(0, Double.NaN, onFailure)).build(), jobs);
    assertThat(o.life().cancelledRunning()).isEqualTo(1);
    assertThat(o.placed()).doesNotContainKeys("H", "M");
    if (onFailure == OnFailure.FAIL_DESCENDANTS) {
      assertThat(o.ends()).containsOnlyKeys("G", "K");
      assertThat(o.life().failedByParent()).isEqualTo(2);
      assertThat(o.life().failedByWorkflow()).isZero();
    } else {
      assertThat(o.ends()).containsOnlyKeys("G"); // released: it runs on
      assertThat(o.placed()).doesNotContainKey("K");
      assertThat(o.life().failedByParent()).isEqualTo(2);
      assertThat(o.life().failedByWorkflow()).isEqualTo(1);
    }
    assertThat(o.tasks().dropped())
        .isEqualTo(o.life().failedByParent() + o.life().failedByWorkflow());
  }

  /**
   * A task that fails for good (every attempt fails, no retries), in the workflow of the test
   * above: F fails first, at about 1 s, while G still runs 20 s. FAIL_DESCENDANTS: K fails only
   * when G does, by its parent; FAIL_WORKFLOW: with F, by the workflow.
   */
  @ParameterizedTest
  @ValueSource(strings = {"FAIL_DESCENDANTS", "FAIL_WORKFLOW"})
  void aJobFailedForGoodFailsItsDescendantsOrItsWorkflow(String policy) {
    OnFailure onFailure = OnFailure.valueOf(policy);
    List<TraceJob> jobs = List.of(job("M", 0, 1, null, "H", "K"), job("H", 0, 1, null, "F"),
        job("K", 0, 1, null, "G"), job("F", 0, 1, null), job("G", 0, 20, null));
    SimulationConfig.Replay off = SimulationConfig.Replay.off();
    Observed o = run(oneSlot().slots(2).maxRetries(0)
        .replay(new SimulationConfig.Replay(false, off.minTimeoutSeconds(), off.runtimeFactor(),
            1.0, 100, off.suspendWindowSeconds()))
        .lifecycle(new Lifecycle(0, Double.NaN, onFailure)).build(), jobs);
    assertThat(o.tasks().failedPermanently()).isEqualTo(2); // F and G
    assertThat(o.placed()).containsOnlyKeys("F", "G");
    if (onFailure == OnFailure.FAIL_DESCENDANTS) {
      assertThat(o.life().failedByParent()).isEqualTo(3); // H, M (after H), K (after G)
      assertThat(o.life().failedByWorkflow()).isZero();
    } else {
      assertThat(o.life().failedByParent()).isEqualTo(2); // H, M
      assertThat(o.life().failedByWorkflow()).isEqualTo(1); // K, at F's failure
    }
  }
}
