package io.locus.cli.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.model.InputFile;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.testkit.EmbeddedKafka;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.Topics;
import io.locus.schemas.DataUnit;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.JobState;
import io.locus.schemas.JobStatus;
import io.locus.schemas.WorkflowFailurePolicy;
import io.locus.schemas.WorkflowState;
import io.locus.schemas.WorkflowStatus;
import io.locus.schemas.WorkflowSubmitted;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.testkit.Await;
import io.locus.workloads.TraceJob;
import io.locus.workloads.Workload;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

/**
 * The replay as a submitter that waits and fails fast, against a real broker; the test plays the
 * scheduler job and the agents: it reads workflows and job-arrivals and writes workflow-status,
 * job-status, dead-letters and task-events. A workflow goes out whole, once; the replay ends as
 * soon as the scheduler's verdict on its own records is out, never waiting out its timeout for
 * something already decided.
 */
@Tag("integration")
@Timeout(120)
class WorkflowReplayTest {
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

  static TraceJob job(String id, double arrival, List<String> parents, List<InputFile> inputs,
      List<InputFile> outputs) {
    return new TraceJob(id, null, arrival, inputs, 1.0, 0, Map.of(), null, parents, outputs,
        "checksum", List.of("-a", id));
  }

  /** a → b, a → c, (b, c) → d; e stands alone. */
  static Workload diamond() {
    InputFile raw = InputFile.of("wf/raw", 1_000);
    InputFile ab = InputFile.of("wf/a.out", 100);
    InputFile bd = InputFile.of("wf/b.out", 10);
    InputFile cd = InputFile.of("wf/c.out", 20);
    return Workload.of("diamond", "test", List.of(
        job("wf/a", 0, List.of(), List.of(raw), List.of(ab)),
        job("wf/e", 0, List.of(), List.of(raw), List.of()),
        job("wf/b", 0, List.of("wf/a"), List.of(ab), List.of(bd)),
        job("wf/c", 0, List.of("wf/a"), List.of(ab), List.of(cd)),
        job("wf/d", 0, List.of("wf/b", "wf/c"), List.of(bd, cd), List.of())));
  }

  /** The test's side: what arrives on job-arrivals for a pool, and completions it writes. */
  static final class Agents implements AutoCloseable {
    final String pool;
    final KafkaConsumer<byte[], byte[]> arrivals;
    final KafkaProducer<byte[], byte[]> events;
    final List<JobSubmitted> seen = new ArrayList<>();
    final List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();

    Agents(String pool) {
      this.pool = pool;
      arrivals = new KafkaConsumer<>(ClientConfigs.consumer(kafka.bootstrapServers(), null, false));
      List<TopicPartition> parts = new ArrayList<>();
      for (int p = 0; p < Topics.JOB_ARRIVALS.partitions(); p++) {
        parts.add(new TopicPartition(Topics.JOB_ARRIVALS.name(), p));
      }
      arrivals.assign(parts);
      arrivals.seekToEnd(parts);
      parts.forEach(arrivals::position);
      events = new KafkaProducer<>(ClientConfigs.producer(kafka.bootstrapServers()));
    }

    /** Reads until {@code n} jobs arrived in total; fails after 30 s. */
    List<String> awaitArrivals(int n) {
      // No pause between checks: pollOnce waits up to 100 ms by itself.
      Await.atMost(Duration.ofSeconds(30)).pollEvery(Duration.ZERO).until(
          () -> n + " arrivals; seen " + ids(), () -> {
            if (seen.size() >= n) {
              return true;
            }
            pollOnce(Duration.ofMillis(100));
            return false;
          });
      return ids();
    }

    /** Nothing more arrives within {@code window}: the gate holds. */
    void assertNothingArrivesWithin(Duration window) {
      // Watches a whole window for what must not happen: not a wait on a condition.
      int before = seen.size();
      long end = System.nanoTime() + window.toNanos();
      while (System.nanoTime() < end) {
        pollOnce(Duration.ofMillis(100));
      }
      assertThat(ids().subList(before, seen.size())).as("arrived too early").isEmpty();
    }

