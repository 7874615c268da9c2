package io.locus.agent.sim;

import static io.locus.agent.TestDecisions.MB;
import static io.locus.agent.TestDecisions.decision;
import static io.locus.agent.TestDecisions.peer;
import static io.locus.agent.TestDecisions.rangeTask;
import static io.locus.agent.TestDecisions.shrink;
import static io.locus.agent.TestDecisions.storage;
import static io.locus.agent.TestDecisions.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.locus.agent.AgentConfig;
import io.locus.agent.AgentHost;
import io.locus.agent.HostConfig;
import io.locus.agent.AgentStats;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.testkit.EmbeddedKafka;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.Topics;
import io.locus.agent.NodeAgent;
import io.locus.schemas.CachedFile;
import io.locus.schemas.DataUnit;
import io.locus.schemas.Decision;
import io.locus.schemas.EventRange;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.testkit.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Agents against a real (embedded) broker: registration, decisions in, events out. */
@Tag("integration")
@Timeout(60)
class SimulatedAgentHostTest {
  private static final Duration DEADLINE = Duration.ofSeconds(30);

  private static EmbeddedKafka kafka;
  private static KafkaProducer<byte[], byte[]> decisions;

  private final List<TaskEvent> events = new ArrayList<>();
  private final List<NodeReport> reports = new ArrayList<>();
  /** Each record's timestamp: the producer's clock when the agent sent it (CreateTime). */
  private KafkaConsumer<byte[], byte[]> observer;
  private String pool;

  @BeforeAll
  static void startKafka() {
    kafka = EmbeddedKafka.start();
    TopicAdmin.ensureTopics(kafka.bootstrapServers(), Topics.ALL);
    decisions = new KafkaProducer<>(ClientConfigs.producer(kafka.bootstrapServers()));
  }

  @AfterAll
  static void stopKafka() {
    if (decisions != null) {
      decisions.close();
    }
    if (kafka != null) {
      kafka.close();
    }
  }

  @BeforeEach
  void observe() {
    pool = "pool-" + UUID.randomUUID().toString().substring(0, 8);
    observer = new KafkaConsumer<>(ClientConfigs.consumer(kafka.bootstrapServers(), null, false));
    // Everything of a pool is in the partition its key hashes to.
    List<TopicPartition> tps = List.of(
        new TopicPartition(Topics.TASK_EVENTS.name(),
            Topics.partitionOf(pool, Topics.TASK_EVENTS.partitions())),
        new TopicPartition(Topics.NODE_REPORTS.name(),
            Topics.partitionOf(pool, Topics.NODE_REPORTS.partitions())));
    observer.assign(tps);
    observer.seekToBeginning(tps);
  }

  @AfterEach
  void stopObserving() {
    observer.close();
  }

  private AgentConfig.Builder template() {
    return AgentConfig.builder(pool).timeScale(0.01).heartbeatMs(500)
        .cacheCapacityBytes(500 * MB);
  }

  private SimulatedAgents agents() {
    return new SimulatedAgents(template().build());
  }

  private void send(Decision d) {
    decisions.send(new ProducerRecord<>(Topics.DECISIONS.name(), Topics.DECISIONS.key(d.getNode()),
        Topics.DECISIONS.value(d)));
    decisions.flush();
  }

  /** Polls the pool's events and reports until the condition holds; fails at the deadline. */
  private void awaitUntil(String what, BooleanSupplier condition) {
    // No pause between checks: the consumer's poll waits up to 100 ms by itself.
    Await.atMost(DEADLINE).pollEvery(Duration.ZERO).until("waiting for " + what, () -> {
      if (condition.getAsBoolean()) {
        return true;
      }
      for (ConsumerRecord<byte[], byte[]> r : observer.poll(Duration.ofMillis(100))) {
        if (r.topic().equals(Topics.TASK_EVENTS.name())) {
          TaskEvent e = Topics.TASK_EVENTS.decode(r.value());
          if (e.getPool().equals(pool)) {
            events.add(e);
          }
        } else {
          NodeReport n = Topics.NODE_REPORTS.decode(r.value());
          if (n.getPool().equals(pool)) {
            reports.add(n);
          }
        }
      }
      return false;
    });
  }

  private List<TaskEvent> events(Predicate<TaskEvent> p) {
    return events.stream().filter(p).toList();
  }

  private List<NodeReport> reports(NodeReportType type) {
    return reports.stream().filter(r -> r.getType() == type).toList();
  }

  private static Predicate<TaskEvent> is(String taskId, TaskEventType type) {
    return e -> e.getTaskId().equals(taskId) && e.getType() == type;
  }

