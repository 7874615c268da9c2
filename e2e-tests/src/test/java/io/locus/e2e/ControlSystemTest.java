package io.locus.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.agent.AgentHost;
import io.locus.connectors.DeliveryMode;
import io.locus.cli.EmbeddedLocus;
import io.locus.cli.demo.DemoWorkload;
import io.locus.cli.demo.TaskEventTracker;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.Topics;
import io.locus.operators.SchedulerConfig;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.Decision;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.SchedulerMetrics;
import io.locus.testkit.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code locus control} against the whole system (embedded Kafka, the scheduler job on a
 * MiniCluster with RocksDB, simulated agents): a paused pool takes jobs and places none; a policy
 * set while tasks queue re-evaluates them and every later placement carries the new policy; resume
 * completes them all; a refused control exits 1 and is dead-lettered.
 */
@Tag("integration")
@Timeout(300)
class ControlSystemTest {
  private static final String POOL = "e2e-control";
  private static final int TASKS = 20;
  private static final Duration WAIT = Duration.ofSeconds(120);

  @Test
  void pauseSetPolicyUnderLoadResumeAndARefusal() throws Exception {
    SchedulerConfig cfg = new SchedulerConfig(new SchedulerConfig.PolicySpec("FA", Map.of()),
        Map.of(), 1000, 3).withPools(Set.of(POOL));
    try (EmbeddedLocus locus = EmbeddedLocus.start(cfg, DeliveryMode.AT_LEAST_ONCE,
            Duration.ofSeconds(2));
        TaskEventTracker tracker = new TaskEventTracker(locus.bootstrapServers());
        AgentHost<?> agents = WholeSystem.simulatedAgents(locus.bootstrapServers(), POOL, 2, 1);
        KafkaProducer<byte[], byte[]> producer =
            new KafkaProducer<>(ClientConfigs.producer(locus.bootstrapServers()));
        Decisions decisions = new Decisions(locus.bootstrapServers())) {
      String b = locus.bootstrapServers();
      assertThat(agents.awaitRegistered(Duration.ofSeconds(60))).isTrue();

      WholeSystem.CliRun paused = WholeSystem.control(b, POOL, "pause");
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
      WholeSystem.await(WAIT, "all " + TASKS + " jobs queued in the paused pool", () -> {
        SchedulerMetrics m = tracker.latestMetrics(POOL);
        return m != null && m.getQueueLength() == TASKS;
      });
      assertThat(decisions.readToEnd()).filteredOn(d -> d.getAction() instanceof PlaceTask)
          .isEmpty();
      assertThat(tracker.stats(POOL).completed).isZero();

      WholeSystem.CliRun set = WholeSystem.control(b, POOL, "set-policy", "MCH", "--param", "window=100");
      assertThat(set.code()).as(set.err()).isZero();
      assertThat(set.out()).contains("FA -> MCH").contains("reevaluated=" + TASKS)
          .contains("paused=true");

      WholeSystem.CliRun resumed = WholeSystem.control(b, POOL, "resume");
      assertThat(resumed.code()).as(resumed.err()).isZero();
      assertThat(resumed.out()).contains("RESUME_POOL applied").contains("paused=false")
          .contains("policy=MCH");
      WholeSystem.await(WAIT, "all tasks completed after resume",
          () -> tracker.stats(POOL).completed >= TASKS);
      List<PlaceTask> placed = new ArrayList<>();
      for (Decision d : decisions.readToEnd()) {
        if (d.getAction() instanceof PlaceTask p) {
          placed.add(p);
        }
      }
      assertThat(placed).hasSizeGreaterThanOrEqualTo(TASKS);
      assertThat(placed).allSatisfy(p -> assertThat(p.getReason().getPolicy()).isEqualTo("MCH"));

      WholeSystem.CliRun refused = WholeSystem.control(b, POOL, "drain", "ghost-node");
      assertThat(refused.code()).isEqualTo(1);
      assertThat(refused.err()).contains("DRAIN_NODE refused").contains("ghost-node");
      assertThat(deadLetterMentioning(b, "ghost-node")).isNotNull();
      locus.checkJobAlive();
    }
  }

  private static DeadLetter deadLetterMentioning(String bootstrap, String text) {
    try (KafkaConsumer<byte[], byte[]> c =
        new KafkaConsumer<>(ClientConfigs.consumer(bootstrap, null, true))) {
      TopicPartition tp = new TopicPartition(Topics.DEAD_LETTERS.name(), 0);
      c.assign(List.of(tp));
      c.seekToBeginning(List.of(tp));
      // Returns null at the deadline for the caller's assertion to report: a bounded read.
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
      // No pause between checks: the consumer's poll waits up to 200 ms by itself.
      Await.atMost(Duration.ofSeconds(30)).pollEvery(Duration.ZERO).until(
          "decisions read to their end", () -> {
            if (parts.stream().allMatch(tp -> consumer.position(tp) >= end.get(tp))) {
              return true;
            }
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
              Decision d = Topics.DECISIONS.decode(r.value());
              if (POOL.equals(d.getPool())) {
                seen.add(d);
              }
            }
            return false;
          });
      return new ArrayList<>(seen);
    }

    @Override
    public void close() {
      consumer.close();
    }
  }
}
