package io.locus.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.kafka.ClientConfigs;
import io.locus.kafka.testkit.EmbeddedKafka;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.Topics;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.testkit.Await;
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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

@Tag("integration")
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
      // No pause between checks: the consumer's poll waits up to 200 ms by itself.
      Await.atMost(Duration.ofSeconds(30)).pollEvery(Duration.ZERO).until(
          () -> expected.size() + " arrivals; got " + got.size(), () -> {
            if (got.size() >= expected.size()) {
              return true;
            }
            for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
              got.add(Topics.JOB_ARRIVALS.decode(r.value()));
            }
            return false;
          });
      assertThat(got).extracting(JobSubmitted::getJobId).containsExactlyElementsOf(expected);
      assertThat(got).allSatisfy(j -> {
        assertThat(j.getPool()).isEqualTo("replay-a");
        assertThat(j.getInputs()).isNotEmpty();
        assertThat(j.getInputs().get(0).getLocation()).startsWith("sn-");
      });
    }
  }

  /**
   * The replay publishes each job's priority: the trace's where it sets one, else --priority's,
   * else 0. An out-of-range --priority exits 2 naming the range, before anything is published.
   */
  @Test
  void thePriorityIsPublishedFromTheTraceElseFromTheOption(@TempDir Path dir) throws Exception {
    Path trace = dir.resolve("prio.jsonl");
    Files.writeString(trace, String.join("\n",
        "{\"format\":\"locus-trace\",\"version\":1,\"name\":\"prio\",\"jobs\":2}",
        "{\"jobId\":\"prio-set\",\"arrival\":0,\"inputs\":[{\"id\":\"a\",\"bytes\":1}],"
            + "\"computeSeconds\":0,\"priority\":10}",
        "{\"jobId\":\"prio-unset\",\"arrival\":0,\"inputs\":[{\"id\":\"b\",\"bytes\":1}],"
            + "\"computeSeconds\":0}", ""));
    String b = kafka.bootstrapServers();
    try (KafkaConsumer<byte[], byte[]> c = arrivals()) {
      Ran bad = runCapturing("replay", "--trace", trace.toString(), "--bootstrap-servers", b,
          "--pool", "prio", "--priority", "1001", "--no-wait");
      assertThat(bad.code()).isEqualTo(2);
      assertThat(bad.err()).contains("--priority: priority 1001 is out of range [-1000, 1000]");
      assertThat(run("replay", "--trace", trace.toString(), "--bootstrap-servers", b,
          "--pool", "prio", "--speedup", "0", "--priority", "-5", "--no-wait")).isZero();
      assertThat(run("replay", "--trace", trace.toString(), "--bootstrap-servers", b,
          "--pool", "prio2", "--speedup", "0", "--no-wait")).isZero();
      List<String> got = new ArrayList<>();
      Await.atMost(Duration.ofSeconds(30)).pollEvery(Duration.ZERO).until(
          () -> "4 arrivals; got " + got, () -> {
            for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
              JobSubmitted j = Topics.JOB_ARRIVALS.decode(r.value());
              got.add(j.getPool() + "/" + j.getJobId() + "=" + j.getPriority());
            }
            return got.size() >= 4;
          });
      // the bad run published nothing: exactly these four
      assertThat(got).containsExactlyInAnyOrder("prio/prio-set=10", "prio/prio-unset=-5",
          "prio2/prio-set=10", "prio2/prio-unset=0");
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
      // Not Await: the loop also checks the barrier as records arrive; the assertions after it
      // report a shortfall.
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

  /** Exit code, stdout and stderr of one command. */
  record Ran(int code, String out, String err, Duration took) {}

  private static Ran runCapturing(String... args) {
    CommandLine cl = LocusCli.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    long t0 = System.nanoTime();
    int code = cl.execute(args);
    return new Ran(code, out.toString(), err.toString(), Duration.ofNanos(System.nanoTime() - t0));
  }

  private static Path khannaTrace(Path dir, int n) {
    Path trace = dir.resolve("khanna-" + n + ".jsonl");
    assertThat(run("trace", "--workload", "khanna", "--workload-param", "n=" + n, "--seed", "3",
        "-o", trace.toString())).isZero();
    return trace;
  }

  /** The complaint: 242 s of silence, then exit 0 with nothing published. */
  @Test
  void anUnreachableBrokerFailsWithinSecondsNamingTheAddress(@TempDir Path dir) throws Exception {
    Path trace = khannaTrace(dir, 20);
    int port;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      port = s.getLocalPort(); // closed again: nothing listens there
    }
    Ran r = runCapturing("replay", "--trace", trace.toString(), "--bootstrap-servers",
        "127.0.0.1:" + port, "--pool", "p", "--speedup", "0");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).contains("cannot reach Kafka at 127.0.0.1:" + port).doesNotContain("\tat ");
    assertThat(r.out()).doesNotContain("published");
    assertThat(r.took()).isLessThan(Duration.ofSeconds(15));
  }

  /** The complaint: an exact first message, then a stack trace and exit 1. */
  @Test
  void aMalformedTraceExitsTwoWithTheReadersMessageAndNoStackTrace(@TempDir Path dir)
      throws Exception {
    Path good = khannaTrace(dir, 20);
    List<String> lines = new ArrayList<>(Files.readAllLines(good));
    lines.set(2, lines.get(2).replace("\"arrival\"", "\"arival\""));
    Path bad = Files.write(dir.resolve("bad.jsonl"), lines);
    String expected;
    try {
      TraceReader.readAll(bad);
      throw new AssertionError("the reader accepted " + lines.get(2));
    } catch (io.locus.workloads.TraceFormatException e) {
      expected = e.getMessage();
    }
    try (KafkaConsumer<byte[], byte[]> c = arrivals()) {
      Ran r = runCapturing("replay", "--trace", bad.toString(), "--bootstrap-servers",
          kafka.bootstrapServers(), "--pool", "malformed", "--speedup", "0");
      assertThat(r.code()).isEqualTo(2);
      assertThat(r.err()).isEqualTo("locus replay: " + expected + System.lineSeparator());
      // nothing of it was published: the whole trace is read before the first record
      assertThat(c.poll(Duration.ofMillis(500)).count()).isZero();
    }
  }

  @Test
  void everyRecordIsConfirmedAndOneKafkaRefusesIsCountedAndFailsTheReplay(@TempDir Path dir)
      throws Exception {
    Path trace = khannaTrace(dir, 40);
    Ran ok = runCapturing("replay", "--trace", trace.toString(), "--bootstrap-servers",
        kafka.bootstrapServers(), "--pool", "acked", "--speedup", "0", "--quiet");
    assertThat(ok.code()).isZero();
    assertThat(ok.out()).contains("published 40 of 40 jobs").contains("acknowledged by Kafka: 40, failed: 0");

    // records too large for the producer: Kafka never takes them, and the replay says so
    Path props = Files.writeString(dir.resolve("small.properties"), "max.request.size=64\n");
    Ran refused = runCapturing("replay", "--trace", trace.toString(), "--bootstrap-servers",
        kafka.bootstrapServers(), "--kafka-properties", props.toString(), "--pool", "refused",
        "--speedup", "0", "--quiet");
    assertThat(refused.code()).isEqualTo(1);
    assertThat(refused.out()).contains("published 0 of 40 jobs").contains("failed: 40");
    assertThat(refused.err()).contains("40 of 40 job(s) were not accepted by Kafka")
        .contains("RecordTooLargeException");
  }

  @Test
  void aSummaryIsPrintedAndWrittenWhenAsked(@TempDir Path dir) throws Exception {
    Path trace = khannaTrace(dir, 20);
    Path csv = dir.resolve("summary.csv");
    try (KafkaConsumer<byte[], byte[]> c = arrivals();
        KafkaProducer<byte[], byte[]> events =
            new KafkaProducer<>(ClientConfigs.producer(kafka.bootstrapServers()))) {
      CompletableFuture<Ran> replay = CompletableFuture.supplyAsync(() -> runCapturing("replay",
          "--trace", trace.toString(), "--bootstrap-servers", kafka.bootstrapServers(), "--pool",
          "summary", "--speedup", "0", "--summary-csv", csv.toString()));
      int done = 0;
      // Not Await: the loop plays the agents (completes each arrival); the summary's assertions
      // report a shortfall.
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (done < 20 && System.nanoTime() < deadline) {
        for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(100))) {
          JobSubmitted j = Topics.JOB_ARRIVALS.decode(r.value());
          if (!j.getPool().equals("summary")) {
            continue;
          }
          events.send(new ProducerRecord<>(Topics.TASK_EVENTS.name(),
              Topics.TASK_EVENTS.key("summary"), Topics.TASK_EVENTS.value(TaskEvent.newBuilder()
                  .setPool("summary").setTaskId(j.getJobId()).setJobId(j.getJobId())
                  .setAttempt(0).setNode("n").setType(TaskEventType.COMPLETED)
                  .setTimeMs(j.getSubmitTimeMs() + 1000).setEndTimeMs(j.getSubmitTimeMs() + 1000)
                  .setBytesLocal(25).setBytesStorage(75).build())));
          done++;
        }
        events.flush();
      }
      Ran r = replay.get(60, TimeUnit.SECONDS);
      assertThat(r.code()).as(r.err()).isZero();
      assertThat(r.out()).contains("completed      20 / 20").contains("mean response  1.00 s")
          .contains("local 25.0%  peer 0.0%  storage 75.0%");
      List<String> rows = Files.readAllLines(csv);
      assertThat(rows.get(0)).startsWith("workload,jobs,published,publish_failed,completed");
      assertThat(rows.get(1)).contains(",20,20,0,20,0,").endsWith(",0.25,0,0.75,500,0,1500,1500");
    }
  }

  @Test
  void jobsThatDoNotCompleteInTimeExitOneSayingHowMany(@TempDir Path dir) {
    Path trace = khannaTrace(dir, 20);
    Ran r = runCapturing("replay", "--trace", trace.toString(), "--bootstrap-servers",
        kafka.bootstrapServers(), "--pool", "nobody-home", "--speedup", "0", "--wait",
        "--timeout", "2s", "--quiet");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out()).contains("published 20 of 20 jobs").contains("completed      0 / 20");
    assertThat(r.err()).isEqualTo("locus replay: no job completed for 2 s: 20 job(s) published and"
        + " not completed; are the scheduler and agents running for pool(s) [nobody-home]?"
        + System.lineSeparator());
  }

  @Test
  void badReplayArgumentsExitTwo(@TempDir Path dir) {
    Path trace = khannaTrace(dir, 20);
    String b = kafka.bootstrapServers();
    assertThat(runCapturing("replay", "--workload", "stages18", "--bootstrap-servers", b,
        "--pool", "p", "--no-wait").err()).contains("stages");
    assertThat(runCapturing("replay", "--trace", trace.toString(), "--bootstrap-servers", b,
        "--pool", "p", "--pools", "a,b").code()).isEqualTo(2);
    assertThat(runCapturing("replay", "--trace", trace.toString(), "--bootstrap-servers", b,
        "--format", "csv").err()).contains("unknown trace format 'csv'");
    assertThat(runCapturing("replay", "--workload", "khanna", "--bootstrap-servers", b,
        "--pools", "a,b").err()).contains("a generated workload is one");
    assertThat(runCapturing("replay", "--trace", dir.resolve("none.jsonl").toString(),
        "--bootstrap-servers", b, "--pool", "p").code()).isEqualTo(2);
    // the trace has no pool of its own
    Ran noPool = runCapturing("replay", "--trace", trace.toString(), "--bootstrap-servers", b);
    assertThat(noPool.code()).isEqualTo(2);
    assertThat(noPool.err()).contains("has no pool: give --pool");
  }

  @Test
  void theFormatIsTakenFromTheNameOrTheContent(@TempDir Path dir) throws Exception {
    Path locus = khannaTrace(dir, 20);
    Path renamed = Files.copy(locus, dir.resolve("trace.txt"));
    Path swf = Files.writeString(dir.resolve("log"), "; Version: 2.2\n1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 1 1 -1 -1 -1\n");
    Path wf = Files.writeString(dir.resolve("wf"), "{\n  \"name\": \"x\"\n}\n");
    assertThat(WorkloadSource.detect(locus)).isEqualTo(io.locus.workloads.TraceFiles.Format.LOCUS);
    assertThat(WorkloadSource.detect(renamed)).isEqualTo(io.locus.workloads.TraceFiles.Format.LOCUS);
    assertThat(WorkloadSource.detect(swf)).isEqualTo(io.locus.workloads.TraceFiles.Format.SWF);
    assertThat(WorkloadSource.detect(wf)).isEqualTo(io.locus.workloads.TraceFiles.Format.WFCOMMONS);
    assertThat(WorkloadSource.detect(Path.of("a/montage.json.gz")))
        .isEqualTo(io.locus.workloads.TraceFiles.Format.WFCOMMONS);
    assertThat(WorkloadSource.detect(Path.of("a/ctc.swf")))
        .isEqualTo(io.locus.workloads.TraceFiles.Format.SWF);
    org.assertj.core.api.Assertions.assertThatThrownBy(
        () -> WorkloadSource.detect(List.of(locus, swf)))
        .hasMessageContaining("give --format");
  }

  @Test
  void sourcesTakeRepeatedFilesADirectoryAndATimeScale(@TempDir Path dir) throws Exception {
    CommandLine.ParseResult parsed = LocusCli.commandLine().parseArgs("replay", "--trace",
        "a.json", "--trace", "b.json", "--bootstrap-servers", "x:1");
    ReplayCommand rc = (ReplayCommand) parsed.subcommand().commandSpec().userObject();
    assertThat(rc.source.choice.traces).containsExactly(Path.of("a.json"), Path.of("b.json"));

    Path in = Files.createDirectories(dir.resolve("instances"));
    Files.writeString(in.resolve("b.json"), "{}");
    Files.writeString(in.resolve("a.json"), "{}");
    Files.writeString(in.resolve(".hidden"), "x");
    Files.createDirectories(in.resolve("sub"));
    assertThat(WorkloadSource.files(List.of(in)))
        .containsExactly(in.resolve("a.json"), in.resolve("b.json"));

    // a generated workload scaled: arrivals and compute times x 0.5
    CommandLine.ParseResult scaled = LocusCli.commandLine().parseArgs("replay", "--workload",
        "khanna", "--workload-param", "n=20", "--time-scale", "0.5", "--bootstrap-servers", "x:1");
    var plain = io.locus.workloads.Workloads.create("khanna", java.util.Map.of("n", "20"), 1)
        .toList();
    var half = ((ReplayCommand) scaled.subcommand().commandSpec().userObject()).source.open()
        .toList();
    assertThat(half).hasSameSizeAs(plain);
    for (int i = 0; i < plain.size(); i++) {
      assertThat(half.get(i).jobId()).isEqualTo(plain.get(i).jobId());
      assertThat(half.get(i).arrival()).isEqualTo(plain.get(i).arrival() * 0.5);
      assertThat(half.get(i).totalComputeSeconds())
          .isCloseTo(plain.get(i).totalComputeSeconds() * 0.5, org.assertj.core.data.Offset.offset(1e-9));
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