  @Test
  void agentsRegisterRunADecisionAndIgnoreItsDuplicate() throws Exception {
    List<String> nodes = HostConfig.nodeIds("a-", 3);
    HostConfig cfg = HostConfig.builder(kafka.bootstrapServers())
        .nodeIds(nodes).readCommitted(false).build();
    try (AgentHost<NodeAgent> host = AgentHost.start(cfg, agents())) {
      assertThat(host.awaitRegistered(DEADLINE)).isTrue();
      awaitUntil("3 REGISTER", () -> reports(NodeReportType.REGISTER).size() == 3);
      assertThat(reports(NodeReportType.REGISTER)).extracting(NodeReport::getNode)
          .containsExactlyInAnyOrderElementsOf(nodes);
      assertThat(reports(NodeReportType.REGISTER)).allSatisfy(r -> {
        assertThat(r.getSlots()).isEqualTo(2);
        assertThat(r.getCacheCapacityBytes()).isEqualTo(500 * MB);
        assertThat(r.getSeq()).isZero();
      });

      Decision d1 = decision("d1", 1, pool, "a-01", task("t1", 1.0, storage("f1", 50 * MB)));
      send(d1);
      awaitUntil("t1 COMPLETED", () -> !events(is("t1", TaskEventType.COMPLETED)).isEmpty());
      List<TaskEvent> t1 = events(e -> e.getTaskId().equals("t1"));
      assertThat(t1).extracting(TaskEvent::getType)
          .containsExactly(TaskEventType.STARTED, TaskEventType.COMPLETED);
      TaskEvent done = t1.get(1);
      assertThat(done.getNode()).isEqualTo("a-01");
      assertThat(done.getDecisionId()).isEqualTo("d1");
      assertThat(done.getBytesStorage()).isEqualTo(50 * MB);
      assertThat(done.getBytesPeer()).isZero();
      assertThat(done.getBytesLocal()).isZero();
      // 50 MB at 125 MB/s + 1 s compute, at 1/100 of real time: at least 14 ms.
      assertThat(done.getEndTimeMs() - done.getStartTimeMs()).isGreaterThanOrEqualTo(14);
      awaitUntil("a-01's delta", () -> !reports(NodeReportType.CACHE_DELTA).isEmpty());
      NodeReport delta = reports(NodeReportType.CACHE_DELTA).get(0);
      assertThat(delta.getNode()).isEqualTo("a-01");
      assertThat(delta.getSeq()).isEqualTo(1);

      // a-02 reads f1 from its peer a-01 (same host: looked up directly).
      send(decision("d2", 1, pool, "a-02", task("t2", 0.5, peer("f1", 50 * MB, "a-01"))));
      awaitUntil("t2 COMPLETED", () -> !events(is("t2", TaskEventType.COMPLETED)).isEmpty());
      assertThat(events(is("t2", TaskEventType.COMPLETED)).get(0).getBytesPeer())
          .isEqualTo(50 * MB);

      // The duplicate of d1, then a marker decision behind it in the same partition: once the
      // marker is done, the duplicate has been read: it is answered with t1's COMPLETED again,
      // and runs nothing.
      send(d1);
      send(decision("d3", 1, pool, "a-01", task("t3", 0)));
      awaitUntil("t3 COMPLETED", () -> !events(is("t3", TaskEventType.COMPLETED)).isEmpty());
      assertThat(events(e -> e.getTaskId().equals("t1"))).extracting(TaskEvent::getType)
          .containsExactly(TaskEventType.STARTED, TaskEventType.COMPLETED,
              TaskEventType.COMPLETED);
      AgentStats s = host.stats();
      assertThat(s.duplicateDecisions()).isEqualTo(1);
      assertThat(s.tasksCompleted()).isEqualTo(3);
      assertThat(s.bytesStorage()).isEqualTo(50 * MB);
      assertThat(s.bytesPeer()).isEqualTo(50 * MB);
      assertThat(host.statsByNode().get("a-01").tasksCompleted()).isEqualTo(2);
      assertThat(host.decodeErrors()).isZero();
      assertThat(host.sendFailures()).isZero();
      assertThat(host.consumerFailure()).isNull();
      awaitUntil("heartbeats", () -> reports(NodeReportType.HEARTBEAT).size() >= 3);
    }
    awaitUntil("3 LEAVE", () -> reports(NodeReportType.LEAVE).size() == 3);
  }

