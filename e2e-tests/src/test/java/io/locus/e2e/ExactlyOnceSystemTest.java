package io.locus.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.connectors.DeliveryMode;
import io.locus.cli.EmbeddedLocus;
import io.locus.cli.demo.DemoRun;
import io.locus.cli.demo.TaskEventTracker;
import io.locus.operators.SchedulerConfig;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Tier 3, exactly-once delivery: decisions become visible to agents only when checkpoints commit. */
@Tag("integration")
@Timeout(300)
class ExactlyOnceSystemTest {
  @Test
  void twoThousandTasksCompleteExactlyOnceThroughTransactions() throws Exception {
    try (EmbeddedLocus locus = EmbeddedLocus.start(SchedulerConfig.defaults("MCH"),
            DeliveryMode.EXACTLY_ONCE, Duration.ofMillis(300));
        TaskEventTracker tracker = new TaskEventTracker(locus.bootstrapServers())) {
      DemoRun.Result r = WholeSystem.go(locus, tracker,
          WholeSystem.run("e2e-eos", 2000, 200, 12, 3, true));
      TaskEventTracker.Stats s = r.stats();
      assertThat(s.completed).isEqualTo(2000);
      assertThat(s.duplicateCompletions).isZero();
      assertThat(s.refused).as("refusals: %s", s.refusals).isZero();
      assertThat(s.maxConcurrentOnANode).isBetween(1, 2);
    }
  }
}
