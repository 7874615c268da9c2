package io.locus.cli.job;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.locus.cli.LocusCli;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.TopicSpec;
import io.locus.kafka.Topics;
import io.locus.kafka.testkit.EmbeddedKafka;
import io.locus.schemas.DataUnit;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.JobCommand;
import io.locus.schemas.JobCommandType;
import io.locus.schemas.JobState;
import io.locus.schemas.JobStatus;
import io.locus.schemas.JobSubmitted;
import io.locus.testkit.Await;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;
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

/**
 * {@code locus job} against a real broker in this JVM. The scheduler is <em>not</em> running
 * here: these tests play its part by writing the JobStatus and DeadLetter records it would write
 * (what the records mean is the contract on main; the scheduler side that makes them is built
 * separately, and a whole-system test runs both together). What is tested is the command's side:
 * what it sends, how it matches the answers to its own records, what it prints and how it exits.
 * Each test uses pools of its own, so the shared topics do not mix their jobs.
 */
@Tag("integration")
@Timeout(180)
class JobCommandsTest {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();

  private static EmbeddedKafka kafka;
  private static String bootstrap;
  /** Writes what the scheduler would write. */
  private static KafkaProducer<byte[], byte[]> scheduler;

  @TempDir
  Path tmp;

  record Run(int code, String out, String err, long millis) {}

  @BeforeAll
  static void broker() {
    kafka = EmbeddedKafka.start();
    bootstrap = kafka.bootstrapServers();
    TopicAdmin.ensureTopics(bootstrap, Topics.ALL);
    scheduler = new KafkaProducer<>(ClientConfigs.producer(bootstrap));
  }

  @AfterAll
  static void stop() {
    if (scheduler != null) {
      scheduler.close(Duration.ofSeconds(5));
    }
    if (kafka != null) {
      kafka.close();
    }
  }

  private static Run job(String command, String... args) {
    CommandLine cl = LocusCli.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    List<String> all = new ArrayList<>(List.of("job", command, "--bootstrap-servers", bootstrap));
    all.addAll(List.of(args));
    long t0 = System.nanoTime();
    int code = cl.execute(all.toArray(String[]::new));
    return new Run(code, out.toString(), err.toString(), (System.nanoTime() - t0) / 1_000_000);
  }

  private static CompletableFuture<Run> started(String command, String... args) {
    return CompletableFuture.supplyAsync(() -> job(command, args));
  }

  private static Run done(CompletableFuture<Run> run) throws Exception {
    return run.get(WAIT.toSeconds(), TimeUnit.SECONDS);
  }

  // ---- the scheduler's part, played by the test -------------------------------------------------

  private static void status(String pool, String jobId, JobState state,
      Consumer<JobStatus.Builder> more) throws Exception {
    JobStatus.Builder b = JobStatus.newBuilder().setPool(pool).setJobId(jobId).setState(state)
        .setTimeMs(1_800_000_000_000L).setSubmitTimeMs(1_799_999_990_000L);
    more.accept(b);
    String key = Topics.jobStatusKey(pool, jobId);
    scheduler.send(new ProducerRecord<>(Topics.JOB_STATUS.name(), Topics.JOB_STATUS.key(key),
        Topics.JOB_STATUS.value(b.build()))).get(30, TimeUnit.SECONDS);
  }

  private static void status(String pool, String jobId, JobState state) throws Exception {
    status(pool, jobId, state, b -> {});
  }

  private static void deadLetter(String topic, int partition, long offset, String code,
      String reason, byte[] value) throws Exception {
    deadLetter(topic, partition, offset, code, reason, value, null);
  }

  private static void deadLetter(String topic, int partition, long offset, String code,
      String reason, byte[] value, String key) throws Exception {
    DeadLetter d = DeadLetter.newBuilder()
        .setKey(key == null ? null : ByteBuffer.wrap(key.getBytes(StandardCharsets.UTF_8))).setSourceTopic(topic).setPartition(partition)
        .setOffset(offset).setCode(code).setReason(reason).setTimeMs(1_800_000_000_000L)
        .setValue(value == null ? null : ByteBuffer.wrap(value)).build();
    scheduler.send(new ProducerRecord<>(Topics.DEAD_LETTERS.name(), null,
        Topics.DEAD_LETTERS.value(d))).get(30, TimeUnit.SECONDS);
  }