  @Test
  void aTasksOutputsAreReportedOnNodeReportsAndReadByAChildFromThatPeer() throws Exception {
    HostConfig cfg = HostConfig.builder(kafka.bootstrapServers())
        .nodeIds(List.of("o-00", "o-01")).readCommitted(false).build();
    try (AgentHost<NodeAgent> host = AgentHost.start(cfg, agents())) {
      assertThat(host.awaitRegistered(DEADLINE)).isTrue();
      PlaceTask parent = PlaceTask.newBuilder(task("parent", 0.5))
          .setOutputs(List.of(DataUnit.newBuilder().setId("wf/o1").setBytes(20 * MB).build(),
              DataUnit.newBuilder().setId("wf/o2").setBytes(5 * MB).build()))
          .build();
      send(decision("p1", 1, pool, "o-00", parent));
      awaitUntil("parent COMPLETED",
          () -> !events(is("parent", TaskEventType.COMPLETED)).isEmpty());
      TaskEvent completed = events(is("parent", TaskEventType.COMPLETED)).get(0);
      awaitUntil("o-00's delta", () -> !reports(NodeReportType.CACHE_DELTA).isEmpty());
      NodeReport delta = reports(NodeReportType.CACHE_DELTA).get(0);
      assertThat(delta.getNode()).isEqualTo("o-00");
      assertThat(delta.getAdded()).containsExactly(new CachedFile("wf/o1", 20 * MB),
          new CachedFile("wf/o2", 5 * MB));
      // Sent first: the delta is stamped no later than COMPLETED by the agent's own clock (the
      // records' timestamps cannot be compared: node-reports is a LogAppendTime topic, stamped
      // by the broker on arrival, task-events keeps the producer's time).
      assertThat(delta.getTimeMs()).isLessThanOrEqualTo(completed.getTimeMs());

      send(decision("c1", 1, pool, "o-01", task("child", 0.1, peer("wf/o1", 20 * MB, "o-00"))));
      awaitUntil("child COMPLETED", () -> !events(is("child", TaskEventType.COMPLETED)).isEmpty());
      assertThat(events(is("child", TaskEventType.COMPLETED)).get(0).getBytesPeer())
          .isEqualTo(20 * MB);
      assertThat(host.stats().outputsCached()).isEqualTo(2);
    }
  }

  @Test
  void anEventRangeTaskShrunkThroughKafkaCompletesAtTheAcknowledgedEnd() throws Exception {
    HostConfig cfg = HostConfig.builder(kafka.bootstrapServers())
        .nodeIds(List.of("c-00")).readCommitted(false).build();
    try (AgentHost<NodeAgent> host = AgentHost.start(cfg, agents())) {
      assertThat(host.awaitRegistered(DEADLINE)).isTrue();
      // 500 events of 2 s at 1/100 of real time: 20 ms each, 10 s for the whole range; the
      // shrink follows the placement in the node's partition, so it finds the task running.
      send(decision("r1", 1, pool, "c-00", rangeTask("cern", 1_000, 1_500, 2.0)));
      send(decision("r2", 1, pool, "c-00", shrink("cern", 1_100)));
      awaitUntil("cern COMPLETED", () -> !events(is("cern", TaskEventType.COMPLETED)).isEmpty());

      List<TaskEvent> cern = events(e -> e.getTaskId().equals("cern"));
      assertThat(cern).extracting(TaskEvent::getType).containsExactly(TaskEventType.STARTED,
          TaskEventType.SHRUNK, TaskEventType.COMPLETED);
      TaskEvent ack = cern.get(1);
      assertThat(ack.getDecisionId()).isEqualTo("r2");
      long stopAt = ack.getStopAt();
      // at least what was asked (the agent may have been past it), and less than the whole range
      assertThat(stopAt).isBetween(1_100L, 1_499L);
      TaskEvent done = cern.get(2);
      assertThat(done.getDecisionId()).isEqualTo("r1");
      assertThat(done.getEvents()).isEqualTo(new EventRange("lhcb", 1_000L, stopAt));
      assertThat(host.agent("c-00").processedRanges()).containsExactly(
          new NodeAgent.ProcessedRange("job-cern", "cern", 0, "lhcb", 1_000, stopAt,
              TaskEventType.COMPLETED));
      assertThat(host.stats().shrinksAcknowledged()).isEqualTo(1);
      assertThat(host.stats().eventsProcessed()).isEqualTo(stopAt - 1_000);
    }
  }

  @Test
  void readCommittedSkipsAbortedDecisionsAndEarliestReplaysWhatWasWritten() throws Exception {
    Properties tx = ClientConfigs.producer(kafka.bootstrapServers());
    tx.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "test-scheduler-" + pool);
    try (KafkaProducer<byte[], byte[]> scheduler = new KafkaProducer<>(tx)) {
      scheduler.initTransactions();
      // Written before the host starts: only EARLIEST sees them.
      scheduler.beginTransaction();
      scheduler.send(record(decision("x1", 1, pool, "b-00", task("aborted", 0))));
      scheduler.abortTransaction();
      scheduler.beginTransaction();
      scheduler.send(record(decision("x2", 1, pool, "b-00", task("committed", 0))));
      scheduler.commitTransaction();
    }
    HostConfig cfg = HostConfig.builder(kafka.bootstrapServers())
        .nodeIds(List.of("b-00")).readCommitted(true)
        .startFrom(HostConfig.StartFrom.EARLIEST).build();
    try (AgentHost<NodeAgent> host = AgentHost.start(cfg, agents())) {
      awaitUntil("committed COMPLETED",
          () -> !events(is("committed", TaskEventType.COMPLETED)).isEmpty());
      assertThat(events(e -> e.getTaskId().equals("aborted"))).isEmpty();
      assertThat(host.stats().tasksStarted()).isEqualTo(1);
    }
  }

  private static ProducerRecord<byte[], byte[]> record(Decision d) {
    return new ProducerRecord<>(Topics.DECISIONS.name(), Topics.DECISIONS.key(d.getNode()),
        Topics.DECISIONS.value(d));
  }
}
