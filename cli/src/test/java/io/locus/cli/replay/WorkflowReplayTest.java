package io.locus.cli.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.model.InputFile;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.testkit.EmbeddedKafka;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.Topics;
import io.locus.schemas.DataUnit;
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
 * The replayer as a workflow engine against a real broker; the test plays scheduler and agents:
 * it reads job-arrivals and writes task-events. A child must not appear before the test completed
 * all of its parents.
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

  private static CompletableFuture<Replayer.Outcome> replay(Workload w, String pool,
      Duration timeout, StringWriter log) {
    return replay(w, pool, timeout, log, Map.of());
  }

  private static CompletableFuture<Replayer.Outcome> replay(Workload w, String pool,
      Duration timeout, StringWriter log, Map<String, String> clientSettings) {
    var client = ClientConfigs.withOverrides(ClientConfigs.base(kafka.bootstrapServers()),
        clientSettings);
    // the feed exists (end offsets fixed) before anything is published
    TaskEventFeed feed = new TaskEventFeed(client, java.util.Set.of(pool));
    AckedPublisher publisher = new AckedPublisher(client);
    return CompletableFuture.supplyAsync(() -> {
      try (feed; publisher) {
        return new Replayer(w, j -> pool, new Replayer.Settings(0, -1, true, timeout), publisher,
            feed, new Progress(null, false, Duration.ofSeconds(1), System.nanoTime()),
            new PrintWriter(log), w.size()).run();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    });
  }

  @Test
  void childrenGoOutOnlyAfterAllTheirParentsCompleted() throws Exception {
    String pool = "wf-order";
    try (Agents agents = new Agents(pool)) {
      CompletableFuture<Replayer.Outcome> run =
          replay(diamond(), pool, Duration.ofSeconds(60), new StringWriter());
      // the roots go out at once; nothing else until a completes
      assertThat(agents.awaitArrivals(2)).containsExactly("wf/a", "wf/e");
      agents.assertNothingArrivesWithin(Duration.ofMillis(1500));
      agents.complete("wf/e");
      agents.assertNothingArrivesWithin(Duration.ofMillis(500));
      agents.complete("wf/a");
      assertThat(agents.awaitArrivals(4).subList(2, 4)).containsExactly("wf/b", "wf/c");
      // d needs both b and c
      agents.complete("wf/b");
      agents.assertNothingArrivesWithin(Duration.ofMillis(1000));
      agents.complete("wf/c");
      assertThat(agents.awaitArrivals(5).get(4)).isEqualTo("wf/d");
      assertThat(run).isNotDone(); // waits for d
      agents.complete("wf/d");
      Replayer.Outcome o = run.get(30, TimeUnit.SECONDS);
      assertThat(o.ok()).as(String.valueOf(o.problem())).isTrue();
      assertThat(o.summary().published()).isEqualTo(5);
      assertThat(o.summary().publishFailed()).isZero();
      assertThat(o.summary().completed()).isEqualTo(5);

      // what the record of a workflow task carries
      JobSubmitted d = agents.seen.get(4);
      assertThat(d.getInputs()).extracting(DataUnit::getId).containsExactly("wf/b.out", "wf/c.out");
      JobSubmitted a = agents.seen.get(0);
      assertThat(a.getOutputs()).extracting(DataUnit::getId, DataUnit::getBytes)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("wf/a.out", 100L));
      assertThat(a.getTemplate()).isEqualTo("checksum");
      assertThat(a.getArgs()).containsExactly("-a", "wf/a");
    }
  }

  @Test
  void theSummaryIsComputedFromTheTaskEvents(@TempDir Path dir) throws Exception {
    String pool = "wf-summary";
    Workload w = Workload.of("pair", "test", List.of(
        job("p/x", 0, List.of(), List.of(InputFile.of("f", 10)), List.of()),
        job("p/y", 0, List.of("p/x"), List.of(InputFile.of("f", 10)), List.of())));
    try (Agents agents = new Agents(pool)) {
      CompletableFuture<Replayer.Outcome> run =
          replay(w, pool, Duration.ofSeconds(60), new StringWriter());
      agents.awaitArrivals(1);
      long sx = agents.seen.get(0).getSubmitTimeMs();
      // x: 2 s after its submission, read 300 local, 100 from a peer
      agents.complete("p/x", sx, sx + 2_000, 300, 100, 0);
      agents.awaitArrivals(2);
      long sy = agents.seen.get(1).getSubmitTimeMs();
      // y: 4 s after its submission, 600 from storage
      agents.complete("p/y", sy, sy + 4_000, 0, 0, 600);
      Summary s = run.get(30, TimeUnit.SECONDS).summary();
      assertThat(s.completed()).isEqualTo(2);
      assertThat(s.meanResponseSeconds()).isEqualTo(3.0);
      assertThat(s.makespanSeconds()).isEqualTo((sy + 4_000 - sx) / 1000.0);
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

  @Test
  void aParentThatNeverCompletesEndsTheReplayAfterTheTimeoutSayingWhatWaits() throws Exception {
    String pool = "wf-timeout";
    try (Agents agents = new Agents(pool)) {
      long t0 = System.nanoTime();
      Replayer.Outcome o = replay(diamond(), pool, Duration.ofSeconds(2), new StringWriter())
          .get(30, TimeUnit.SECONDS);
      assertThat(o.ok()).isFalse();
      assertThat(o.problem()).contains("no job completed for 2 s").contains("2 job(s) published")
          .contains("3 waiting for their parents").contains(pool);
      assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(20));
      assertThat(agents.awaitArrivals(2)).containsExactly("wf/a", "wf/e");
    }
  }

  /** A parent Kafka refused can never complete: its children are reported at once, no timeout. */
  @Test
  void childrenOfARefusedParentEndTheReplayAtOnceNamingThem() throws Exception {
    String pool = "wf-refused";
    List<InputFile> many = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      many.add(InputFile.of("big/input-file-with-a-long-name-" + i, 1));
    }
    Workload w = Workload.of("refused", "test", List.of(
        job("r/parent", 0, List.of(), many, List.of()),
        job("r/child", 0, List.of("r/parent"), List.of(InputFile.of("f", 1)), List.of())));
    long t0 = System.nanoTime();
    // records above 1 kB are refused by the producer: the parent's, not the child's
    Replayer.Outcome o = replay(w, pool, Duration.ofSeconds(60), new StringWriter(),
        Map.of("max.request.size", "1000")).get(30, TimeUnit.SECONDS);
    assertThat(o.ok()).isFalse();
    assertThat(o.problem()).contains("1 of 1 job(s) were not accepted by Kafka")
        .contains("RecordTooLargeException")
        .contains("1 job(s) wait for parents that did not complete and cannot any more:"
            + " r/child (waits for r/parent)");
    assertThat(o.summary().published()).isZero();
    assertThat(o.summary().publishFailed()).isEqualTo(1);
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(20));
  }
}
