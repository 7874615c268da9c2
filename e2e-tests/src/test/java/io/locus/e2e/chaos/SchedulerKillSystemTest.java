package io.locus.e2e.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.cli.chaos.ChildJvm;
import io.locus.cli.chaos.Cluster;
import io.locus.cli.chaos.DeliveryChecker;
import io.locus.cli.chaos.JobFeed;
import io.locus.connectors.DeliveryMode;
import io.locus.jobs.RestorePoint;
import io.locus.kafka.testkit.EmbeddedKafka;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.Topics;
import io.locus.testkit.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 12's "done when": {@code locus run} as a child process is killed with {@code kill -9} in
 * the middle of a workload and started again with the same command; it restores the latest
 * retained checkpoint and every task completes effectively once (checked on the topics). In
 * exactly-once no task runs twice either; in at-least-once the decisions made after the checkpoint
 * are made again and a replayed placement may go to another node, so a task can run twice: the
 * scheduler accepts the first completion, dead-letters the second and cancels the other run
 * (measured and printed: "executed twice", "dead-lettered completions", "cancels").
 */
@Tag("integration")
@Timeout(300)
class SchedulerKillSystemTest {

  @ParameterizedTest
  @EnumSource(DeliveryMode.class)
  void killNineMidWorkloadThenTheSameCommandCompletesEveryTaskExactlyOnce(DeliveryMode mode,
      @TempDir Path dir) throws Exception {
    String pool = "kill9-" + mode.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    Path state = dir.resolve("state");
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"), Map.of())) {
      String bootstrap = kafka.bootstrapServers();
      TopicAdmin.ensureTopics(bootstrap, Topics.ALL);
      List<String> run = Cluster.runArgs(bootstrap, state, mode, 1, 0);
      try (ChildJvm scheduler = Cluster.scheduler(run);
          ChildJvm agents = Cluster.agents(bootstrap, pool, List.of(pool + "-n0", pool + "-n1",
              pool + "-n2", pool + "-n3", pool + "-n4", pool + "-n5"), dir.resolve("agents"));
          DeliveryChecker checker = new DeliveryChecker(bootstrap, mode == DeliveryMode.EXACTLY_ONCE)) {
        assertThat(scheduler.awaitLine("locus run: starting from", Duration.ofSeconds(90)))
            .contains("empty state");
        scheduler.awaitLine("running", Duration.ofSeconds(90));
        agents.awaitLine("registered", Duration.ofSeconds(90));
        try (JobFeed feed = new JobFeed(bootstrap, pool, 200, 17, 20)) {
          Await.atMost(Duration.ofSeconds(120)).pollEvery(Duration.ofMillis(100)).until(
              () -> "50 completions and a retained checkpoint; scheduler:\n"
                  + scheduler.tailText(), () -> {
                checker.catchUp(Duration.ofSeconds(2));
                return checker.verdict(pool, feed.taskIds()).completed() >= 50
                    && !RestorePoint.latest(state.resolve("checkpoints"), null).isFresh();
              });
          scheduler.kill();
          int publishedAtKill = feed.published();
          scheduler.restart();
          assertThat(scheduler.awaitLine("locus run: starting from", Duration.ofSeconds(90)))
              .contains("latest retained checkpoint");
          DeliveryChecker.Verdict v =
              checker.awaitCompletion(pool, feed.taskIds(), Duration.ofSeconds(120));
          System.out.println("scheduler kill -9 (" + mode + ", killed at " + publishedAtKill
              + " published): " + v.summary());
          assertThat(v.keeps(mode)).as(v.summary() + "\nscheduler:\n" + scheduler.tailText())
              .isTrue();
        }
      }
    }
  }
}
