package io.locus.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.connectors.DeliveryMode;
import io.locus.cli.EmbeddedLocus;
import io.locus.cli.demo.SplitDemoRun;
import io.locus.cli.demo.SplitDemoWorkload;
import io.locus.cli.demo.TaskEventTracker;
import io.locus.operators.SchedulerConfig;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code locus demo --policy OUT_OF_ORDER}'s run, in-process and small: a real broker, the
 * scheduler job on a MiniCluster with RocksDB, four one-slot simulated agents, and 16 of the
 * demo's scaled CERN event-range jobs. Every job completes, every event of every job is processed
 * exactly once (from the ranges the agents reported), and every job had a subjob placed.
 */
@Tag("integration")
@Timeout(120)
class SplitDemoSystemTest {
  private static final String POOL = "e2e-demo-ooo";
  private static final double TIME_SCALE = 0.005; // c_miss 0.8 s -> 4 ms of wall time per event
  private static final int NODES = 4;
  private static final int JOBS = 16;

  @Test
  void theSplitDemoProcessesEveryEventOfEveryJobExactlyOnce() throws Exception {
    SchedulerConfig cfg = new SchedulerConfig(new SchedulerConfig.PolicySpec("MCH", Map.of()),
        Map.of(POOL, new SchedulerConfig.PolicySpec("OUT_OF_ORDER",
            SplitDemoRun.defaultParams("OUT_OF_ORDER", TIME_SCALE))), 250, 3);
    SplitDemoWorkload.Spec workload = new SplitDemoWorkload.Spec(JOBS, 42, SplitDemoRun.SCALE,
        4, SplitDemoRun.DATASET);
    long expected = SplitDemoWorkload.events(SplitDemoWorkload.generate(POOL, workload));
    try (EmbeddedLocus locus = EmbeddedLocus.start(cfg, DeliveryMode.AT_LEAST_ONCE,
            Duration.ofSeconds(2));
        TaskEventTracker tracker = new TaskEventTracker(locus.bootstrapServers())) {
      SplitDemoRun.Result r = SplitDemoRun.run(locus, tracker, new SplitDemoRun.Config(POOL,
          NODES, workload, TIME_SCALE, false, Duration.ofSeconds(60)), WholeSystem.LOUD);
      var c = r.check();
      var n = r.counts();
      WholeSystem.LOUD.printf("%s: %d/%d jobs, %d/%d events, exactly once %s, %d subjobs, "
              + "%d shrinks, %d suspends, hit ratio %.3f, mean response %.2f s, wall %.1f s%n",
          POOL, c.completedJobs(), c.jobs(), c.processedEvents(), c.expectedEvents(),
          c.exactlyOnce(), n.placements(), n.shrinks(), n.suspends(), n.hitRatio(),
          c.meanResponseSeconds(), r.wallSeconds());

      assertThat(r.policy()).isEqualTo("OUT_OF_ORDER");
      assertThat(c.problems()).isEmpty();
      assertThat(c.completedJobs()).isEqualTo(JOBS);
      assertThat(c.expectedEvents()).isEqualTo(expected);
      assertThat(c.processedEvents()).isEqualTo(expected);
      assertThat(c.exactlyOnce()).isTrue();
      assertThat(r.failed()).isZero();
      assertThat(r.refused()).isZero();
      assertThat(r.ok()).isTrue();
      assertThat(r.settled()).as("the scheduler reported the pool idle").isTrue();
      assertThat(c.placementsPerJob()).hasSize(JOBS).allSatisfy((job, placed) ->
          assertThat(placed).as("subjobs placed for %s", job).isPositive());
      assertThat(n.placements()).isGreaterThanOrEqualTo(JOBS);
      // every processed event's source is known from its placement, and they add up
      assertThat(n.unplacedEvents()).isZero();
      assertThat(n.localEvents() + n.peerEvents() + n.storageEvents()).isEqualTo(expected);
      assertThat(c.meanResponseSeconds()).isPositive();
    }
  }
}
