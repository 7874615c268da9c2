package io.locus.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.core.model.InputFile;
import io.locus.sim.SimulationConfig.Provisioning;
import io.locus.sim.engine.RunResult;
import io.locus.sim.exec.Cluster;
import io.locus.sim.exec.ExecConfig;
import io.locus.sim.metrics.DiffusionMetrics;
import io.locus.workloads.TraceJob;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** DEMAND and VALUE eviction in the data-diffusion node caches (issue 16). */
class DemandEvictionTest {
  private static final long MB = TestJobs.MB;
  private static final InputFile A = InputFile.of("a", 100 * MB);
  private static final InputFile B = InputFile.of("b", 100 * MB);
  private static final InputFile C = InputFile.of("c", 100 * MB);

  /**
   * One node, one slot, room for two of the three 100 MB files; four tasks queued at t = 0 in the
   * order a, b, c, a, run first-come (FCA). When c arrives the cache holds a (older) and b. LRU
   * evicts a, which the queued fourth task reads: it reads a from storage again. DEMAND sees that
   * a queued task reads a and nobody reads b, and evicts b: the fourth task reads a locally.
   */
  private static final List<TraceJob> JOBS = List.of(
      TestJobs.job("t1", 0, 1, A), TestJobs.job("t2", 0, 1, B), TestJobs.job("t3", 0, 1, C),
      TestJobs.job("t4", 0, 1, A));

  private static RunResult<DiffusionMetrics> run(String eviction) {
    SimulationConfig cfg = SimulationConfig.builder().policy("FCA").provisioning(Provisioning.SRP)
        .nodes(1).minNodes(1).slots(1).cacheBytes(250 * MB)
        .exec(ExecConfig.defaults(1.0).withEviction(eviction)).seed(1).build();
    return Simulation.run(cfg, "demand", JOBS.iterator(), null);
  }

  @Test
  void demandKeepsTheFileAQueuedTaskReadsWhereLruEvictsIt() {
    RunResult<DiffusionMetrics> lru = run("LRU");
    RunResult<DiffusionMetrics> demand = run("DEMAND");
    assertThat(lru.complete()).isTrue();
    assertThat(demand.complete()).isTrue();
    long lruStorage = lru.detail().io().bytes()[Cluster.STORAGE];
    long demandStorage = demand.detail().io().bytes()[Cluster.STORAGE];
    assertThat(lruStorage).isEqualTo(400 * MB); // a, b, c, then a again
    assertThat(demandStorage).isEqualTo(300 * MB); // the second a is a local hit
    assertThat(demand.detail().io().bytes()[Cluster.LOCAL]).isEqualTo(100 * MB);
    assertThat(demand.detail().times().completionTime())
        .isLessThan(lru.detail().times().completionTime());
  }

  @ParameterizedTest
  @ValueSource(strings = {"VALUE", "DEMAND", "demand"})
  void valueAndDemandRunOnAnMiLikeTrace(String eviction) {
    List<TraceJob> jobs = TestJobs.miLike(1500, 150, 10 * MB, 5, 1.5, 10, 0.01, 42);
    SimulationConfig cfg = SimulationConfig.builder().policy("GCC").nodes(8).minNodes(1).slots(2)
        .provisioning(Provisioning.SRP).cacheBytes(300 * MB).window(500).theta(0.9).seed(1)
        .exec(ExecConfig.defaults(1.0).withEviction(eviction)).build();
    RunResult<DiffusionMetrics> r = Simulation.run(cfg, "mi-like", jobs.iterator(), null);
    assertThat(r.detail().tasks().completed()).isEqualTo(1500);
    assertThat(r.detail().io().maxCacheFill()).isLessThanOrEqualTo(1.0);
    assertThat(r.detail().io().localShare()).isPositive();
  }

  @Test
  void withCellsDemandReadsEveryCellsQueue() {
    // with cells the node caches read the cells' summed demand (CellPlacer); this checks only
    // that the wiring runs to completion within capacity, not the victim order
    SimulationConfig cfg = SimulationConfig.builder().policy("FCA").provisioning(Provisioning.SRP)
        .nodes(2).minNodes(2).slots(1).cells(2).cacheBytes(250 * MB)
        .exec(ExecConfig.defaults(1.0).withEviction("DEMAND")).seed(1).build();
    RunResult<DiffusionMetrics> r = Simulation.run(cfg, "demand-cells", JOBS.iterator(), null);
    assertThat(r.complete()).isTrue();
    assertThat(r.detail().tasks().completed()).isEqualTo(4);
    assertThat(r.detail().io().maxCacheFill()).isLessThanOrEqualTo(1.0);
  }

  @Test
  void demandIsRefusedWhereThereIsNoQueue() {
    assertThatThrownBy(() -> SimulationConfig.builder().policy("FA")
        .provisioning(Provisioning.LRM_PER_TASK).exec(ExecConfig.defaults(1.0)
            .withEviction("DEMAND")).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("LRM_PER_TASK");
    assertThatThrownBy(() -> SimulationConfig.builder().policy("GCC")
        .exec(ExecConfig.defaults(1.0).withEviction("MRU")).build())
        .hasMessageContaining("DEMAND");
  }
}