    private void pollOnce(Duration d) {
      for (ConsumerRecord<byte[], byte[]> r : arrivals.poll(d)) {
        JobSubmitted j = Topics.JOB_ARRIVALS.decode(r.value());
        if (j.getPool().equals(pool)) {
          seen.add(j);
          records.add(r);
        }
      }
    }

    List<String> ids() {
      return seen.stream().map(JobSubmitted::getJobId).toList();
    }

    void complete(String id, long submitMs, long endMs, long local, long peer, long storage)
        throws Exception {
      events.send(new ProducerRecord<>(Topics.TASK_EVENTS.name(), Topics.TASK_EVENTS.key(pool),
          Topics.TASK_EVENTS.value(TaskEvent.newBuilder().setPool(pool).setTaskId(id)
              .setJobId(id).setAttempt(0).setNode("n1").setType(TaskEventType.COMPLETED)
              .setTimeMs(endMs).setStartTimeMs(submitMs).setEndTimeMs(endMs)
              .setBytesLocal(local).setBytesPeer(peer).setBytesStorage(storage).build()))).get();
    }

    void complete(String id) throws Exception {
      JobSubmitted j = seen.stream().filter(x -> x.getJobId().equals(id)).findFirst().orElseThrow();
      complete(id, j.getSubmitTimeMs(), j.getSubmitTimeMs() + 1, 0, 0, 0);
    }

    @Override
    public void close() {
      arrivals.close();
      events.close();
    }
  }

  /** The scheduler job's side for a workflow: its parts as they arrive, and its verdicts. */
  static final class Scheduler implements AutoCloseable {
    final KafkaConsumer<byte[], byte[]> workflows;
    final KafkaProducer<byte[], byte[]> producer;
    final List<ConsumerRecord<byte[], byte[]>> parts = new ArrayList<>();

    Scheduler() {
      workflows = new KafkaConsumer<>(ClientConfigs.consumer(kafka.bootstrapServers(), null,
          false));
      List<TopicPartition> tps = new ArrayList<>();
      for (int p = 0; p < Topics.WORKFLOWS.partitions(); p++) {
        tps.add(new TopicPartition(Topics.WORKFLOWS.name(), p));
      }
      workflows.assign(tps);
      workflows.seekToEnd(tps);
      tps.forEach(workflows::position);
      producer = new KafkaProducer<>(ClientConfigs.producer(kafka.bootstrapServers()));
    }

    /** The parts of {@code id}, once all arrived. */
    List<WorkflowSubmitted> awaitWorkflow(String id) {
      Await.atMost(Duration.ofSeconds(30)).pollEvery(Duration.ZERO).until(
          () -> "the parts of " + id, () -> {
            for (ConsumerRecord<byte[], byte[]> r : workflows.poll(Duration.ofMillis(100))) {
              parts.add(r);
            }
            List<WorkflowSubmitted> mine = parts(id);
            return !mine.isEmpty() && mine.size() == mine.get(0).getParts();
          });
      return parts(id);
    }

    List<WorkflowSubmitted> parts(String id) {
      return parts.stream().map(r -> Topics.WORKFLOWS.decode(r.value()))
          .filter(w -> w.getWorkflowId().equals(id)).toList();
    }

    void workflowStatus(String id, WorkflowState state, String reason) throws Exception {
      producer.send(new ProducerRecord<>(Topics.WORKFLOW_STATUS.name(),
          Topics.WORKFLOW_STATUS.key(id), Topics.WORKFLOW_STATUS.value(WorkflowStatus
              .newBuilder().setWorkflowId(id).setState(state).setReason(reason).setJobs(5)
              .setTimeMs(1).build()))).get();
    }

