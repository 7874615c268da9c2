package io.locus.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.connectors.DeliveryMode;
import io.locus.cli.demo.DemoRun;
import io.locus.cli.demo.DemoWorkload;
import io.locus.cli.demo.TaskEventTracker;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.Topics;
import io.locus.operators.SchedulerConfig;
import io.locus.testkit.Await;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The metrics test of issue 14: the embedded run (broker, scheduler job on a MiniCluster with
 * RocksDB) with Flink's Prometheus reporter on a free port, simulated agents and a small workload.
 * Its endpoint is scraped over HTTP before, while and after the workload: the scheduler's series
 * exist under the names docs/operations.md lists, and move with the work; a malformed record on
 * job-arrivals raises the dead-letter series of its reason.
 */
@Tag("integration")
@Timeout(150)
class MetricsScrapeTest {
  static final String OP = "flink_taskmanager_job_task_operator_locus_";
  static final String POOL_SERIES = OP + "pool_";
  static final String DEAD_LETTERS = OP + "deadLetters_reason_count";
  private static final String POOL = "metrics-mch";
  private static final String LABEL = "metrics_mch";
  private static final int TASKS = 150;

  private static String pool(String name) {
    return POOL_SERIES + name;
  }

  @Test
  void theSchedulerSeriesExistAndMoveWhileAWorkloadRuns() throws Exception {
    int port = EmbeddedLocus.freePort(0, 0);
    SchedulerConfig.PolicySpec mch = new SchedulerConfig.PolicySpec("MCH", Map.of());
    SchedulerConfig cfg = new SchedulerConfig(mch, Map.of(POOL, mch), 250, 3);
    // Flink's reporter writes label values with '_' for characters such as '-'
    Map<String, String> inPool = Map.of("pool", LABEL);
    try (EmbeddedLocus locus = EmbeddedLocus.start(cfg, DeliveryMode.AT_LEAST_ONCE,
            Duration.ofSeconds(5), "rocksdb", 1, 4, port);
        TaskEventTracker tracker = new TaskEventTracker(locus.bootstrapServers())) {
      String url = locus.metricsUrl();
      assertThat(url).isEqualTo("http://localhost:" + port + "/metrics");

      // Before: the job's operators are up (every dead-letter reason shows, at 0); no pool yet.
      PrometheusText before = await(url, "the dead-letter series of both operators",
          s -> s.find(DEAD_LETTERS, Map.of("reason", "corrupt")).size() == 2, locus);
      assertThat(before.sum(DEAD_LETTERS, Map.of("reason", "corrupt"))).isZero();
      assertThat(before.has(DEAD_LETTERS, Map.of("reason", "unknown_pool")))
          .as("every reason, from the start, '-' written '_'\n%s", before.linesWith("deadLetters"))
          .isTrue();
      assertThat(before.has(pool("placements"), inPool)).isFalse();

      // A malformed record on job-arrivals: parse-validate counts it under its reason.
      try (KafkaProducer<byte[], byte[]> p =
          new KafkaProducer<>(ClientConfigs.producer(locus.bootstrapServers()))) {
        p.send(new ProducerRecord<>(Topics.JOB_ARRIVALS.name(), Topics.JOB_ARRIVALS.key(POOL),
            new byte[] {7, 7, 7})).get();
      }
      PrometheusText dead = await(url, "corrupt dead letter counted",
          s -> s.sum(DEAD_LETTERS, Map.of("reason", "corrupt")) >= 1, locus);
      assertThat(dead.sum(DEAD_LETTERS, Map.of("reason", "corrupt",
          "operator_name", "parse_validate"))).isEqualTo(1);

      // While: 3 one-slot nodes, 150 tasks arriving at 150/s: a queue builds, then drains.
      DemoRun.Config rc = new DemoRun.Config(POOL, 3, 1, 2_000_000_000L,
          DemoWorkload.Spec.demo(TASKS, 30, 7), 150, 0.002, 50e6, 100e6, 400e6, true,
          Duration.ofSeconds(90));
      ExecutorService run = Executors.newSingleThreadExecutor();
      double maxQueue = 0;
      double maxRegistered = 0;
      double lastPlacements = 0;
      double maxDefaultRunning = 0;
      int scrapesMidway = 0;
      try {
        Future<DemoRun.Result> result = run.submit(() -> DemoRun.run(locus, tracker, rc,
            new PrintStream(OutputStream.nullOutputStream())));
        while (!result.isDone()) {
          PrometheusText s = PrometheusText.scrape(url);
          double placements = s.sum(pool("placements"), inPool);
          assertThat(placements).as("a counter never goes down").isGreaterThanOrEqualTo(
              lastPlacements);
          if (placements > 0 && placements < TASKS) {
            scrapesMidway++;
          }
          lastPlacements = placements;
          maxQueue = Math.max(maxQueue, s.sum(pool("queueLength"), inPool));
          maxRegistered = Math.max(maxRegistered, s.sum(pool("registeredNodes"), inPool));
          maxDefaultRunning = Math.max(maxDefaultRunning, s.sum(pool("queue_running"),
              Map.of("pool", LABEL, "queue", "default")));
          try {
            result.get(200, TimeUnit.MILLISECONDS); // the next scrape in 200 ms, or the end
          } catch (java.util.concurrent.TimeoutException stillRunning) {
            // scrape again
          }
        }
        assertThat(result.get().allCompleted()).as("every task completed").isTrue();
      } finally {
        run.shutdownNow();
      }
      assertThat(maxQueue).as("queueLength seen above 0 while tasks waited").isPositive();
      assertThat(scrapesMidway).as("placements seen between 0 and %d", TASKS).isPositive();
      assertThat(maxRegistered).as("registeredNodes seen at the 3 agents during the run")
          .isEqualTo(3);

      // After: every task placed once, the queue empty, each placement's latency observed. The
      // queue gauge was seen above 0, so reading 0 now means it was refreshed after the drain
      // (not its initial 0). The run's agents stop at its end and LEAVE, so registeredNodes goes
      // back to 0: a CI run waited for it to read 3 after the run and lost that race.
      PrometheusText after = await(url, "the queue and running gauges back at 0 after the run",
          s -> s.sum(pool("placements"), inPool) >= TASKS
              && s.has(pool("queueLength"), inPool)
              && s.sum(pool("queueLength"), inPool) == 0
              && s.sum(pool("runningTasks"), inPool) == 0, locus);
      double placements = after.sum(pool("placements"), inPool);
      assertThat(placements).isEqualTo(TASKS);
      assertThat(after.sum(pool("completions"), inPool)).isEqualTo(TASKS);
      assertThat(after.sum(pool("decisionLatencyMs_count"), inPool)).isEqualTo(placements);
      assertThat(after.find(pool("decisionLatencyMs"), Map.of("pool", LABEL, "quantile", "0.99")))
          .as("latency quantiles\n%s", after.linesWith("decisionLatencyMs")).hasSize(1);
      double local = after.sum(pool("bytesLocal"), inPool);
      double peer = after.sum(pool("bytesPeer"), inPool);
      double storage = after.sum(pool("bytesStorage"), inPool);
      assertThat(storage).as("first reads come from storage").isPositive();
      assertThat(local + peer).as("shared files are read again from a cache").isPositive();
      assertThat(after.sum(pool("bytesToMove"), inPool)).isEqualTo(peer + storage);
      assertThat(after.sum(pool("hitRatioLocal"), inPool)
          + after.sum(pool("hitRatioPeer"), inPool) + after.sum(pool("hitRatioStorage"), inPool))
          .isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-6));
      for (String series : List.of("placementsPerSecond", "runningTasks", "drainingNodes",
          "lostNodes", "failures", "paused")) {
        assertThat(after.has(pool(series), inPool)).as(series + "\n%s",
            after.linesWith("locus_pool_")).isTrue();
      }
      // a meter's rate is recomputed every 5 s by Flink's view updater
      await(url, "a placement rate above 0",
          s -> s.sum(pool("placementsPerSecond"), inPool) > 0, locus);
      assertThat(after.sum(pool("paused"), inPool)).isZero();
      // issue 23: one pendingTasks gauge per pending code, all back at 0 with the queue
      for (String reason : List.of("paused", "no_node", "locality_wait", "priority",
          "no_free_slot")) {
        assertThat(after.has(pool("reason_pendingTasks"), Map.of("pool", LABEL, "reason",
            reason))).as(reason + "\n%s", after.linesWith("pendingTasks")).isTrue();
      }
      assertThat(after.sum(pool("reason_pendingTasks"), inPool)).isZero();
      // issue 24: a pool with no queue tree reports its default queue, standing for the pool:
      // seen running during the run, back at 0 with the pool after it
      assertThat(maxDefaultRunning).as("queue_running{queue=default} during the run").isPositive();
      for (String series : List.of("queue_running", "queue_pending", "queue_guarantee",
          "queue_fairShare", "queue_borrowed", "queue_share", "queue_preempted")) {
        assertThat(after.has(pool(series), Map.of("pool", LABEL, "queue", "default")))
            .as(series + "\n%s", after.linesWith("locus_pool_queue_")).isTrue();
      }
      assertThat(after.sum(pool("queue_running"), inPool)).isZero();
      await(url, "registeredNodes at 0 once the run's agents left",
          s -> s.sum(pool("registeredNodes"), inPool) == 0
              && s.sum(pool("lostNodes"), inPool) == 0, locus);
    }
  }

  interface Condition {
    boolean holds(PrometheusText s);
  }

  /** Scrapes until {@code c} holds (the endpoint may not answer yet), for at most 60 s. */
  static PrometheusText await(String url, String what, Condition c, EmbeddedLocus locus)
      throws InterruptedException {
    AtomicReference<PrometheusText> last = new AtomicReference<>();
    return Await.atMost(Duration.ofSeconds(60)).pollEvery(Duration.ofMillis(100))
        .ignoring(IOException.class) // the endpoint may not answer yet
        .until(() -> "no " + what + " at " + url + (last.get() == null ? ""
            : "; its locus series:\n" + last.get().linesWith("_locus_")), () -> {
              locus.checkJobAlive();
              last.set(PrometheusText.scrape(url));
              return last.get();
            }, c::holds);
  }
}
