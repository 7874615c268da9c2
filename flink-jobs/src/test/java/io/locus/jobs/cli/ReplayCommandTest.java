package io.locus.jobs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.kafka.ClientConfigs;
import io.locus.kafka.EmbeddedKafka;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.Topics;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.workloads.TraceReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

@Timeout(120)
class ReplayCommandTest {
  private static EmbeddedKafka kafka;

  @BeforeAll
  static void start() {
    kafka = EmbeddedKafka.start();
    TopicAdmin.ensureTopics(kafka.bootstrapServers(), Topics.ALL);
  }

  @AfterAll
  static void stop() {
    kafka.close();
  }

  private static int run(String... args) {
    CommandLine cl = LocusCli.commandLine();
    cl.setOut(new PrintWriter(new StringWriter()));
    return cl.execute(args);
  }

  private static KafkaConsumer<byte[], byte[]> arrivals() {
    KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(
        ClientConfigs.consumer(kafka.bootstrapServers(), null, false));
    List<TopicPartition> parts = new ArrayList<>();
    for (int p = 0; p < Topics.JOB_ARRIVALS.partitions(); p++) {
      parts.add(new TopicPartition(Topics.JOB_ARRIVALS.name(), p));
    }
    c.assign(parts);
    c.seekToEnd(parts);
    parts.forEach(c::position); // fix the start before anything is published
    return c;
  }

  @Test
  void aWrittenTraceIsPublishedJobForJob(@TempDir Path dir) throws Exception {
    Path trace = dir.resolve("khanna.jsonl.gz");
    assertThat(run("trace", "--workload", "khanna", "--workload-param", "n=200", "--seed", "3",
        "-o", trace.toString())).isZero();
    assertThat(Files.size(trace)).isPositive();
    List<String> expected = new ArrayList<>();
    TraceReader.workload(trace).forEach(j -> expected.add(j.jobId()));

    try (KafkaConsumer<byte[], byte[]> c = arrivals()) {
      assertThat(run("replay", "--trace", trace.toString(), "--bootstrap-servers",
          kafka.bootstrapServers(), "--pool", "replay-a", "--speedup", "0")).isZero();
      List<JobSubmitted> got = new ArrayList<>();
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (got.size() < expected.size() && System.nanoTime() < deadline) {
        for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
          got.add(Topics.JOB_ARRIVALS.decode(r.value()));
        }
      }
      assertThat(got).extracting(JobSubmitted::getJobId).containsExactlyElementsOf(expected);
      assertThat(got).allSatisfy(j -> {
        assertThat(j.getPool()).isEqualTo("replay-a");
        assertThat(j.getInputs()).isNotEmpty();
        assertThat(j.getInputs().get(0).getLocation()).startsWith("sn-");
      });
    }
  }

  /** STAGES18: a stage is published only after every job of the previous one completed. */
  @Test
  void stagedTracesWaitForTheirBarrier() throws Exception {
    try (KafkaConsumer<byte[], byte[]> c = arrivals();
        KafkaProducer<byte[], byte[]> events =
            new KafkaProducer<>(ClientConfigs.producer(kafka.bootstrapServers()))) {
      CompletableFuture<Integer> replay = CompletableFuture.supplyAsync(() -> run("replay",
          "--workload", "stages18", "--bootstrap-servers", kafka.bootstrapServers(), "--pool",
          "replay-s", "--speedup", "0"));
      // Stage 1 has one task: nothing else may arrive until it completes.
      List<JobSubmitted> seen = new ArrayList<>();
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      int completedUpTo = 0;
      while (seen.size() < 1000 && System.nanoTime() < deadline) {
        for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(100))) {
          seen.add(Topics.JOB_ARRIVALS.decode(r.value()));
        }
        if (seen.size() == 1 && completedUpTo == 0) {
          // the barrier holds while the first stage's task is not complete
          assertThat(c.poll(Duration.ofMillis(500)).count()).isZero();
        }
        // act as scheduler and agents: complete everything published so far
        for (; completedUpTo < seen.size(); completedUpTo++) {
          JobSubmitted j = seen.get(completedUpTo);
          events.send(new ProducerRecord<>(Topics.TASK_EVENTS.name(),
              Topics.TASK_EVENTS.key("replay-s"), Topics.TASK_EVENTS.value(TaskEvent.newBuilder()
                  .setPool("replay-s").setTaskId(j.getJobId()).setJobId(j.getJobId())
                  .setAttempt(0).setNode("n").setType(TaskEventType.COMPLETED).setTimeMs(1)
                  .build())));
        }
        events.flush();
      }
      assertThat(replay.get(60, TimeUnit.SECONDS)).isZero();
      assertThat(seen).hasSize(1000);
    }
  }

  @Test
  void aBadWorkloadNameListsTheValidOnes() {
    CommandLine cl = LocusCli.commandLine();
    StringWriter err = new StringWriter();
    cl.setErr(new PrintWriter(err));
    assertThat(cl.execute("trace", "--workload", "nope", "-o", "x.jsonl")).isEqualTo(2);
    assertThat(err.toString()).contains("mi").contains("khanna");
  }
}
