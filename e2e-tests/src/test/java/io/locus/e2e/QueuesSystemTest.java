package io.locus.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.agent.AgentHost;
import io.locus.cli.EmbeddedLocus;
import io.locus.cli.demo.DemoWorkload;
import io.locus.cli.demo.TaskEventTracker;
import io.locus.connectors.DeliveryMode;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.Topics;
import io.locus.operators.SchedulerConfig;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.codec.DeadLetterCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code locus queues} against the whole system (embedded Kafka, the scheduler job on a
 * MiniCluster with RocksDB, simulated agents), issue 24: a queue file applied is acknowledged with
 * its changes, applied again is unchanged, shown from the scheduler's metrics, and a dry run says
 * what a removal would change; a job naming a queue the pool lacks is dead-lettered
 * {@code unknown-queue}; a job naming a configured queue runs. (The tree across a scheduler {@code kill
 * -9} and restore: chaos.QueuesKillSystemTest, with {@code locus run} as a child process.)
 */
@Tag("integration")
@Timeout(300)
class QueuesSystemTest {
  private static final String POOL = "e2e-queues";
  private static final Duration WAIT = Duration.ofSeconds(120);

  @TempDir Path tmp;

  @Test
  void applyShowDryRunAndJobsInKnownAndUnknownQueues() throws Exception {
    SchedulerConfig cfg = new SchedulerConfig(new SchedulerConfig.PolicySpec("FA", Map.of()),
        Map.of(), 1000, 3).withPools(Set.of(POOL));
    try (EmbeddedLocus locus = EmbeddedLocus.start(cfg, DeliveryMode.AT_LEAST_ONCE,
            Duration.ofSeconds(2));
        TaskEventTracker tracker = new TaskEventTracker(locus.bootstrapServers());
        AgentHost<?> agents = WholeSystem.simulatedAgents(locus.bootstrapServers(), POOL, 1, 2);
        KafkaProducer<byte[], byte[]> producer =
            new KafkaProducer<>(ClientConfigs.producer(locus.bootstrapServers()))) {
      String b = locus.bootstrapServers();
      assertThat(agents.awaitRegistered(Duration.ofSeconds(60))).isTrue();

      Path tree = tmp.resolve("queues.yaml");
      Files.writeString(tree, """
          pool: %s
          queues:
            - name: eng
              weight: 2
              guaranteedSlots: 1
              limitSlots: 2
            - name: ml
              parent: eng
              limitSlots: 2
          """.formatted(POOL));
      WholeSystem.CliRun applied = queues("apply", tree.toString(), "--bootstrap-servers", b);
      assertThat(applied.code()).as(applied.err()).isZero();
      assertThat(applied.out()).contains("pool " + POOL + ": queue tree applied")
          .contains("+ queue 'eng' (parent -, weight 2, guaranteed 1, limit 2)")
          .contains("+ queue 'ml' (parent eng, weight 1, guaranteed 0, limit 2)");

      WholeSystem.CliRun again = queues("apply", tree.toString(), "--bootstrap-servers", b);
      assertThat(again.code()).as(again.err()).isZero();
      assertThat(again.out()).contains("queue tree unchanged");

      // the tree in force, from the scheduler's metrics (one per metrics interval)
      WholeSystem.await(WAIT, "queues show lists the applied tree", () -> {
        WholeSystem.CliRun shown = queues("show", "--pool", POOL, "--bootstrap-servers", b);
        return shown.code() == 0 && shown.out().contains("root.eng.ml: parent eng");
      });

      Path fewer = tmp.resolve("fewer.json");
      Files.writeString(fewer, "{\"queues\": [{\"name\": \"eng\", \"weight\": 2, "
          + "\"guaranteedSlots\": 1, \"limitSlots\": 2}]}");
      WholeSystem.CliRun dry = queues("apply", fewer.toString(), "--pool", POOL, "--dry-run",
          "--bootstrap-servers", b);
      assertThat(dry.code()).as(dry.err()).isZero();
      assertThat(dry.out()).contains("dry run: applying would change:").contains("- queue 'ml'")
          .doesNotContain("'eng'");

      List<JobSubmitted> jobs = DemoWorkload.generate(POOL, DemoWorkload.Spec.demo(2, 2, 3));
      JobSubmitted lost = jobs.get(0);
      lost.setQueue("nope");
      JobSubmitted runs = jobs.get(1);
      runs.setQueue("ml");
      for (JobSubmitted j : jobs) {
        long t = System.currentTimeMillis();
        j.setSubmitTimeMs(t);
        tracker.submitted(j.getJobId(), t);
        producer.send(new ProducerRecord<>(Topics.JOB_ARRIVALS.name(),
            Topics.JOB_ARRIVALS.key(POOL), Topics.JOB_ARRIVALS.value(j))).get();
      }
      DeadLetter dead = deadLetterMentioning(b, "unknown queue 'nope'");
      assertThat(dead).as("the job naming an unknown queue is dead-lettered").isNotNull();
      assertThat(dead.getCode()).isEqualTo(DeadLetterCodes.UNKNOWN_QUEUE);
      assertThat(dead.getReason()).contains("this pool's queues: default, ml");
      WholeSystem.await(WAIT, "the job of queue ml completed",
          () -> tracker.stats(POOL).completed >= 1);
      assertThat(tracker.stats(POOL).completed).as("the refused job never ran").isEqualTo(1);
      locus.checkJobAlive();
    }
  }

  private static WholeSystem.CliRun queues(String... args) {
    String[] all = new String[args.length + 3];
    all[0] = "queues";
    System.arraycopy(args, 0, all, 1, args.length);
    all[args.length + 1] = "--timeout";
    all[args.length + 2] = "PT60S";
    return WholeSystem.cli(all);
  }

  private static DeadLetter deadLetterMentioning(String bootstrap, String text) {
    try (KafkaConsumer<byte[], byte[]> c =
        new KafkaConsumer<>(ClientConfigs.consumer(bootstrap, null, true))) {
      TopicPartition tp = new TopicPartition(Topics.DEAD_LETTERS.name(), 0);
      c.assign(List.of(tp));
      c.seekToBeginning(List.of(tp));
      // null at the deadline, for the caller's assertion to report: a bounded read
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (System.nanoTime() < deadline) {
        for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
          DeadLetter d = Topics.DEAD_LETTERS.decode(r.value());
          if (d.getReason().contains(text)) {
            return d;
          }
        }
      }
    }
    return null;
  }
}
