package io.locus.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.connectors.DeliveryMode;
import io.locus.cli.EmbeddedLocus;
import io.locus.cli.demo.DemoRun;
import io.locus.cli.demo.TaskEventTracker;
import io.locus.operators.SchedulerConfig;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Tier 3, at-least-once delivery: a real KRaft broker, the scheduler job on a MiniCluster with
 * RocksDB and checkpoints, simulated agents talking to both only through Kafka.
 */
@Tag("integration")
@Timeout(300)
class AtLeastOnceSystemTest {
  private static EmbeddedLocus locus;
  private static TaskEventTracker tracker;

  @BeforeAll
  static void start() {
    SchedulerConfig cfg = new SchedulerConfig(new SchedulerConfig.PolicySpec("MCH", Map.of()),
        Map.of("e2e-fa", new SchedulerConfig.PolicySpec("FA", Map.of()),
            "e2e-fca", new SchedulerConfig.PolicySpec("FCA", Map.of()),
            "e2e-mch", new SchedulerConfig.PolicySpec("MCH", Map.of()),
            "e2e-mct", new SchedulerConfig.PolicySpec("MCT", Map.of()),
            "e2e-jdpdll", new SchedulerConfig.PolicySpec("JDPDLL", Map.of()),
            "e2e-online_hps", new SchedulerConfig.PolicySpec("ONLINE_HPS", Map.of()),
            "e2e-real", new SchedulerConfig.PolicySpec("MCH", Map.of())),
        500, 3);
    locus = EmbeddedLocus.start(cfg, DeliveryMode.AT_LEAST_ONCE, Duration.ofSeconds(2));
    tracker = new TaskEventTracker(locus.bootstrapServers());
  }

  @AfterAll
  static void stop() {
    if (tracker != null) {
      tracker.close();
    }
    if (locus != null) {
      locus.close();
    }
  }

  @Test
  void twoThousandTasksCompleteExactlyOnceWithinSlots() throws Exception {
    DemoRun.Result r = WholeSystem.go(locus, tracker,
        WholeSystem.run("e2e-complete", 2000, 200, 12, 7, false));
    TaskEventTracker.Stats s = r.stats();
    assertThat(s.completed).isEqualTo(2000);
    assertThat(s.duplicateCompletions).isZero();
    assertThat(s.failed).isZero();
    assertThat(s.refused).as("refusals: %s", s.refusals).isZero();
    assertThat(s.maxConcurrentOnANode).isBetween(1, 2); // 2 slots per node
    assertThat(s.maxConcurrent).hasSize(12); // every node got work
    assertThat(tracker.latestMetrics("e2e-complete")).isNotNull();
  }

  @Test
  void maxCacheHitReadsMoreLocallyThanDataUnawarePlacement() throws Exception {
    double fa = WholeSystem.go(locus, tracker, WholeSystem.run("e2e-fa", 800, 150, 8, 11, false))
        .stats().hitRatio();
    double fca = WholeSystem.go(locus, tracker, WholeSystem.run("e2e-fca", 800, 150, 8, 11, false))
        .stats().hitRatio();
    double mch = WholeSystem.go(locus, tracker, WholeSystem.run("e2e-mch", 800, 150, 8, 11, false))
        .stats().hitRatio();
    assertThat(fa).isZero(); // FA never caches (data-diffusion spec D30)
    assertThat(mch).isGreaterThan(fa);
    assertThat(mch).isGreaterThan(fca);
  }

  /**
   * The Khanna-family policies run in the streaming job too: scheduler-managed caches with
   * EvictFiles / ReplicateFile decisions that the agents apply, one-slot nodes as in the paper.
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"mct", "jdpdll", "online_hps"})
  void khannaPoliciesCompleteEveryTaskThroughKafka(String policy) throws Exception {
    DemoRun.Config base = WholeSystem.run("e2e-" + policy, 300, 60, 4, 13, false);
    DemoRun.Result r = WholeSystem.go(locus, tracker, base.withSlots(1));
    TaskEventTracker.Stats s = r.stats();
    assertThat(s.completed).isEqualTo(300);
    assertThat(s.duplicateCompletions).isZero();
    assertThat(s.refused).as("refusals: %s", s.refusals).isZero();
    assertThat(s.maxConcurrentOnANode).isEqualTo(1);
    assertThat(r.policy()).isEqualTo(policy.toUpperCase(java.util.Locale.ROOT));
  }

  /**
   * Real agents through the whole system: real files staged from a storage directory and from
   * peers over HTTP, real cache directories within quota, and a real process per task.
   */
  @Test
  void realAgentsStageRealFilesAndRunRealProcesses(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    io.locus.cli.demo.DemoWorkload.Spec spec =
        io.locus.cli.demo.DemoWorkload.Spec.real(240, 50, 21);
    java.nio.file.Path storage = dir.resolve("storage");
    io.locus.cli.demo.DemoWorkload.writeStorage(storage, spec);
    // a pool of its own: job ids and the tracker's counts are per pool
    DemoRun.Config cfg = new DemoRun.Config("e2e-real", 4, 2, 5_000_000L, spec, 100, 0.01, 50e6,
        100e6, 400e6, false, java.time.Duration.ofSeconds(150), storage);
    DemoRun.Result r = WholeSystem.go(locus, tracker, cfg);
    TaskEventTracker.Stats s = r.stats();
    assertThat(s.completed).isEqualTo(240);
    assertThat(s.failed).isZero();
    assertThat(s.refused).as("refusals: %s", s.refusals).isZero();
    assertThat(s.maxConcurrentOnANode).isBetween(1, 2);
    assertThat(s.bytesStorage).isPositive();
    assertThat(s.bytesLocal).as("MCH reuses what real caches hold").isPositive();
    // every node's cache directory stayed within its 5 MB quota
    try (var files = java.nio.file.Files.walk(dir.resolve("e2e-real-nodes"))) {
      java.util.Map<java.nio.file.Path, Long> perCache = new java.util.HashMap<>();
      files.filter(f -> f.getParent() != null && f.getParent().getFileName().toString().equals("cache"))
          .filter(java.nio.file.Files::isRegularFile)
          .forEach(f -> perCache.merge(f.getParent(), f.toFile().length(), Long::sum));
      assertThat(perCache).isNotEmpty();
      assertThat(perCache.values()).allSatisfy(b -> assertThat(b).isLessThanOrEqualTo(5_000_000L));
    }
  }
}