    void jobStatus(String pool, String job, String workflow, JobState state, String reason)
        throws Exception {
      producer.send(new ProducerRecord<>(Topics.JOB_STATUS.name(),
          Topics.JOB_STATUS.key(Topics.jobStatusKey(pool, job)), Topics.JOB_STATUS.value(
              JobStatus.newBuilder().setPool(pool).setJobId(job).setWorkflow(workflow)
                  .setState(state).setReason(reason).setTimeMs(1).build()))).get();
    }

    /** A dead letter about the record at these coordinates. */
    void deadLetter(String topic, int partition, long offset, String code, String reason)
        throws Exception {
      deadLetter(topic, partition, offset, code, reason, null);
    }

    void deadLetter(String topic, int partition, long offset, String code, String reason,
        byte[] value) throws Exception {
      producer.send(new ProducerRecord<>(Topics.DEAD_LETTERS.name(), null,
          Topics.DEAD_LETTERS.value(DeadLetter.newBuilder().setSourceTopic(topic)
              .setPartition(partition).setOffset(offset).setReason(reason).setCode(code)
              .setValue(value == null ? null : java.nio.ByteBuffer.wrap(value))
              .setTimeMs(1).build()))).get();
    }

    @Override
    public void close() {
      workflows.close();
      producer.close();
    }
  }

