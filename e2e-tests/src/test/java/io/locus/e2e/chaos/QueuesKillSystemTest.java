package io.locus.e2e.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.cli.LocusCli;
import io.locus.cli.chaos.ChildJvm;
import io.locus.cli.chaos.Cluster;
import io.locus.cli.chaos.DeliveryChecker;
import io.locus.cli.demo.DemoWorkload;
import io.locus.connectors.DeliveryMode;
import io.locus.jobs.RestorePoint;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.Topics;
import io.locus.kafka.testkit.EmbeddedKafka;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.codec.DeadLetterCodes;
import io.locus.testkit.Await;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
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
 * Issue 24's "a queue configuration changed at run time and kept across a scheduler {@code kill
 * -9} and restore": {@code locus run} as a child process (exactly-once, so the acknowledgement of
 * a queue change is visible only once the checkpoint holding it commits) gets one queue tree and
 * then a changed one through {@code locus queues apply}; once a checkpoint written after the
 * second acknowledgement is retained, the process is killed with {@code kill -9} and started again
 * with the same command. From the restored keyed state, and nothing else (the control topic is
 * not re-read: its offset is in the checkpoint): applying the second file again is "unchanged",
 * {@code locus queues show} lists the queue only the second file has, a job of that queue runs,
 * and a job naming a queue of neither file is dead-lettered {@code unknown-queue} with the
 * restored tree's leaves in its reason.
 */
@Tag("integration")
@Timeout(300)
class QueuesKillSystemTest {
  private static final String POOL = "queues-kill9";

