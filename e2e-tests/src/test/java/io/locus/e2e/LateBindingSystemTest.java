package io.locus.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.connectors.DeliveryMode;
import io.locus.cli.EmbeddedLocus;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.Topics;
import io.locus.operators.SchedulerConfig;
import io.locus.schemas.CancelTask;
import io.locus.schemas.DataUnit;
import io.locus.schemas.Decision;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.testkit.Await;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Late binding through the whole system (embedded Kafka, the scheduler job on a MiniCluster with
 * RocksDB): the test plays the agents' side of the issue 13 protocol on the real topics. A node
 * advertising a queue depth gets placements beyond its slot; when another node's slot is free,
 * the scheduler withdraws the newest unstarted one, and the WITHDRAWN answer re-places it there.
 */
@Tag("integration")
@Timeout(300)
class LateBindingSystemTest {
  private static final String POOL = "e2e-late";
  private static final Duration WAIT = Duration.ofSeconds(90);

  @Test
  void queuedPlacementsAreWithdrawnForAFreeSlotAndPlacedThere() throws Exception {
    try (EmbeddedLocus locus = EmbeddedLocus.start(SchedulerConfig.defaults("FA"),
            DeliveryMode.AT_LEAST_ONCE, Duration.ofSeconds(2));
        KafkaProducer<byte[], byte[]> producer =
            new KafkaProducer<>(ClientConfigs.producer(locus.bootstrapServers()));
        Decisions decisions = new Decisions(locus.bootstrapServers())) {
      byte[] key = POOL.getBytes(StandardCharsets.UTF_8);
      // n1: one slot and two local-queue positions; three jobs all go there
      send(producer, Topics.NODE_REPORTS.name(), key, Topics.NODE_REPORTS.value(
          register("n1", 1, 2, 1_000)));
      send(producer, Topics.JOB_ARRIVALS.name(), key, Topics.JOB_ARRIVALS.value(job("j1", 1_100)));
      Decision j1 = decisions.await(place("j1", 0));
      assertThat(j1.getNode()).isEqualTo("n1");
      send(producer, Topics.JOB_ARRIVALS.name(), key, Topics.JOB_ARRIVALS.value(job("j2", 1_200)));
      send(producer, Topics.JOB_ARRIVALS.name(), key, Topics.JOB_ARRIVALS.value(job("j3", 1_300)));
      assertThat(decisions.await(place("j2", 0)).getNode()).isEqualTo("n1");
      assertThat(decisions.await(place("j3", 0)).getNode()).isEqualTo("n1");
      send(producer, Topics.TASK_EVENTS.name(), key, Topics.TASK_EVENTS.value(
          event(TaskEventType.STARTED, "j1", 0, "n1", POOL + "/j1/0", 1_400)));

      // n2 registers with a free slot: the newest unstarted attempt on n1 (j3) is withdrawn
      send(producer, Topics.NODE_REPORTS.name(), key, Topics.NODE_REPORTS.value(
          register("n2", 1, 0, 2_000)));
      Decision w = decisions.await(d -> d.getAction() instanceof CancelTask c
          && c.getOnlyIfQueued());
      CancelTask c = (CancelTask) w.getAction();
      assertThat(w.getNode()).isEqualTo("n1");
      assertThat(w.getDecisionId()).startsWith(POOL + "/cancel/");
      assertThat(c.getTaskId()).isEqualTo("j3");
      assertThat(c.getAttempt()).isZero();

      // n1 answers as its agent would: WITHDRAWN with the placement's id; j3 goes to n2
      send(producer, Topics.TASK_EVENTS.name(), key, Topics.TASK_EVENTS.value(
          event(TaskEventType.WITHDRAWN, "j3", 0, "n1", POOL + "/j3/0", 2_100)));
      Decision again = decisions.await(place("j3", 1));
      assertThat(again.getNode()).isEqualTo("n2");
      assertThat(((PlaceTask) again.getAction()).getAttempt()).isEqualTo(1);
      // nothing else was asked of n1: a single withdraw, no cancel of a started attempt
      assertThat(decisions.seen()).filteredOn(d -> d.getAction() instanceof CancelTask)
          .hasSize(1);
    }
  }

  private static Predicate<Decision> place(String task, int attempt) {
    return d -> d.getAction() instanceof PlaceTask p && p.getTaskId().equals(task)
        && p.getAttempt() == attempt;
  }

  private static void send(KafkaProducer<byte[], byte[]> p, String topic, byte[] key,
      byte[] value) throws Exception {
    p.send(new ProducerRecord<>(topic, key, value)).get();
  }

  private static NodeReport register(String node, int slots, int queueDepth, long t) {
    return NodeReport.newBuilder().setPool(POOL).setNode(node).setType(NodeReportType.REGISTER)
        .setTimeMs(t).setSlots(slots).setQueueDepth(queueDepth)
        .setCacheCapacityBytes(1_000_000_000L).build();
  }

  private static JobSubmitted job(String id, long t) {
    return JobSubmitted.newBuilder().setJobId(id).setPool(POOL).setSubmitTimeMs(t)
        .setInputs(List.of(DataUnit.newBuilder().setId("f-" + id).setBytes(1_000).build()))
        .setComputeSeconds(1.0).build();
  }

  private static TaskEvent event(TaskEventType type, String task, int attempt, String node,
      String decisionId, long t) {
    return TaskEvent.newBuilder().setPool(POOL).setTaskId(task).setJobId(task)
        .setAttempt(attempt).setNode(node).setType(type).setDecisionId(decisionId).setTimeMs(t)
        .build();
  }

  /** Every decision of the pool, read from all partitions of the decisions topic. */
  private static final class Decisions implements AutoCloseable {
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<Decision> seen = new ArrayList<>();

    Decisions(String bootstrap) {
      consumer = new KafkaConsumer<>(ClientConfigs.consumer(bootstrap, "late-binding-e2e", false));
      List<TopicPartition> parts = new ArrayList<>();
      for (int i = 0; i < Topics.DECISIONS.partitions(); i++) {
        parts.add(new TopicPartition(Topics.DECISIONS.name(), i));
      }
      consumer.assign(parts);
      consumer.seekToBeginning(parts);
    }

    /** The first decision (already read or still to come) that matches; fails after WAIT. */
    Decision await(Predicate<Decision> match) {
      // No pause between checks: the consumer's poll waits up to 200 ms by itself.
      return Await.atMost(WAIT).pollEvery(Duration.ZERO).untilPresent(
          () -> "a matching decision; seen: " + seen, () -> {
            Optional<Decision> hit = seen.stream().filter(match).findFirst();
            if (hit.isEmpty()) {
              for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                Decision d = Topics.DECISIONS.decode(r.value());
                if (POOL.equals(d.getPool())) {
                  seen.add(d);
                }
              }
            }
            return hit;
          });
    }

    List<Decision> seen() {
      return seen;
    }

    @Override
    public void close() {
      consumer.close();
    }
  }
}