  private static CompletableFuture<Replayer.Outcome> replay(Workload w, String pool,
      Duration timeout, StringWriter log) {
    var client = ClientConfigs.base(kafka.bootstrapServers());
    // the feed and the watch exist (end offsets fixed) before anything is published
    TaskEventFeed feed = new TaskEventFeed(client, java.util.Set.of(pool));
    SubmissionWatch watch = new SubmissionWatch(client, null, java.util.Set.of(pool));
    AckedPublisher publisher = new AckedPublisher(client);
    return CompletableFuture.supplyAsync(() -> {
      try (feed; watch; publisher) {
        return new Replayer(w, j -> pool, new Replayer.Settings(0, -1, true, timeout), publisher,
            feed, watch, new Progress(null, false, Duration.ofSeconds(1), System.nanoTime()),
            new PrintWriter(log), w.size()).run();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
  }

  private static CompletableFuture<Replayer.Outcome> submit(Workload w, String pool, String id,
      WorkflowFailurePolicy onFailure, boolean follow, Duration timeout, StringWriter log) {
    var client = ClientConfigs.base(kafka.bootstrapServers());
    TaskEventFeed feed = follow ? new TaskEventFeed(client, java.util.Set.of(pool)) : null;
    SubmissionWatch watch = follow ? new SubmissionWatch(client, id, java.util.Set.of(pool))
        : null;
    AckedPublisher publisher = new AckedPublisher(client);
    return CompletableFuture.supplyAsync(() -> {
      try (feed; watch; publisher) {
        return new WorkflowReplay(w, j -> pool,
            new WorkflowReplay.Settings(id, onFailure, -1, follow, timeout), publisher, watch,
            feed, new Progress(null, false, Duration.ofSeconds(1), System.nanoTime()),
            new PrintWriter(log, true)).run();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
  }

  @Test
  void aWorkflowGoesOutWholeOnceAndEndsWhenTheSchedulerSaysItSucceeded() throws Exception {
    String pool = "wf-whole";
    StringWriter log = new StringWriter();
    try (Scheduler scheduler = new Scheduler(); Agents agents = new Agents(pool)) {
      CompletableFuture<Replayer.Outcome> run = submit(diamond(), pool, "wf-1",
          WorkflowFailurePolicy.FAIL_WORKFLOW, true, Duration.ofSeconds(60), log);
      WorkflowSubmitted w = scheduler.awaitWorkflow("wf-1").get(0);
      assertThat(w.getParts()).isEqualTo(1);
      assertThat(w.getOnFailure()).isEqualTo(WorkflowFailurePolicy.FAIL_WORKFLOW);
      assertThat(w.getJobs()).extracting(JobSubmitted::getJobId)
          .containsExactly("wf/a", "wf/e", "wf/b", "wf/c", "wf/d");
      JobSubmitted d = w.getJobs().get(4);
      assertThat(d.getParents()).containsExactly("wf/b", "wf/c");
      assertThat(d.getPool()).isEqualTo(pool);
      assertThat(d.getInputs()).extracting(DataUnit::getId).containsExactly("wf/b.out", "wf/c.out");
      JobSubmitted a = w.getJobs().get(0);
      assertThat(a.getOutputs()).extracting(DataUnit::getId, DataUnit::getBytes)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("wf/a.out", 100L));
      assertThat(a.getTemplate()).isEqualTo("checksum");
      assertThat(a.getArgs()).containsExactly("-a", "wf/a");
      // nothing goes to job-arrivals: releasing is the scheduler job's work now
      agents.assertNothingArrivesWithin(Duration.ofMillis(500));

      // jobs of the workflow run and complete; a RUNNING status does not end the replay
      scheduler.workflowStatus("wf-1", WorkflowState.RUNNING, "");
      for (String id : List.of("wf/a", "wf/e", "wf/b", "wf/c", "wf/d")) {
        agents.complete(id, 1000, 2000, 0, 0, 10);
      }
      assertThat(run).isNotDone();
      scheduler.workflowStatus("wf-1", WorkflowState.SUCCEEDED, "");
      Replayer.Outcome o = run.get(30, TimeUnit.SECONDS);
      assertThat(o.ok()).as(String.valueOf(o.problem())).isTrue();
      assertThat(o.summary().completed()).isEqualTo(5);
      assertThat(log.toString()).contains("workflow wf-1: 5 jobs in 1 part(s) published to"
          + " workflows").contains("workflow wf-1 succeeded");
    }
  }

  @Test
  void withoutWaitingTheReplayEndsOnceKafkaHasTheWorkflow() throws Exception {
    try (Scheduler scheduler = new Scheduler()) {
      Replayer.Outcome o = submit(diamond(), "wf-nowait", "wf-2",
          WorkflowFailurePolicy.FAIL_DESCENDANTS, false, Duration.ofSeconds(60),
          new StringWriter()).get(30, TimeUnit.SECONDS);
      assertThat(o.ok()).as(String.valueOf(o.problem())).isTrue();
      assertThat(scheduler.awaitWorkflow("wf-2")).hasSize(1);
    }
  }

  @Test
  void aJobFailedForGoodEndsTheReplayAtOnceWithTheSchedulersReason() throws Exception {
    String pool = "wf-failed";
    try (Scheduler scheduler = new Scheduler()) {
      long t0 = System.nanoTime();
      CompletableFuture<Replayer.Outcome> run = submit(diamond(), pool, "wf-3",
          WorkflowFailurePolicy.FAIL_DESCENDANTS, true, Duration.ofSeconds(120),
          new StringWriter());
      scheduler.awaitWorkflow("wf-3");
      // another workflow's failure, and a job of this one that is only queued: not the end
      scheduler.jobStatus(pool, "wf/a", "wf-other", JobState.FAILED, "not mine");
      scheduler.jobStatus(pool, "wf/a", "wf-3", JobState.QUEUED, "");
      scheduler.jobStatus(pool, "wf/a", "wf-3", JobState.FAILED,
          "attempt 4 of 4 failed: exit status 1");
      Replayer.Outcome o = run.get(30, TimeUnit.SECONDS);
      assertThat(o.problem()).isEqualTo("job wf/a of workflow wf-3 failed: attempt 4 of 4"
          + " failed: exit status 1");
      assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(30));
    }
  }

  @Test
  void aDeadLetterAboutItsOwnPartEndsTheReplayAtOnceNamingIt() throws Exception {
    try (Scheduler scheduler = new Scheduler()) {
      CompletableFuture<Replayer.Outcome> run = submit(diamond(), "wf-dead", "wf-4",
          WorkflowFailurePolicy.FAIL_DESCENDANTS, true, Duration.ofSeconds(120),
          new StringWriter());
      scheduler.awaitWorkflow("wf-4");
      ConsumerRecord<byte[], byte[]> part = scheduler.parts.stream()
          .filter(r -> Topics.WORKFLOWS.decode(r.value()).getWorkflowId().equals("wf-4"))
          .findFirst().orElseThrow();
      // someone else's record: not the replay's business
      scheduler.deadLetter(part.topic(), part.partition(), part.offset() + 1000, "invalid-workflow",
          "not this one");
      scheduler.workflowStatus("wf-4", WorkflowState.RUNNING, "");
      assertThat(run).isNotDone();
      scheduler.deadLetter(part.topic(), part.partition(), part.offset(), "invalid-workflow",
          "invalid workflow 'wf-4': cycle: 'a' → 'a'");
      Replayer.Outcome o = run.get(30, TimeUnit.SECONDS);
      assertThat(o.problem()).isEqualTo("the scheduler refused workflow 'wf-4' part 0 (dead"
          + " letter invalid-workflow): invalid workflow 'wf-4': cycle: 'a' → 'a'");
    }
  }

  /** A re-run of the same trace: its jobs' ids are taken in the pool when they are released. */
  @Test
  void aReleasedJobTheSchedulerRefusedEndsTheReplayAtOnceNamingIt() throws Exception {
    try (Scheduler scheduler = new Scheduler()) {
      CompletableFuture<Replayer.Outcome> run = submit(diamond(), "wf-dup", "wf-7",
          WorkflowFailurePolicy.FAIL_DESCENDANTS, true, Duration.ofSeconds(120),
          new StringWriter());
      WorkflowSubmitted w = scheduler.awaitWorkflow("wf-7").get(0);
      JobSubmitted a = w.getJobs().get(0);
      // the same job of another workflow: not this replay's
      scheduler.deadLetter(Topics.JOB_ARRIVALS.name(), 3, 17, "duplicate-job", "other",
          Topics.JOB_ARRIVALS.value(JobSubmitted.newBuilder(a).setWorkflow("wf-other").build()));
      scheduler.workflowStatus("wf-7", WorkflowState.RUNNING, "");
      assertThat(run).isNotDone();
      // as the runner released it: the record is the runner's, the job names the workflow
      scheduler.deadLetter(Topics.JOB_ARRIVALS.name(), 3, 18, "duplicate-job",
          "job wf/a is already known to pool wf-dup",
          Topics.JOB_ARRIVALS.value(JobSubmitted.newBuilder(a).setWorkflow("wf-7").build()));
      assertThat(run.get(30, TimeUnit.SECONDS).problem()).isEqualTo("the scheduler refused job"
          + " wf/a (dead letter duplicate-job): job wf/a is already known to pool wf-dup");
    }
  }

  @Test
  void aRefusedWorkflowAndAWorkflowThatDoesNotMoveEndTheReplay() throws Exception {
    try (Scheduler scheduler = new Scheduler()) {
      CompletableFuture<Replayer.Outcome> run = submit(diamond(), "wf-refused", "wf-5",
          WorkflowFailurePolicy.FAIL_DESCENDANTS, true, Duration.ofSeconds(120),
          new StringWriter());
      scheduler.awaitWorkflow("wf-5");
      scheduler.workflowStatus("wf-5", WorkflowState.REFUSED, "duplicate job id 'wf/a'");
      assertThat(run.get(30, TimeUnit.SECONDS).problem()).isEqualTo(
          "workflow wf-5 was refused by the scheduler: duplicate job id 'wf/a'");
    }
    long t0 = System.nanoTime();
    Replayer.Outcome o = submit(diamond(), "wf-still", "wf-6",
        WorkflowFailurePolicy.FAIL_DESCENDANTS, true, Duration.ofSeconds(2), new StringWriter())
        .get(30, TimeUnit.SECONDS);
    assertThat(o.problem()).isEqualTo("nothing about workflow wf-6 moved for 2 s (no status"
        + " yet); is the scheduler job running, and are agents registered?");
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(20));
  }

  @Test
  void aPlainJobRefusedOrFailedForGoodEndsTheReplayAtOnce() throws Exception {
    Workload one = Workload.of("one", "test",
        List.of(job("p/one", 0, List.of(), List.of(InputFile.of("f", 10)), List.of())));
    try (Scheduler scheduler = new Scheduler(); Agents agents = new Agents("plain-dead")) {
      CompletableFuture<Replayer.Outcome> run =
          replay(one, "plain-dead", Duration.ofSeconds(120), new StringWriter());
      agents.awaitArrivals(1);
      ConsumerRecord<byte[], byte[]> r = agents.records.get(0);
      scheduler.deadLetter(r.topic(), r.partition(), r.offset(), "duplicate-job",
          "job p/one is already in pool plain-dead");
      assertThat(run.get(30, TimeUnit.SECONDS).problem()).isEqualTo("the scheduler refused job"
          + " p/one (dead letter duplicate-job): job p/one is already in pool plain-dead");
    }
    try (Scheduler scheduler = new Scheduler(); Agents agents = new Agents("plain-failed")) {
      CompletableFuture<Replayer.Outcome> run =
          replay(one, "plain-failed", Duration.ofSeconds(120), new StringWriter());
      agents.awaitArrivals(1);
      scheduler.jobStatus("plain-failed", "p/one", null, JobState.FAILED, "exit status 3");
      assertThat(run.get(30, TimeUnit.SECONDS).problem())
          .isEqualTo("job p/one of pool plain-failed failed: exit status 3");
    }
  }

  @Test
  void theSummaryIsComputedFromTheTaskEvents(@TempDir Path dir) throws Exception {
    String pool = "wf-summary";
    Workload w = Workload.of("pair", "test", List.of(
        job("p/x", 0, List.of(), List.of(InputFile.of("f", 10)), List.of()),
        job("p/y", 0, List.of(), List.of(InputFile.of("f", 10)), List.of())));
    try (Agents agents = new Agents(pool)) {
      CompletableFuture<Replayer.Outcome> run =
          replay(w, pool, Duration.ofSeconds(60), new StringWriter());
      agents.awaitArrivals(2);
      long sx = agents.seen.get(0).getSubmitTimeMs();
      long sy = agents.seen.get(1).getSubmitTimeMs();
      // x: 2 s after its submission, read 300 local, 100 from a peer
      agents.complete("p/x", sx, sx + 2_000, 300, 100, 0);
      // y: 4 s after its submission, 600 from storage
      agents.complete("p/y", sy, sy + 4_000, 0, 0, 600);
      Summary s = run.get(30, TimeUnit.SECONDS).summary();
      assertThat(s.completed()).isEqualTo(2);
      assertThat(s.meanResponseSeconds()).isEqualTo(3.0);
      assertThat(s.makespanSeconds()).isEqualTo((Math.max(sx + 2_000, sy + 4_000)
          - Math.min(sx, sy)) / 1000.0);
      assertThat(s.localRatio()).isEqualTo(0.3);
      assertThat(s.peerRatio()).isEqualTo(0.1);
      assertThat(s.storageRatio()).isEqualTo(0.6);
      assertThat(s.bytesMoved()).isEqualTo(700);

      Path csv = dir.resolve("out/summary.csv");
      s.writeCsv(csv);
      List<String> lines = Files.readAllLines(csv);
      assertThat(lines).hasSize(2);
      assertThat(lines.get(0)).isEqualTo("workload,jobs,published,publish_failed,completed,failed,"
          + "makespan_s,mean_response_s,local_ratio,peer_ratio,storage_ratio,bytes_local,"
          + "bytes_peer,bytes_storage,bytes_moved");
      String[] row = lines.get(1).split(",");
      assertThat(row[0]).isEqualTo("pair");
      assertThat(row).containsSubsequence("2", "2", "0", "2", "0");
      assertThat(Double.parseDouble(row[6])).isEqualTo(s.makespanSeconds());
      assertThat(row[7]).isEqualTo("3");
      assertThat(List.of(row).subList(8, 15))
          .containsExactly("0.3", "0.1", "0.6", "300", "100", "600", "700");
    }
  }
}