  @Test
  void aQueueTreeChangedAtRunTimeSurvivesKillNineAndRestore(@TempDir Path dir) throws Exception {
    Path state = dir.resolve("state");
    Path first = dir.resolve("first.yaml");
    Files.writeString(first, """
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
    Path second = dir.resolve("second.yaml");
    Files.writeString(second, """
        pool: %s
        queues:
          - name: eng
            weight: 3
            guaranteedSlots: 1
            limitSlots: 2
          - name: ml
            parent: eng
            limitSlots: 2
          - name: ops
            guaranteedSlots: 1
        """.formatted(POOL));
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"), Map.of())) {
      String b = kafka.bootstrapServers();
      TopicAdmin.ensureTopics(b, Topics.ALL);
      List<String> run = Cluster.runArgs(b, state, DeliveryMode.EXACTLY_ONCE, 1, 0);
      try (ChildJvm scheduler = Cluster.scheduler(run);
          ChildJvm agents = Cluster.agents(b, POOL, List.of(POOL + "-n0", POOL + "-n1"),
              dir.resolve("agents"));
          DeliveryChecker checker = new DeliveryChecker(b, true)) {
        scheduler.awaitLine("running", Duration.ofSeconds(90));
        agents.awaitLine("registered", Duration.ofSeconds(90));

        CliRun one = cli("queues", "apply", first.toString(), "--bootstrap-servers", b,
            "--timeout", "PT60S");
        assertThat(one.code()).as(one.err() + "\nscheduler:\n" + scheduler.tailText()).isZero();
        assertThat(one.out()).contains("+ queue 'ml' (parent eng");
        CliRun two = cli("queues", "apply", second.toString(), "--bootstrap-servers", b,
            "--timeout", "PT60S");
        assertThat(two.code()).as(two.err()).isZero();
        assertThat(two.out()).as("the change at run time is acknowledged with its diff")
            .contains("+ queue 'ops'").contains("'eng'").doesNotContain("'ml'");
        Instant acked = Instant.now();

        // a checkpoint completed after the acknowledgement holds the changed tree
        Await.atMost(Duration.ofSeconds(60)).pollEvery(Duration.ofMillis(100)).until(
            () -> "a checkpoint retained after " + acked + "; scheduler:\n"
                + scheduler.tailText(),
            () -> RestorePoint.latest(state.resolve("checkpoints"), null).writtenAt()
                .map(t -> t.isAfter(acked)).orElse(false));
        scheduler.kill();
        scheduler.restart();
        assertThat(scheduler.awaitLine("locus run: starting from", Duration.ofSeconds(90)))
            .contains("latest retained checkpoint");
        scheduler.awaitLine("running", Duration.ofSeconds(90));

        CliRun again = cli("queues", "apply", second.toString(), "--bootstrap-servers", b,
            "--timeout", "PT60S");
        assertThat(again.code()).as(again.err() + "\nscheduler:\n" + scheduler.tailText())
            .isZero();
        assertThat(again.out()).as("the restored state already holds the changed tree")
            .contains("queue tree unchanged");
        Await.atMost(Duration.ofSeconds(60)).pollEvery(Duration.ofMillis(200)).until(
            () -> "queues show lists ops after the restore", () -> {
              CliRun shown = cli("queues", "show", "--pool", POOL, "--bootstrap-servers", b,
                  "--timeout", "PT30S");
              return shown.code() == 0 && shown.out().contains("ops");
            });

        List<JobSubmitted> jobs = DemoWorkload.generate(POOL, DemoWorkload.Spec.demo(4, 3, 5));
        jobs.get(0).setQueue("gone");
        List<String> runs = new ArrayList<>();
        for (int i = 1; i < jobs.size(); i++) {
          jobs.get(i).setQueue(i % 2 == 0 ? "ops" : "ml");
          runs.add(jobs.get(i).getJobId());
        }
        try (KafkaProducer<byte[], byte[]> producer =
            new KafkaProducer<>(ClientConfigs.producer(b))) {
          for (JobSubmitted j : jobs) {
            j.setSubmitTimeMs(System.currentTimeMillis());
            producer.send(new ProducerRecord<>(Topics.JOB_ARRIVALS.name(),
                Topics.JOB_ARRIVALS.key(POOL), Topics.JOB_ARRIVALS.value(j)))
                .get(30, TimeUnit.SECONDS);
          }
        }
        DeliveryChecker.Verdict v = checker.awaitCompletion(POOL, runs, Duration.ofSeconds(120));
        assertThat(v.keeps(DeliveryMode.EXACTLY_ONCE)).as(v.summary()).isTrue();
        DeadLetter dead = deadLetterMentioning(b, "unknown queue 'gone'");
        assertThat(dead.getCode()).isEqualTo(DeadLetterCodes.UNKNOWN_QUEUE);
        assertThat(dead.getReason()).as("the restored tree's leaves")
            .contains("this pool's queues: default, ml, ops");
        assertThat(scheduler.isAlive()).isTrue();
      }
    }
  }

  private record CliRun(int code, String out, String err) {}

  private static CliRun cli(String... args) {
    var cl = LocusCli.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int code = cl.execute(args);
    return new CliRun(code, out.toString(), err.toString());
  }

  /** The first dead letter whose reason contains {@code text}, read committed; waits for it. */
  private static DeadLetter deadLetterMentioning(String bootstrap, String text) {
    AtomicReference<DeadLetter> found = new AtomicReference<>();
    try (KafkaConsumer<byte[], byte[]> c =
        new KafkaConsumer<>(ClientConfigs.consumer(bootstrap, null, true))) {
      TopicPartition tp = new TopicPartition(Topics.DEAD_LETTERS.name(), 0);
      c.assign(List.of(tp));
      c.seekToBeginning(List.of(tp));
      Await.atMost(Duration.ofSeconds(60)).pollEvery(Duration.ofMillis(10)).until(
          () -> "a dead letter mentioning " + text, () -> {
            for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
              DeadLetter d = Topics.DEAD_LETTERS.decode(r.value());
              if (d.getReason().contains(text)) {
                found.set(d);
              }
            }
            return found.get() != null;
          });
    }
    return found.get();
  }
}
