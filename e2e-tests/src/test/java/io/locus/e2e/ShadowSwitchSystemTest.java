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
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.ShadowDecision;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Shadow policies against the whole system (embedded Kafka, the scheduler on a MiniCluster with
 * RocksDB, simulated agents): a pool runs FA with MCH and GCC as shadows; after a first workload
 * the shadow with the lowest predicted mean response is switched in with {@code locus control};
 * a second workload of the same shape runs under it. The test prints, per policy, the shadow's
 * prediction and the measured real run (docs/operations.md, "Shadow policies", shows a run).
 */
@Tag("integration")
@Timeout(300)
class ShadowSwitchSystemTest {
  private static final String POOL = "e2e-shadow";
  private static final int TASKS = 200;
  private static final double TIME_SCALE = 0.01;
  private static final Duration WAIT = Duration.ofSeconds(150);

  @Test
  void shadowsScoreBesideTheActivePolicyAndTheBestOneIsSwitchedIn() throws Exception {
    SchedulerConfig cfg = new SchedulerConfig(new SchedulerConfig.PolicySpec("FA", Map.of()),
        Map.of(), 1000, 3).withPools(Set.of(POOL))
        .withShadows(Map.of(POOL, List.of(new SchedulerConfig.PolicySpec("MCH", Map.of()),
            new SchedulerConfig.PolicySpec("GCC", Map.of()))))
        .withShadowTimeScale(TIME_SCALE);
    try (EmbeddedLocus locus = EmbeddedLocus.start(cfg, DeliveryMode.AT_LEAST_ONCE,
            Duration.ofSeconds(2));
        TaskEventTracker tracker = new TaskEventTracker(locus.bootstrapServers());
        AgentHost<?> agents = WholeSystem.simulatedAgents(locus.bootstrapServers(), POOL, 4, 2);
        KafkaProducer<byte[], byte[]> producer =
            new KafkaProducer<>(ClientConfigs.producer(locus.bootstrapServers()));
        ShadowReader shadows = new ShadowReader(locus.bootstrapServers())) {
      String b = locus.bootstrapServers();
      assertThat(agents.awaitRegistered(Duration.ofSeconds(60))).isTrue();

      submit(producer, tracker, "p1-");
      WholeSystem.await(WAIT, "phase 1 completed",
          () -> tracker.stats(POOL).completed >= TASKS);
      TaskEventTracker.Stats phase1 = tracker.stats(POOL);
      Map<String, ShadowDecision> before = new TreeMap<>();
      WholeSystem.await(WAIT, "every shadow scored every phase-1 task", () -> {
        shadows.read().forEach(d -> before.merge(d.getPolicy(), d,
            (x, y) -> y.getPlaced() >= x.getPlaced() ? y : x));
        return before.keySet().equals(Set.of("FA", "MCH", "GCC"))
            && before.values().stream().allMatch(d -> d.getPlaced() == TASKS);
      });
      assertThat(before.get("FA").getActive()).isTrue();
      assertThat(before.get("MCH").getActive()).isFalse();
      // FA never caches: every byte it places is moved; MCH reuses what it staged
      assertThat(before.get("MCH").getBytesToMove()).isLessThan(before.get("FA").getBytesToMove());
      ShadowDecision best = before.values().stream()
          .filter(d -> !Double.isNaN(d.getMeanResponseMs()))
          .min(Comparator.comparingDouble(ShadowDecision::getMeanResponseMs)).orElseThrow();

      WholeSystem.CliRun set = WholeSystem.control(b, POOL, "set-policy", best.getPolicy());
      assertThat(set.code()).as(set.err()).isZero();

      submit(producer, tracker, "p2-");
      WholeSystem.await(WAIT, "phase 2 completed",
          () -> tracker.stats(POOL).completed >= 2L * TASKS);
      TaskEventTracker.Stats all = tracker.stats(POOL);
      double phase2Response = (all.responseSecondsSum - phase1.responseSecondsSum)
          / (all.responses - phase1.responses);
      List<ShadowDecision> after = shadows.read();
      assertThat(after).filteredOn(d -> d.getPolicy().equals(best.getPolicy()))
          .isNotEmpty().allMatch(ShadowDecision::getActive);
      locus.checkJobAlive();

      System.out.printf("shadow switch (%d tasks per phase, FA active, then %s):%n", TASKS,
          best.getPolicy());
      System.out.printf("%-5s %22s %22s %16s%n", "policy", "predicted resp, phase 1",
          "measured resp", "predicted GB moved");
      for (ShadowDecision d : before.values()) {
        String measured = d.getPolicy().equals("FA")
            ? String.format("%.3f s (phase 1)", phase1.meanResponseSeconds())
            : d.getPolicy().equals(best.getPolicy())
                ? String.format("%.3f s (phase 2)", phase2Response) : "-";
        System.out.printf("%-6s %20.3f s %22s %16.2f%n", d.getPolicy(),
            d.getMeanResponseMs() / 1000, measured, d.getBytesToMove() / 1e9);
      }
      System.out.printf("measured GB moved: phase 1 (FA) %.2f, phase 2 (%s) %.2f%n",
          (phase1.bytesPeer + phase1.bytesStorage) / 1e9, best.getPolicy(),
          (all.bytesPeer + all.bytesStorage - phase1.bytesPeer - phase1.bytesStorage) / 1e9);
    }
  }

  private static void submit(KafkaProducer<byte[], byte[]> producer, TaskEventTracker tracker,
      String prefix) throws Exception {
    for (JobSubmitted j : DemoWorkload.generate(POOL, DemoWorkload.Spec.demo(TASKS, 40, 7))) {
      long t = System.currentTimeMillis();
      j.setJobId(prefix + j.getJobId());
      j.setSubmitTimeMs(t);
      tracker.submitted(j.getJobId(), t);
      producer.send(new ProducerRecord<>(Topics.JOB_ARRIVALS.name(),
          Topics.JOB_ARRIVALS.key(POOL), Topics.JOB_ARRIVALS.value(j))).get();
    }
  }

  /** Reads shadow-decisions from the beginning, then whatever arrived since the last read. */
  private static final class ShadowReader implements AutoCloseable {
    private final KafkaConsumer<byte[], byte[]> consumer;

    ShadowReader(String bootstrap) {
      consumer = new KafkaConsumer<>(ClientConfigs.consumer(bootstrap, null, false));
      TopicPartition tp = new TopicPartition(Topics.SHADOW_DECISIONS.name(), 0);
      consumer.assign(List.of(tp));
      consumer.seekToBeginning(List.of(tp));
    }

    List<ShadowDecision> read() {
      List<ShadowDecision> out = new ArrayList<>();
      for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
        out.add(Topics.SHADOW_DECISIONS.decode(r.value()));
      }
      return out;
    }

    @Override
    public void close() {
      consumer.close();
    }
  }
}
