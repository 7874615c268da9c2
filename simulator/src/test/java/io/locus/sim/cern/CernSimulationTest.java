package io.locus.sim.cern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.locus.sim.engine.RunResult;
import io.locus.workloads.TraceJob;
import io.locus.workloads.Workloads;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The CERN simulator and the sustainable-load procedure on small, fast settings. */
class CernSimulationTest {
  private static final ExecutorService POOL = Executors.newFixedThreadPool(2);

  @AfterAll
  static void stop() {
    POOL.shutdownNow();
  }

  private static List<TraceJob> jobs(int n, double load, long seed) {
    return Workloads.create("cern", Map.of("n", Integer.toString(n), "load",
        Double.toString(load)), seed).toList();
  }

  private static RunResult<CernSimulation.Metrics> run(String policy, Map<String, String> params,
      int n, double load, long seed) {
    List<TraceJob> js = jobs(n, load, seed);
    double last = js.get(js.size() - 1).arrival();
    return CernSimulation.run(new CernSimulation.Config(policy, params, 10, false), js,
        new CernSimulation.Window(0.02 * last, 0.9 * last, true, 0));
  }

  @Test
  void farmJobsRunWholeFromTapeAtSpeedupOne() {
    RunResult<CernSimulation.Metrics> r = run("FARM", Map.of(), 300, 0.3, 1);
    assertThat(r.detail().measured()).isNotEmpty().allSatisfy(m -> {
      assertThat(m.speedup()).isCloseTo(1.0, within(1e-9)); // processing = N x 0.8 s
      assertThat(m.tape()).isEqualTo(m.events());
      assertThat(m.waitIncl()).isGreaterThanOrEqualTo(0);
    });
    assertThat(r.detail().overloaded()).isFalse();
  }

  @Test
  void aFarmAboveItsCapacityIsOverloaded() {
    // capacity n * 3600 / (40,000 * 0.8) = 1.125 jobs/h (spec §1.4)
    RunResult<CernSimulation.Metrics> r = run("FARM", Map.of(), 600, 1.6, 2);
    assertThat(r.detail().overloaded()).isTrue();
    assertThat(r.detail().meanWaitQ4()).isGreaterThan(2 * r.detail().meanWaitQ2() + 3600);
    // grows (base: running)
    assertThat(r.detail().meanBacklogQ4()).isGreaterThan(1.8 * r.detail().meanBacklogQ2());
    assertThat(run("FARM", Map.of(), 600, 0.5, 2).detail().backlogOverloaded()).isFalse();
  }

  @Test
  void theBacklogTestSeesOverloadWhereJobsOvertakeEachOther() {
    // far above the maximal theoretical load (3.46 jobs/h): out-of-order service keeps waiting
    // times from growing across the window, the backlog still grows
    RunResult<CernSimulation.Metrics> r = run("OUT_OF_ORDER", Map.of("cacheGb", "50"), 1500, 12, 3);
    assertThat(r.detail().backlogOverloaded()).isTrue();
    assertThat(r.detail().meanBacklogQ4()).isGreaterThan(2 * r.detail().meanBacklogQ2());
  }

  @Test
  void sameSeedSameResult() {
    RunResult<CernSimulation.Metrics> a = run("OUT_OF_ORDER", Map.of("cacheGb", "50"), 250, 1.0, 3);
    RunResult<CernSimulation.Metrics> b = run("OUT_OF_ORDER", Map.of("cacheGb", "50"), 250, 1.0, 3);
    assertThat(a.detail().measured()).isEqualTo(b.detail().measured());
    assertThat(a.events()).isEqualTo(b.events());
    RunResult<CernSimulation.Metrics> c = run("OUT_OF_ORDER", Map.of("cacheGb", "50"), 250, 1.0, 4);
    assertThat(c.detail().measured()).isNotEqualTo(a.detail().measured());
  }

