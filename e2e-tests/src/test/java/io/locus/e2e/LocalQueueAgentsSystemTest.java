package io.locus.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.connectors.DeliveryMode;
import io.locus.cli.EmbeddedLocus;
import io.locus.cli.demo.DemoRun;
import io.locus.cli.demo.DemoWorkload;
import io.locus.cli.demo.TaskEventTracker;
import io.locus.operators.SchedulerConfig;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Tier 3, late binding with real (simulated) agents: agents advertise a local queue, the scheduler
 * places beyond their free slots, the agents start queued attempts as slots free, and withdraws
 * move unstarted attempts to free slots. Arrivals (400/s) outrun the 16 slots, so queues fill.
 */
@Tag("integration")
@Timeout(300)
class LocalQueueAgentsSystemTest {
  @Test
  void queuedPlacementsRunOnceAndNeverBeyondTheSlots() throws Exception {
    Map<String, SchedulerConfig.PolicySpec> pools = new LinkedHashMap<>();
    pools.put("e2e-lq-fa", new SchedulerConfig.PolicySpec("FA", Map.of()));
    pools.put("e2e-lq-mch", new SchedulerConfig.PolicySpec("MCH", Map.of()));
    SchedulerConfig cfg = new SchedulerConfig(pools.get("e2e-lq-fa"), pools, 500, 3);
    try (EmbeddedLocus locus = EmbeddedLocus.start(cfg, DeliveryMode.AT_LEAST_ONCE,
            Duration.ofSeconds(2));
        TaskEventTracker tracker = new TaskEventTracker(locus.bootstrapServers())) {
      for (String pool : pools.keySet()) {
        DemoRun.Config run = new DemoRun.Config(pool, 8, 2, 1_000_000_000L,
            DemoWorkload.Spec.demo(1_500, 150, 7), 400, 0.01, 50e6, 100e6, 400e6, true,
            Duration.ofSeconds(150), null, 2);
        DemoRun.Result r = WholeSystem.go(locus, tracker, run);
        TaskEventTracker.Stats s = r.stats();
        assertThat(s.completed).as(pool).isEqualTo(1_500);
        assertThat(s.duplicateCompletions).as(pool).isZero();
        assertThat(s.failed).as(pool).isZero();
        assertThat(s.refused).as("%s refusals: %s", pool, s.refusals).isZero();
        // queued attempts start only as slots free: never more than 2 running on a node
        assertThat(s.maxConcurrentOnANode).as(pool).isBetween(1, 2);
        // and the scheduler did place beyond the free slots
        assertThat(tracker.maxLocallyQueued(pool)).as(pool).isPositive();
      }
    }
  }
}