  /** The first record of {@code topic} that {@code match} accepts, read from the beginning. */
  private static <V extends SpecificRecord> ConsumerRecord<byte[], byte[]> awaitRecord(
      TopicSpec<V> topic, Predicate<V> match) {
    try (KafkaConsumer<byte[], byte[]> c =
        new KafkaConsumer<>(ClientConfigs.consumer(bootstrap, null, false))) {
      List<TopicPartition> parts = c.partitionsFor(topic.name()).stream()
          .map(i -> new TopicPartition(topic.name(), i.partition())).toList();
      c.assign(parts);
      c.seekToBeginning(parts);
      List<ConsumerRecord<byte[], byte[]>> found = new ArrayList<>();
      Await.atMost(WAIT).pollEvery(Duration.ZERO).until("a matching record on " + topic.name(),
          () -> {
            for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
              if (match.test(topic.decode(r.value()))) {
                found.add(r);
              }
            }
            return !found.isEmpty();
          });
      return found.get(0);
    }
  }

  private static JobSubmitted arrival(String pool, String jobId) {
    return Topics.JOB_ARRIVALS.decode(awaitRecord(Topics.JOB_ARRIVALS,
        j -> j.getPool().equals(pool) && j.getJobId().equals(jobId)).value());
  }

  private Path trace(String... jobs) throws Exception {
    Path f = tmp.resolve("jobs-" + System.nanoTime() + ".jsonl");
    List<String> lines = new ArrayList<>();
    lines.add("{\"format\":\"locus-trace\",\"version\":1,\"name\":\"t\",\"jobs\":" + jobs.length
        + "}");
    lines.addAll(List.of(jobs));
    Files.write(f, lines);
    return f;
  }

  private static String traceJob(String id, String extra) {
    return "{\"jobId\":\"" + id + "\",\"arrival\":0,\"inputs\":[{\"id\":\"in/" + id
        + "\",\"bytes\":1000}],\"computeSeconds\":1" + extra + "}";
  }

  // ---- submit ----------------------------------------------------------------------------------

  @Test
  void aJobByHandLandsOnJobArrivalsAndItsIdIsPrinted() {
    Run r = job("submit", "--pool", "hand", "--job-id", "h-1", "--input", "d/a.bin:64MB",
        "--input", "d/b.bin:1KiB", "--template", "sha", "--arg", "-v", "--priority", "7");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).isEqualTo("hand/h-1" + System.lineSeparator());
    JobSubmitted j = arrival("hand", "h-1");
    assertThat(j.getInputs()).extracting(DataUnit::getId, DataUnit::getBytes)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("d/a.bin", 64_000_000L),
            org.assertj.core.groups.Tuple.tuple("d/b.bin", 1024L));
    assertThat(j.getTemplate()).isEqualTo("sha");
    assertThat(j.getArgs()).containsExactly("-v");
    assertThat(j.getPriority()).isEqualTo(7);
    assertThat(j.getParents()).isEmpty();
    assertThat(j.getSubmitTimeMs()).isCloseTo(System.currentTimeMillis(),
        org.assertj.core.data.Offset.offset(120_000L));
    // keyed by pool, as the scheduler's input topics are
    ConsumerRecord<byte[], byte[]> rec = awaitRecord(Topics.JOB_ARRIVALS,
        x -> x.getJobId().equals("h-1"));
    assertThat(new String(rec.key(), StandardCharsets.UTF_8)).isEqualTo("hand");
  }

  @Test
  void theJobsOfAFileAreSubmittedAndPrintedInOrder() throws Exception {
    Path f = trace(traceJob("f-1", ",\"priority\":3"), traceJob("f-2", ",\"pool\":\"elsewhere\""));
    Run r = job("submit", "--pool", "file", "--priority", "-5", f.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out().lines().toList()).containsExactly("file/f-1", "file/f-2");
    assertThat(arrival("file", "f-1").getPriority()).as("the file's own").isEqualTo(3);
    assertThat(arrival("file", "f-2").getPriority()).as("--priority for one without")
        .isEqualTo(-5);
    assertThat(arrival("file", "f-2").getInputs().get(0).getId()).isEqualTo("in/f-2");

    // and from stdin: the file's own pool when there is no --pool
    InputStream old = System.in;
    System.setIn(new ByteArrayInputStream(Files.readAllBytes(trace(
        traceJob("s-1", ",\"pool\":\"stdin\"")))));
    Run s;
    try {
      s = job("submit", "-");
    } finally {
      System.setIn(old);
    }
    assertThat(s.code()).as(s.err()).isZero();
    assertThat(s.out().lines().toList()).containsExactly("stdin/s-1");
    assertThat(arrival("stdin", "s-1").getComputeSeconds()).isEqualTo(1.0);
  }

  @Test
  void submitWaitExits0OnceEveryJobCompleted() throws Exception {
    Path f = trace(traceJob("w-1", ""), traceJob("w-2", ""));
    CompletableFuture<Run> run = started("submit", "--pool", "waitok", "--wait", f.toString());
    arrival("waitok", "w-2");
    // the same job in another pool is not one of these
    status("other", "w-1", JobState.FAILED, b -> b.setReason("not this one"));
    status("waitok", "w-1", JobState.QUEUED, b -> b.setPendingCode("no-free-slot"));
    status("waitok", "w-1", JobState.RUNNING, b -> b.setAttempt(1).setNode("n1"));
    status("waitok", "w-1", JobState.COMPLETED, b -> b.setAttempt(1).setNode("n1"));
    assertThat(run).as("one job still open").isNotDone();
    status("waitok", "w-2", JobState.COMPLETED, b -> b.setAttempt(1).setNode("n2"));
    Run r = done(run);
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out().lines().toList()).containsExactly("waitok/w-1", "waitok/w-2");
    assertThat(r.err()).contains("waitok/w-1 QUEUED (no-free-slot)",
        "waitok/w-1 RUNNING attempt 1 on n1", "waitok/w-2 COMPLETED attempt 1 on n2",
        "all 2 jobs completed").doesNotContain("not this one");
  }

  @Test
  void submitWaitFailsAtOnceWithTheReasonWhenAJobFails() throws Exception {
    Path f = trace(traceJob("x-1", ""), traceJob("x-2", ""));
    CompletableFuture<Run> run = started("submit", "--pool", "waitfail", "--wait", f.toString());
    arrival("waitfail", "x-2");
    status("waitfail", "x-2", JobState.FAILED, b -> b.setAttempt(4).setNode("n3")
        .setReason("exit code 2 on every attempt (4 of 4)"));
    // x-1 never finishes: the command does not wait for it (--timeout is an hour)
    Run r = done(run);
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).contains("locus job submit: waitfail/x-2 FAILED: exit code 2 on every"
        + " attempt (4 of 4)");
  }

  @Test
  void submitWaitFailsAtOnceWhenItsOwnRecordIsDeadLettered() throws Exception {
    CompletableFuture<Run> run = started("submit", "--pool", "waitdead", "--job-id", "d-1",
        "--input", "a:1", "--wait");
    ConsumerRecord<byte[], byte[]> rec = awaitRecord(Topics.JOB_ARRIVALS,
        j -> j.getPool().equals("waitdead") && j.getJobId().equals("d-1"));
    // a dead letter of another record of job-arrivals is not this job's
    deadLetter(Topics.JOB_ARRIVALS.name(), rec.partition(), rec.offset() + 1000,
        "invalid", "someone else's job", null);
    deadLetter(Topics.JOB_ARRIVALS.name(), rec.partition(), rec.offset(), "duplicate-job",
        "job id d-1 was seen before in pool waitdead", rec.value());
    Run r = done(run);
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out()).isEqualTo("waitdead/d-1" + System.lineSeparator());
    assertThat(r.err()).contains("locus job submit: waitdead/d-1 was refused by the scheduler"
        + " (dead letter duplicate-job: job id d-1 was seen before in pool waitdead)")
        .doesNotContain("someone else's job");
  }

  @Test
  void submitWaitGivesUpAtItsTimeoutSayingWhatItSaw() {
    Run r = job("submit", "--pool", "waitlong", "--job-id", "t-1", "--input", "a:1", "--wait",
        "--timeout", "2s");
    assertThat(r.code()).isEqualTo(3);
    assertThat(r.out()).isEqualTo("waitlong/t-1" + System.lineSeparator());
    assertThat(r.err()).contains("1 of 1 jobs did not finish within PT2S",
        "waitlong/t-1 (no status yet)", "is the scheduler job running");
  }

  // ---- status and list -------------------------------------------------------------------------

  @Test
  void statusShowsTheLatestStateItsHistoryAndJson() throws Exception {
    status("st", "j1", JobState.QUEUED, b -> b.setPendingCode("locality-wait")
        .setReason("waiting for n2, the holder of hot-2, until 12:00:05"));
    status("st", "j1", JobState.RUNNING, b -> b.setAttempt(1).setNode("n2")
        .setStartTimeMs(1_800_000_000_000L).setPriority(5));
    Run r = job("status", "st/j1");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("job st/j1: RUNNING", "node:      n2", "attempt:   1",
        "priority:  5", "started:   2027-01-15T08:00:00Z")
        .doesNotContain("locality-wait");

    Run h = job("status", "--pool", "st", "j1", "--history");
    assertThat(h.code()).isZero();
    assertThat(h.out()).contains("history", "st/j1 QUEUED (locality-wait): waiting for n2",
        "st/j1 RUNNING attempt 1 on n2");
    assertThat(h.out().indexOf("QUEUED")).isLessThan(h.out().lastIndexOf("RUNNING"));

    Run j = job("status", "st/j1", "--json", "--history");
    JsonNode n = JSON.readTree(j.out());
    assertThat(n.get("state").asText()).isEqualTo("RUNNING");
    assertThat(n.get("node").asText()).isEqualTo("n2");
    assertThat(n.get("history")).hasSize(2);
    assertThat(n.get("history").get(0).get("pendingCode").asText()).isEqualTo("locality-wait");
  }

  @Test
  void statusOfAnUnknownJobExits3AndOfARefusedOneNamesTheDeadLetter() throws Exception {
    status("st2", "known", JobState.QUEUED);
    Run r = job("status", "st2/nope");
    assertThat(r.code()).isEqualTo(3);
    assertThat(r.err()).contains("locus job status: no job st2/nope on job-status at "
        + bootstrap, "locus job list --pool st2");
    assertThat(r.out()).isEmpty();

    JobSubmitted bad = JobSubmitted.newBuilder().setPool("st2").setJobId("refused")
        .setSubmitTimeMs(1).setInputs(List.of()).build();
    deadLetter(Topics.JOB_ARRIVALS.name(), 0, 12345, "invalid", "job has no inputs",
        Topics.JOB_ARRIVALS.value(bad));
    Run d = job("status", "st2/refused");
    assertThat(d.code()).isEqualTo(1);
    assertThat(d.err()).contains("job st2/refused was refused by the scheduler (dead letter"
        + " invalid: job has no inputs");

    // The scheduler's own refusals carry the record's place only (key = pool, no value): the
    // record there is read to tell whose it was.
    Run sent = job("submit", "--pool", "st3", "--job-id", "typo", "--input", "a:1");
    assertThat(sent.code()).as(sent.err()).isZero();
    ConsumerRecord<byte[], byte[]> rec = awaitRecord(Topics.JOB_ARRIVALS,
        j -> j.getPool().equals("st3") && j.getJobId().equals("typo"));
    deadLetter(Topics.JOB_ARRIVALS.name(), rec.partition(), rec.offset(), "unknown-pool",
        "pool 'st3' is not one the scheduler runs", null, "st3");
    Run u = job("status", "st3/typo");
    assertThat(u.code()).isEqualTo(1);
    assertThat(u.err()).contains("job st3/typo was refused by the scheduler (dead letter"
        + " unknown-pool: pool 'st3' is not one the scheduler runs");
    // another job of that pool is not the refused one
    assertThat(job("status", "st3/other").code()).isEqualTo(3);
  }

  @Test
  void listShowsEachJobsLatestStateFilteredWithCounts() throws Exception {
    status("ls", "a", JobState.QUEUED, b -> b.setPendingCode("no-fit"));
    status("ls", "b", JobState.QUEUED, b -> b.setPendingCode("locality-wait"));
    status("ls", "c", JobState.RUNNING, b -> b.setAttempt(1).setNode("n1"));
    status("ls", "d", JobState.QUEUED, b -> b.setPendingCode("no-fit"));
    status("ls", "d", JobState.COMPLETED, b -> b.setAttempt(1).setNode("n1"));
    status("ls-other", "e", JobState.QUEUED);
    Run all = job("list", "--pool", "ls");
    assertThat(all.code()).as(all.err()).isZero();
    assertThat(all.out()).contains("JOB", "STATE", "PENDING")
        .containsPattern("(?m)^d +COMPLETED ")
        .doesNotContain("ls-other").doesNotContainPattern("(?m)^e ");
    assertThat(all.out()).contains("4 jobs: 2 QUEUED, 1 RUNNING, 1 COMPLETED; pending:"
        + " 1 locality-wait, 1 no-fit");

    Run some = job("list", "--pool", "ls", "--state", "queued,RUNNING");
    assertThat(some.code()).isZero();
    assertThat(some.out()).containsPattern("(?m)^a +QUEUED ").containsPattern("(?m)^c +RUNNING ")
        .doesNotContainPattern("(?m)^d ")
        .contains("3 jobs: 2 QUEUED, 1 RUNNING; pending: 1 locality-wait, 1 no-fit");

    JsonNode n = JSON.readTree(job("list", "--pool", "ls", "--state", "QUEUED", "--json")
        .out());
    assertThat(n.get("jobs")).hasSize(2);
    assertThat(n.get("perState").get("QUEUED").asInt()).isEqualTo(2);
    assertThat(n.get("perPendingCode").get("no-fit").asInt()).isEqualTo(1);

    Run none = job("list", "--pool", "ls", "--state", "FAILED");
    assertThat(none.code()).isZero();
    assertThat(none.out()).contains("pool ls: no jobs in state FAILED");
  }

  // ---- cancel ----------------------------------------------------------------------------------

  private static ConsumerRecord<byte[], byte[]> command(String pool, String jobId) {
    return awaitRecord(Topics.JOB_COMMANDS,
        c -> c.getPool().equals(pool) && c.getJobId().equals(jobId));
  }

  @Test
  void cancelIsAnsweredByTheCancelledStatusCarryingItsRequestId() throws Exception {
    CompletableFuture<Run> run = started("cancel", "cx/j1", "--reason", "superseded");
    ConsumerRecord<byte[], byte[]> rec = command("cx", "j1");
    JobCommand sent = Topics.JOB_COMMANDS.decode(rec.value());
    assertThat(new String(rec.key(), StandardCharsets.UTF_8)).isEqualTo("cx");
    assertThat(sent.getType()).isEqualTo(JobCommandType.CANCEL);
    assertThat(sent.getReason()).isEqualTo("superseded");
    assertThat(sent.getRequestId()).isNotBlank();
    // another cancel's answer is not this one's
    status("cx", "j1", JobState.CANCELLED, b -> b.setRequestId("someone-else")
        .setReason("not this one"));
    assertThat(run).isNotDone();
    status("cx", "j1", JobState.CANCELLED, b -> b.setRequestId(sent.getRequestId())
        .setReason("cancelled: superseded").setAttempt(1).setNode("n4"));
    Run r = done(run);
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("cx/j1 CANCELLED attempt 1 on n4: cancelled: superseded")
        .doesNotContain("not this one");
  }

  @Test
  void cancelRefusedByTheDeadLetterOfItsRecordExits1WithTheReason() throws Exception {
    CompletableFuture<Run> run = started("cancel", "--pool", "cx", "j2");
    ConsumerRecord<byte[], byte[]> rec = command("cx", "j2");
    deadLetter(Topics.JOB_COMMANDS.name(), rec.partition(), rec.offset(), "job-finished",
        "job cx/j2 has already completed", rec.value());
    Run r = done(run);
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).contains("locus job cancel: cancel of cx/j2 refused (dead letter"
        + " job-finished: job cx/j2 has already completed)");
  }

  @Test
  void cancelWithoutAnAnswerExits3AtItsTimeout() {
    Run r = job("cancel", "cx/j3", "--timeout", "2s");
    assertThat(r.code()).isEqualTo(3);
    assertThat(r.err()).contains("no answer to the cancel of cx/j3", "within PT2S",
        "the cancel was sent");
    assertThat(r.millis()).isGreaterThanOrEqualTo(1_900L);
    command("cx", "j3"); // it was sent
  }

  // ---- no broker -------------------------------------------------------------------------------

  @Test
  void anUnreachableBrokerIsTheOneLineErrorEveryCommandGives() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort(); // free, and closed once the socket is
    }
    String address = "localhost:" + port;
    for (String[] args : List.of(
        new String[] {"submit", "--pool", "p", "--input", "a:1"},
        new String[] {"list", "--pool", "p"},
        new String[] {"status", "p/j"},
        new String[] {"cancel", "p/j"})) {
      List<String> all = new ArrayList<>(List.of("job"));
      all.addAll(List.of(args));
      all.addAll(List.of("--bootstrap-servers", address, "--timeout", "3s"));
      CommandLine cl = LocusCli.commandLine();
      StringWriter err = new StringWriter();
      cl.setOut(new PrintWriter(new StringWriter(), true));
      cl.setErr(new PrintWriter(err, true));
      int code = cl.execute(all.toArray(String[]::new));
      assertThat(code).as(args[0]).isEqualTo(1);
      assertThat(err.toString()).as(args[0])
          .startsWith("locus job " + args[0] + ": cannot reach Kafka at " + address)
          .doesNotContain("\tat ");
    }
  }
}
