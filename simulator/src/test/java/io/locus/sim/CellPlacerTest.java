package io.locus.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.locus.core.model.Command;
import io.locus.sim.SimulationConfig.Provisioning;
import io.locus.sim.engine.RunResult;
import io.locus.sim.exec.ExecConfig;
import io.locus.sim.metrics.DiffusionMetrics;
import io.locus.workloads.TraceJob;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A pool split into scheduler cells (CellPlacer): each cell dispatches on its own. */
class CellPlacerTest {

  private static SimulationConfig.Builder cfg() {
    return SimulationConfig.builder().provisioning(Provisioning.SRP).nodes(8).slots(1)
        .cacheGb(1).exec(ExecConfig.defaults(1.0)).window(500).seed(1);
  }

  private static RunResult<DiffusionMetrics> run(SimulationConfig c, List<TraceJob> jobs,
      Map<String, String> nodeOfTask) {
    return Simulation.run(c, "test", jobs.iterator(), (time, command) -> {
      if (command instanceof Command.Run r) {
        nodeOfTask.put(r.task().taskId(), r.node());
      }
    });
  }

  @Test
  void eachCellHasItsOwnDispatcher() {
    // 40 zero-length tasks at t = 0 on 8 nodes; a placement costs 0.1 s of its dispatcher.
    List<TraceJob> jobs = TestJobs.sleeps(40, 0.0, 0.0);
    double one = run(cfg().policy("FA").tauDispatch(0.1).build(), jobs, new HashMap<>())
        .detail().times().completionTime();
    double four = run(cfg().policy("FA").tauDispatch(0.1).cells(4).build(), jobs,
        new HashMap<>()).detail().times().completionTime();
    assertThat(one).isCloseTo(4.0, within(1e-9)); // 40 placements one after the other
    assertThat(four).isCloseTo(1.0, within(1e-9)); // 10 per cell, four dispatchers at once
  }

  @Test
  void everyTaskCompletesOnceAndTasksFollowTheirCachedData() {
    List<TraceJob> jobs = TestJobs.miLike(2_000, 20, 50 * TestJobs.MB, 20, 1.3, 5, 0.2, 7);
    Map<String, String> where = new HashMap<>();
    RunResult<DiffusionMetrics> r = run(cfg().policy("GCC").cells(2).build(), jobs, where);
    assertThat(r.detail().tasks().completed()).isEqualTo(jobs.size());
    assertThat(where).hasSize(jobs.size());
    // nodes are dealt round robin: n00001, n00003, ... in cell 0; the others in cell 1
    long cell0 = where.values().stream()
        .filter(n -> Integer.parseInt(n.substring(1)) % 2 == 1).count();
    assertThat(cell0).isBetween(200L, 1_800L); // both cells work
    assertThat(r.detail().io().localShare()).isGreaterThan(0.5);
  }

  @Test
  void oneCellPerNodeAtMostAndSrpOnly() {
    assertThatThrownBy(() -> cfg().cells(9).build())
        .hasMessageContaining("cells must be between 1 and the node count (8)");
    SimulationConfig drp = cfg().provisioning(Provisioning.DRP).cells(2).build();
    assertThatThrownBy(() -> Simulation.run(drp, "test", TestJobs.sleeps(1, 0, 1).iterator(),
        (t, c) -> { })).hasMessageContaining("SRP only");
  }
}
