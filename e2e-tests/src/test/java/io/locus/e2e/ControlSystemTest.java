package io.locus.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.agent.AgentConfig;
import io.locus.agent.AgentHost;
import io.locus.agent.HostConfig;
import io.locus.agent.sim.SimulatedAgents;
import io.locus.connectors.DeliveryMode;
import io.locus.jobs.EmbeddedLocus;
import io.locus.jobs.cli.LocusCli;
import io.locus.jobs.demo.DemoWorkload;
import io.locus.jobs.demo.TaskEventTracker;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.Topics;
import io.locus.operators.SchedulerConfig;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.Decision;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.SchedulerMetrics;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code locus control} against the whole system (embedded Kafka, the scheduler job on a
 * MiniCluster with RocksDB, simulated agents): a paused pool takes jobs and places none; a policy
 * set while tasks queue re-evaluates them and every later placement carries the new policy; resume
 * completes them all; a refused control exits 1 and is dead-lettered.
 */
@Timeout(300)
class ControlSystemTest {
  private static final String POOL = "e2e-control";
  private static final int TASKS = 20;
  private static final Duration WAIT = Duration.ofSeconds(120);

  private record Run(int code, String out, String err) {}

  private static Run control(String bootstrap, String... args) {
    var cl = LocusCli.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    List<String> all = new ArrayList<>(List.of("control", "--bootstrap-servers", bootstrap,
        "--timeout", "PT60S"));
    all.addAll(List.of(args));
    int code = cl.execute(all.toArray(new String[0]));
    return new Run(code, out.toString(), err.toString());
  }

  @Test
  void pauseSetPolicyUnderLoadResumeAndARefusal() throws Exception {
    SchedulerConfig cfg = new SchedulerConfig(new SchedulerConfig.PolicySpec("FA", Map.of()),
        Map.of(), 1000, 3).withPools(Set.of(POOL));
    try (EmbeddedLocus locus = EmbeddedLocus.start(cfg, DeliveryMode.AT_LEAST_ONCE,
            Duration.ofSeconds(2));
        TaskEventTracker tracker = new TaskEventTracker(locus.bootstrapServers());
        AgentHost<?> agents = agents(locus.bootstrapServers());
        KafkaProducer<byte[], byte[]> producer =
            new KafkaProducer<>(ClientConfigs.producer(locus.bootstrapServers()));
        Decisions decisions = new Decisions(locus.bootstrapServers())) {
      String b = locus.bootstrapServers();
      assertThat(agents.awaitRegistered(Duration.ofSeconds(60))).isTrue();

      Run paused = control(b, POOL, "pause");
      assertThat(paused.code()).as(paused.err()).isZero();
      assertThat(paused.out()).contains("PAUSE_POOL applied").contains("paused=true");

      for (JobSubmitted j : DemoWorkload.generate(POOL, DemoWorkload.Spec.demo(TASKS, 8, 3))) {
        long t = System.currentTimeMillis();
        j.setSubmitTimeMs(t);
        tracker.submitted(j.getJobId(), t);
        producer.send(new ProducerRecord<>(Topics.JOB_ARRIVALS.name(),
            Topics.JOB_ARRIVALS.key(POOL), Topics.JOB_ARRIVALS.value(j))).get();
      }
      // every job reached the pool (its metrics count them queued), and none was placed
      await("all " + TASKS + " jobs queued in the paused pool", () -> {
        SchedulerMetrics m = tracker.latestMetrics(POOL);
        return m != null && m.getQueueLength() == TASKS;
      });
      assertThat(decisions.readToEnd()).filteredOn(d -> d.getAction() instanceof PlaceTask)
          .isEmpty();
      assertThat(tracker.stats(POOL).completed).isZero();

      Run set = control(b, POOL, "set-policy", "MCH", "--param", "window=100");
      assertThat(set.code()).as(set.err()).isZero();
      assertThat(set.out()).contains("FA -> MCH").contains("reevaluated=" + TASKS)
          .contains("paused=true");

      Run resumed = control(b, POOL, "resume");
      assertThat(resumed.code()).as(resumed.err()).isZero();
      assertThat(resumed.out()).contains("RESUME_POOL applied").contains("paused=false")
          .contains("policy=MCH");
      await("all tasks completed after resume", () -> tracker.stats(POOL).completed >= TASKS);
      List<PlaceTask> placed = new ArrayList<>();
      for (Decision d : decisions.readToEnd()) {
        if (d.getAction() instanceof PlaceTask p) {
          placed.add(p);
        }
      }
      assertThat(placed).hasSizeGreaterThanOrEqualTo(TASKS);
      assertThat(placed).allSatisfy(p -> assertThat(p.getReason().getPolicy()).isEqualTo("MCH"));

      Run refused = control(b, POOL, "drain", "ghost-node");
      assertThat(refused.code()).isEqualTo(1);
      assertThat(refused.err()).contains("DRAIN_NODE refused").contains("ghost-node");
      assertThat(deadLetterMentioning(b, "ghost-node")).isNotNull();
      locus.checkJobAlive();
    }
  }

  private static AgentHost<?> agents(String bootstrap) {
    AgentConfig template = AgentConfig.builder(POOL).slots(1).cacheCapacityBytes(1_000_000_000L)
        .storageBandwidth(50e6).peerBandwidth(100e6).localBandwidth(400e6).timeScale(0.01)
        .build();
    HostConfig host = HostConfig.builder(bootstrap)
        .nodeIds(HostConfig.nodeIds(POOL + "-node-", 2))
        .readCommitted(false)
        .startFrom(HostConfig.StartFrom.EARLIEST)
        .ensureTopics(false)
        .build();
    return AgentHost.start(host, new SimulatedAgents(template));
  }

  private static void await(String what, BooleanSupplier done) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + WAIT + ": " + what);
      }
      LockSupport.parkNanos(50_000_000L);
    }
  }

  private static DeadLetter deadLetterMentioning(String bootstrap, String text) {
    try (KafkaConsumer<byte[], byte[]> c =
        new KafkaConsumer<>(ClientConfigs.consumer(bootstrap, null, true))) {
      TopicPartition tp = new TopicPartition(Topics.DEAD_LETTERS.name(), 0);
      c.assign(List.of(tp));
      c.seekToBeginning(List.of(tp));
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
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

  /** The pool's decisions, from every partition of the decisions topic. */
  private static final class Decisions implements AutoCloseable {
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<TopicPartition> parts = new ArrayList<>();
    private final List<Decision> seen = new ArrayList<>();

    Decisions(String bootstrap) {
      consumer = new KafkaConsumer<>(ClientConfigs.consumer(bootstrap, null, false));
      for (int i = 0; i < Topics.DECISIONS.partitions(); i++) {
        parts.add(new TopicPartition(Topics.DECISIONS.name(), i));
      }
      consumer.assign(parts);
      consumer.seekToBeginning(parts);
    }

    /** Everything written up to now (the end offsets when called). */
    List<Decision> readToEnd() {
      Map<TopicPartition, Long> end = consumer.endOffsets(parts);
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (parts.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError("decisions not read to their end within 30 s");
        }
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
          Decision d = Topics.DECISIONS.decode(r.value());
          if (POOL.equals(d.getPool())) {
            seen.add(d);
          }
        }
      }
      return new ArrayList<>(seen);
    }

    @Override
    public void close() {
      consumer.close();
    }
  }
}
