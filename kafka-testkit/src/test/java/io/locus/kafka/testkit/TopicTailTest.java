package io.locus.kafka.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.kafka.ClientConfigs;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.TopicTail;
import io.locus.kafka.TopicTail.Meta;
import io.locus.kafka.TopicTail.Start;
import io.locus.kafka.Topics;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link TopicTail} against an in-JVM broker: every partition read in offset order, each start
 * position, a bounded read, a topic created after the tail started, a broker restart, and close.
 */
@Tag("integration")
@Timeout(120)
class TopicTailTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final List<String> POOLS = List.of("pool-a", "pool-b", "pool-c", "pool-d");

  @TempDir Path dir;
  private EmbeddedKafka kafka;
  private KafkaProducer<byte[], byte[]> producer;
  /** What the tail handed over, in the order it did. */
  private final BlockingQueue<Read> read = new LinkedBlockingQueue<>();

  private record Read(TaskEvent event, Meta meta) {}

  @BeforeEach
  void broker() {
    kafka = EmbeddedKafka.start(dir.resolve("kafka"), Map.of());
    producer = new KafkaProducer<>(ClientConfigs.producer(kafka.bootstrapServers()));
  }

  @AfterEach
  void stop() {
    producer.close(Duration.ZERO);
    kafka.close();
  }

  @Test
  void readsEveryPartitionFromTheBeginningInOffsetOrderAndSkipsWhatDoesNotDecode()
      throws Exception {
    TopicAdmin.ensureTopics(kafka.bootstrapServers(), List.of(Topics.TASK_EVENTS));
    List<TaskEvent> sent = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      sent.add(send(POOLS.get(i % POOLS.size()), "t-" + i, 1_000L));
    }
    producer.send(new ProducerRecord<>(Topics.TASK_EVENTS.name(), "pool-a".getBytes(),
        new byte[] {1, 2, 3})).get();

    try (TopicTail tail = tail(Start.beginning()).start()) {
      List<Read> got = take(sent.size());
      assertThat(tail.awaitCaughtUp(WAIT)).isTrue();
      assertThat(got).extracting(Read::event).containsExactlyInAnyOrderElementsOf(sent);
      // One pool's events share a partition: they arrive in the order they were written.
      for (String pool : POOLS) {
        assertThat(got.stream().filter(r -> r.event().getPool().equals(pool))
            .map(r -> r.event().getTaskId()).toList())
            .isEqualTo(sent.stream().filter(e -> e.getPool().equals(pool))
                .map(TaskEvent::getTaskId).toList());
      }
      Map<Integer, List<Long>> offsets = new HashMap<>();
      got.forEach(r -> offsets.computeIfAbsent(r.meta().partition(), p -> new ArrayList<>())
          .add(r.meta().offset()));
      offsets.values().forEach(o -> assertThat(o).isSorted().doesNotHaveDuplicates());
      assertThat(tail.undecodable()).isEqualTo(1);
      assertThat(tail.failure()).isNull();
    }
  }

  @Test
  void startingAtTheEndReadsOnlyWhatIsWrittenOnceItIsPositioned() throws Exception {
    TopicAdmin.ensureTopics(kafka.bootstrapServers(), List.of(Topics.TASK_EVENTS));
    send("pool-a", "before", 1_000L);
    try (TopicTail tail = tail(Start.end()).start()) {
      assertThat(tail.awaitPositioned(WAIT)).isTrue();
      TaskEvent after = send("pool-a", "after", 2_000L);
      // "before" sits at an earlier offset of the same partition: read, it would come first.
      assertThat(take(1)).extracting(Read::event).containsExactly(after);
    }
  }

  @Test
  void startingAtATimestampSkipsWhatIsOlder() throws Exception {
    TopicAdmin.ensureTopics(kafka.bootstrapServers(), List.of(Topics.TASK_EVENTS));
    for (String pool : POOLS) {
      send(pool, pool + "-old", 1_000L);
    }
    List<TaskEvent> recent = new ArrayList<>();
    for (String pool : POOLS) {
      recent.add(send(pool, pool + "-new", 5_000L));
    }
    try (TopicTail tail = tail(Start.at(3_000L)).start()) {
      assertThat(take(recent.size())).extracting(Read::event)
          .containsExactlyInAnyOrderElementsOf(recent);
      assertThat(tail.awaitCaughtUp(WAIT)).isTrue();
      assertThat(read).isEmpty();
    }
  }

  @Test
  void aBoundedReadStopsAtTheEndItFoundAndNamesTheTopicsThatDoNotExist() throws Exception {
    TopicAdmin.ensureTopics(kafka.bootstrapServers(), List.of(Topics.TASK_EVENTS));
    TaskEvent first = send("pool-a", "t-1", 1_000L);
    TopicTail tail = tail(Start.beginning())
        .follow(Topics.DECISIONS, (d, m) -> {}) // never created
        .untilEnd()
        .start();
    try (tail) {
      assertThat(tail.awaitCaughtUp(WAIT)).isTrue();
      assertThat(tail.awaitStopped(WAIT)).isTrue();
      assertThat(tail.missingTopics()).containsExactly(Topics.DECISIONS.name());
      assertThat(read).extracting(Read::event).containsExactly(first);
    }
  }

  @Test
  void aTopicCreatedAfterTheTailStartedIsReadFromItsBeginningEvenFromTheEnd() throws Exception {
    try (TopicTail tail = tail(Start.end()).start()) {
      assertThat(tail.awaitPositioned(Duration.ofSeconds(1))).isFalse(); // no such topic yet
      TopicAdmin.ensureTopics(kafka.bootstrapServers(), List.of(Topics.TASK_EVENTS));
      TaskEvent e = send("pool-b", "t-1", 1_000L);
      assertThat(take(1)).extracting(Read::event).containsExactly(e);
      assertThat(tail.awaitPositioned(WAIT)).isTrue();
    }
  }

  @Test
  void keepsReadingAcrossABrokerRestart() throws Exception {
    TopicAdmin.ensureTopics(kafka.bootstrapServers(), List.of(Topics.TASK_EVENTS));
    int port = Integer.parseInt(kafka.bootstrapServers().replaceAll(".*:", ""));
    try (TopicTail tail = tail(Start.beginning()).start()) {
      TaskEvent before = send("pool-a", "before", 1_000L);
      assertThat(take(1)).extracting(Read::event).containsExactly(before);

      producer.close(Duration.ZERO);
      kafka.close();
      kafka = EmbeddedKafka.start(dir.resolve("kafka"), port, Map.of());
      producer = new KafkaProducer<>(ClientConfigs.producer(kafka.bootstrapServers()));

      TaskEvent after = send("pool-a", "after", 2_000L);
      assertThat(take(1)).extracting(Read::event).containsExactly(after);
      assertThat(tail.failure()).isNull();
    }
  }

  @Test
  void closeEndsTheThread() throws Exception {
    TopicAdmin.ensureTopics(kafka.bootstrapServers(), List.of(Topics.TASK_EVENTS));
    TopicTail tail = tail(Start.beginning()).start();
    assertThat(tail.awaitPositioned(WAIT)).isTrue();
    assertThat(tail.stopped()).isFalse();
    tail.close();
    assertThat(tail.stopped()).isTrue();
    assertThat(Thread.getAllStackTraces().keySet())
        .noneMatch(t -> t.getName().equals("test-tail") && t.isAlive());
    assertThat(tail.failure()).isNull();
  }

  /** A tail over task-events that hands each event to {@link #read}. */
  private TopicTail.Builder tail(Start start) {
    Properties client = ClientConfigs.consumer(kafka.bootstrapServers(), null, true);
    return TopicTail.builder(client)
        .name("test-tail")
        .from(start)
        .follow(Topics.TASK_EVENTS, (e, meta) -> read.add(new Read(e, meta)));
  }

  private TaskEvent send(String pool, String taskId, long timestampMs) throws Exception {
    TaskEvent e = TaskEvent.newBuilder().setPool(pool).setTaskId(taskId).setJobId(taskId)
        .setAttempt(0).setNode("n-1").setType(TaskEventType.COMPLETED).setTimeMs(timestampMs)
        .build();
    producer.send(new ProducerRecord<>(Topics.TASK_EVENTS.name(), null, timestampMs,
        Topics.TASK_EVENTS.key(pool), Topics.TASK_EVENTS.value(e))).get();
    return e;
  }

  /** The next {@code n} records the tail handed over, each within {@link #WAIT}. */
  private List<Read> take(int n) throws InterruptedException {
    List<Read> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Read r = read.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
      assertThat(r).as("record %d of %d within %s", i + 1, n, WAIT).isNotNull();
      out.add(r);
    }
    return out;
  }
}
