package io.locus.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.agent.AgentConfig;
import io.locus.agent.AgentHost;
import io.locus.agent.HostConfig;
import io.locus.agent.sim.SimulatedAgents;
import io.locus.cli.EmbeddedLocus;
import io.locus.connectors.DeliveryMode;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.TopicTail;
import io.locus.kafka.Topics;
import io.locus.operators.SchedulerConfig;
import io.locus.schemas.DataUnit;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 24's flood case against the whole system (embedded Kafka, the scheduler job on a
 * MiniCluster with RocksDB, simulated agents through Kafka): a pool of 4 nodes × 2 slots with two
 * queues of equal weight, each guaranteed 4 slots. Queue {@code flood} submits 20 times the pool's
 * slots of tasks first and takes every slot (borrowing {@code late}'s idle guarantee); then
 * {@code late} submits 20 tasks. <b>The bound</b>: {@code late} holds its guarantee (4 running)
 * within one task length (the time a running attempt of {@code flood} needs to end, so a slot
 * frees) plus {@link #SLACK} for the pipeline (Kafka, the operator, the agent), after its first
 * task was submitted. Without fair share (FIFO, today's behaviour before issue 24) it waits for
 * the whole flood ahead of it: 160 tasks / 8 slots × one task length, about 20 times the bound.
 * Every task completes, once.
 */
@Tag("integration")
@Timeout(300)
class FairShareFloodSystemTest {
  private static final int NODES = 4;
  private static final int SLOTS = 2;
  private static final int FLOOD = 20 * NODES * SLOTS;
  private static final int LATE = 20;
  /** Modelled compute per task, and the agents' time scale: one task length = 1.5 s of wall. */
  private static final double COMPUTE = 30.0;
  private static final double TIME_SCALE = 0.05;
  private static final Duration TASK_LENGTH = Duration.ofMillis((long) (COMPUTE * TIME_SCALE
      * 1000));
  /** Kafka + operator + agent latency allowed on a loaded 2-core machine. */
  private static final Duration SLACK = Duration.ofSeconds(4);

  @TempDir Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"FA", "MCH"})
  void theLateQueueReachesItsGuaranteeWithinOneTaskLength(String policy) throws Exception {
    String pool = "flood-" + policy.toLowerCase(java.util.Locale.ROOT);
    SchedulerConfig cfg = new SchedulerConfig(new SchedulerConfig.PolicySpec(policy, Map.of()),
        Map.of(), 1000, 3).withPools(Set.of(pool));
    List<TaskEvent> events = new CopyOnWriteArrayList<>();
    try (EmbeddedLocus locus = EmbeddedLocus.start(cfg, DeliveryMode.AT_LEAST_ONCE,
            Duration.ofSeconds(2));
        AgentHost<?> agents = agents(locus.bootstrapServers(), pool);
        TopicTail tail = TopicTail.builder(ClientConfigs.base(locus.bootstrapServers()))
            .name("flood-follower").follow(Topics.TASK_EVENTS, (e, m) -> events.add(e))
            .start();
        KafkaProducer<byte[], byte[]> producer =
            new KafkaProducer<>(ClientConfigs.producer(locus.bootstrapServers()))) {
      String b = locus.bootstrapServers();
      assertThat(agents.awaitRegistered(Duration.ofSeconds(60))).isTrue();
      Path tree = tmp.resolve("queues.yaml");
      Files.writeString(tree, """
          pool: %s
          queues:
            - name: flood
              guaranteedSlots: 4
            - name: late
              guaranteedSlots: 4
          """.formatted(pool));
      WholeSystem.CliRun applied = WholeSystem.cli("queues", "apply", tree.toString(),
          "--bootstrap-servers", b, "--timeout", "PT60S");
      assertThat(applied.code()).as(applied.err()).isZero();

      List<String> all = new ArrayList<>();
      for (int i = 0; i < FLOOD; i++) {
        all.add(send(producer, pool, "flood", i));
      }
      WholeSystem.await(Duration.ofSeconds(60), "flood holds every slot",
          () -> running(events, "flood", Long.MAX_VALUE) == NODES * SLOTS);
      long lateAt = System.currentTimeMillis();
      for (int i = 0; i < LATE; i++) {
        all.add(send(producer, pool, "late", i));
      }
      WholeSystem.await(Duration.ofSeconds(120), "late reaches its guarantee",
          () -> running(events, "late", Long.MAX_VALUE) >= 4 || completed(events, "late") >= 4);
      long reached = firstTimeRunning(events, "late", 4);
      long bound = TASK_LENGTH.plus(SLACK).toMillis();
      System.out.printf("flood (%s): late held its guarantee %d ms after its first submission"
          + " (bound %d ms)%n", policy, reached - lateAt, bound);
      assertThat(reached - lateAt).as("ms from late's first submission to 4 running")
          .isLessThanOrEqualTo(bound);

      WholeSystem.await(Duration.ofSeconds(240), "every task completed",
          () -> completedIds(events).containsAll(all));
      assertThat(completions(events)).as("each task completed once").isEqualTo(all.size());
      locus.checkJobAlive();
    }
  }

  private static AgentHost<?> agents(String bootstrap, String pool) {
    AgentConfig template = AgentConfig.builder(pool).slots(SLOTS)
        .cacheCapacityBytes(1_000_000_000L).storageBandwidth(50e6).peerBandwidth(100e6)
        .localBandwidth(400e6).timeScale(TIME_SCALE).build();
    HostConfig host = HostConfig.builder(bootstrap)
        .nodeIds(HostConfig.nodeIds(pool + "-node-", NODES))
        .readCommitted(false).startFrom(HostConfig.StartFrom.EARLIEST).ensureTopics(false)
        .build();
    return AgentHost.start(host, new SimulatedAgents(template));
  }

  /**
   * One task of {@code queue}: one 1 MB input of 40 files per queue, each read by several tasks
   * (so MCH has holders to prefer, and enough distinct files that every node holds some).
   */
  private static String send(KafkaProducer<byte[], byte[]> producer, String pool, String queue,
      int i) throws Exception {
    String id = pool + "-" + queue + "-" + i;
    JobSubmitted j = JobSubmitted.newBuilder().setJobId(id).setPool(pool)
        .setSubmitTimeMs(System.currentTimeMillis()).setComputeSeconds(COMPUTE)
        .setInputs(List.of(DataUnit.newBuilder().setId(queue + "-file-" + (i % 40))
            .setBytes(1_000_000L).build()))
        .setQueue(queue).build();
    producer.send(new ProducerRecord<>(Topics.JOB_ARRIVALS.name(), Topics.JOB_ARRIVALS.key(pool),
        Topics.JOB_ARRIVALS.value(j))).get(30, TimeUnit.SECONDS);
    return id;
  }

  private static boolean ofQueue(TaskEvent e, String queue) {
    return e.getJobId().contains("-" + queue + "-");
  }

  /** Attempts of {@code queue} started and not ended at or before {@code at} (agent clock). */
  private static int running(List<TaskEvent> events, String queue, long at) {
    Set<String> run = new HashSet<>();
    List<TaskEvent> sorted = new ArrayList<>(events);
    sorted.sort(Comparator.comparingLong(TaskEvent::getTimeMs));
    for (TaskEvent e : sorted) {
      if (e.getTimeMs() > at || !ofQueue(e, queue)) {
        continue;
      }
      String key = e.getTaskId() + "#" + e.getAttempt();
      if (e.getType() == TaskEventType.STARTED) {
        run.add(key);
      } else {
        run.remove(key);
      }
    }
    return run.size();
  }

  /** The first agent-clock time at which {@code n} attempts of {@code queue} ran at once. */
  private static long firstTimeRunning(List<TaskEvent> events, String queue, int n) {
    List<TaskEvent> sorted = new ArrayList<>(events);
    sorted.sort(Comparator.comparingLong(TaskEvent::getTimeMs));
    Set<String> run = new HashSet<>();
    for (TaskEvent e : sorted) {
      if (!ofQueue(e, queue)) {
        continue;
      }
      String key = e.getTaskId() + "#" + e.getAttempt();
      if (e.getType() == TaskEventType.STARTED) {
        run.add(key);
        if (run.size() >= n) {
          return e.getTimeMs();
        }
      } else {
        run.remove(key);
      }
    }
    return Long.MAX_VALUE;
  }

  private static long completed(List<TaskEvent> events, String queue) {
    return events.stream().filter(e -> e.getType() == TaskEventType.COMPLETED
        && ofQueue(e, queue)).count();
  }

  private static Set<String> completedIds(List<TaskEvent> events) {
    Set<String> ids = new HashSet<>();
    for (TaskEvent e : events) {
      if (e.getType() == TaskEventType.COMPLETED) {
        ids.add(e.getJobId());
      }
    }
    return ids;
  }

  private static long completions(List<TaskEvent> events) {
    return events.stream().filter(e -> e.getType() == TaskEventType.COMPLETED)
        .map(e -> e.getTaskId() + "#" + e.getAttempt()).distinct().count();
  }
}
