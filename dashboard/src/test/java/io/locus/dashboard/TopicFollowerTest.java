package io.locus.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.kafka.ClientConfigs;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.TopicSpec;
import io.locus.kafka.Topics;
import io.locus.kafka.testkit.EmbeddedKafka;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The follower against an in-JVM broker: records already on the topics are folded into the
 * state, one that does not decode is counted, and the state is caught up only once every topic
 * shown exists and has been read to the end it had.
 */
@Tag("integration")
@Timeout(120)
class TopicFollowerTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  @Test
  void foldsWhatIsOnTheTopicsAndCatchesUpOnceEveryTopicExists() throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.start();
         KafkaProducer<byte[], byte[]> producer =
             new KafkaProducer<>(ClientConfigs.producer(kafka.bootstrapServers()))) {
      String bootstrap = kafka.bootstrapServers();
      TopicAdmin.ensureTopics(bootstrap, List.of(Topics.NODE_REPORTS, Topics.SCHEDULER_METRICS,
          Topics.TASK_EVENTS, Topics.DECISIONS, Topics.NODE_STATUS)); // dead-letters comes later
      send(producer, Topics.NODE_STATUS, "p/n1", Records.verdict("p", "n1", "i1",
          io.locus.schemas.NodeStatusType.REGISTERED, 1_000, 2));
      send(producer, Topics.NODE_REPORTS, "p", Records.register("p", "n1", 1_000, 2, 1 << 30));
      send(producer, Topics.DECISIONS, "n1",
          Records.place("p", "n1", "t1", 1_100, "FA", 10, 0, 0));
      send(producer, Topics.TASK_EVENTS, "p", Records.completed("p", "n1", "t1", 1_200, 10, 0, 0));
      producer.send(new ProducerRecord<>(Topics.TASK_EVENTS.name(), "p".getBytes(),
          new byte[] {1, 2, 3})).get();

      DashboardState state = new DashboardState(100);
      Properties client = ClientConfigs.base(bootstrap);
      try (TopicFollower follower = new TopicFollower(client, state)) {
        Snapshot s = await(state, x -> x.topics().read().getOrDefault("task-events", 0L) == 2
            && x.totals().placements() == 1);
        assertThat(s.totals().completed()).isEqualTo(1);
        assertThat(await(state, x -> x.totals().aliveNodes() == 1).nodes())
            .extracting(Snapshot.Node::node).containsExactly("n1");
        assertThat(s.topics().undecodable()).containsEntry("task-events", 1L);
        assertThat(s.topics().caughtUp()).as("dead-letters does not exist yet").isFalse();

        TopicAdmin.ensureTopics(bootstrap, List.of(Topics.DEAD_LETTERS));
        assertThat(await(state, x -> x.topics().caughtUp()).totals().completed()).isEqualTo(1);
        assertThat(follower.failure()).isNull();
      }
    }
  }

  private static <V extends SpecificRecord> void send(KafkaProducer<byte[], byte[]> producer,
      TopicSpec<V> topic, String key, V value) throws Exception {
    producer.send(new ProducerRecord<>(topic.name(), topic.key(key), topic.value(value))).get();
  }

  /** The first snapshot that satisfies {@code done}, polled until {@link #WAIT} has passed. */
  private static Snapshot await(DashboardState state, Predicate<Snapshot> done)
      throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    Snapshot s = state.snapshot(System.currentTimeMillis());
    while (!done.test(s)) {
      assertThat(System.nanoTime()).as("state within %s: %s", WAIT, s).isLessThan(deadline);
      TimeUnit.MILLISECONDS.sleep(50); // poll interval, bounded by the deadline above
      s = state.snapshot(System.currentTimeMillis());
    }
    return s;
  }
}