  @Test
  void cachingPoliciesReadFromTheCacheAndSplit() {
    for (String p : List.of("CACHE_JOB_SPLITTING", "OUT_OF_ORDER", "DELAYED")) {
      RunResult<CernSimulation.Metrics> r = run(p, Map.of("cacheGb", "200"), 250, 0.5, 5);
      RunStats s = RunStats.of(List.of(r));
      assertThat(s.hitRatio()).as(p).isGreaterThan(0.05).isLessThanOrEqualTo(1);
      // upper bound: every event from the cache on all n nodes: n * 0.8 / 0.26
      assertThat(s.speedup()).as(p).isGreaterThan(0).isLessThanOrEqualTo(10 * 0.8 / 0.26);
    }
    RunStats js = RunStats.of(List.of(run("JOB_SPLITTING", Map.of(), 250, 0.3, 5)));
    assertThat(js.hitRatio()).isZero();
    assertThat(js.speedup()).isGreaterThan(1.5).isLessThanOrEqualTo(10.0 + 1e-9);
  }

  @Test
  void replicationReadsRemotelyAndCountsUsage() {
    RunResult<CernSimulation.Metrics> r = run("OUT_OF_ORDER", Map.of("cacheGb", "100",
        "replication", "true"), 300, 1.0, 6);
    RunStats s = RunStats.of(List.of(r));
    assertThat(s.remoteRatio()).isGreaterThan(0);
    assertThat(r.detail().replications()).isPositive();
    assertThat(s.replicationShare()).isGreaterThan(0).isLessThanOrEqualTo(1);
  }

  @Test
  void warmupFollowsTheSpec() {
    // 2 x fill time = 2 x 83,333 events x 0.6 s
    assertThat(LoadSweep.warmup(new LoadSweep.Variant("f", "FARM", Map.of()), 50))
        .isCloseTo(2 * 83_333 * 0.6, within(1e-6));
    // 5 periods of a week beat 2 x fill of 200 GB
    assertThat(LoadSweep.warmup(new LoadSweep.Variant("d", "DELAYED", Map.of("period", "1w")),
        200)).isEqualTo(5 * 7 * 86_400);
  }

  @Test
  void sustainableLoadOfTheFarmIsBelowItsCapacity() throws Exception {
    StringWriter log = new StringWriter();
    LoadSweep.Settings s = new LoadSweep.Settings(10, 600, 3, false, 0.25, 5, 3_333_333L, true,
        false);
    LoadSweep.Curve c = new LoadSweep(s, POOL, new PrintWriter(log))
        .sweep(new LoadSweep.Variant("FARM", "FARM", Map.of()), 50);
    // the capacity is 1.125 jobs/h; a finite run near it may pass the quarter test, so the bound
    // is the capacity rounded up to the grid
    assertThat(c.lmax()).isBetween(0.5, 1.25);
    int firstBad = (int) Math.round(c.lmax() / 0.25); // index of lmax + 0.25
    assertThat(c.points().get(firstBad).sustainable()).isFalse();
    assertThat(c.points().get(firstBad).load()).isEqualTo(c.lmax() + 0.25);
    assertThat(c.points().subList(0, firstBad))
        .allSatisfy(p -> assertThat(p.sustainable()).isTrue());
    // 600 jobs and a 27.8 h warm-up: beyond 0.1 * 600 * 3600 / 100,000 = 2.16 jobs/h no overload
    // can be seen, so the scan stops there whatever the tests say
    assertThat(c.points().get(c.points().size() - 1).load()).isLessThanOrEqualTo(2.16);
    assertThat(c.lmaxOpen()).isFalse();
    assertThat(c.reportLmax()).isLessThanOrEqualTo(Math.min(c.lmax(), c.lmaxBacklog()));
    for (LoadSweep.Point p : c.sustainable()) { // a farm reads tape only: capacity 1.125
      assertThat(p.stats().capacityLoad(10, io.locus.core.split.EventCosts.serial()))
          .isCloseTo(1.125, within(1e-9));
    }
    assertThat(c.nearLmax().load()).isLessThanOrEqualTo(0.95 * c.lmax() + 1e-9);
    assertThat(log.toString()).contains("UNSUSTAINABLE");
  }

  @Test
  void tooFewJobsForTheWarmupIsExplained() {
    LoadSweep.Settings s = new LoadSweep.Settings(10, 100, 1, false, 0.05, 1, 3_333_333L, true,
        false);
    LoadSweep sweep = new LoadSweep(s, POOL, new PrintWriter(new StringWriter()));
    assertThatThrownBy(() -> sweep.runOne(new LoadSweep.Variant("d", "DELAYED",
        Map.of("period", "1w")), 100, 3.0, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("use more jobs");
  }
}
