package io.locus.cli.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.kafka.ClientConfigs;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.Topics;
import io.locus.kafka.testkit.EmbeddedKafka;
import io.locus.schemas.JobSubmitted;
import io.locus.testkit.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code locus replay}'s publisher rides out a broker outage (the producer resends) and says so:
 * the outage is counted (and logged, one WARN) when sends go unanswered, and over (one INFO) once
 * the broker, restarted on the same port, takes them.
 */
@Tag("integration")
@Timeout(180)
class AckedPublisherBrokerOutageTest {
  private static JobSubmitted job(String id) {
    return JobSubmitted.newBuilder().setJobId(id).setPool("p").setSubmitTimeMs(1_000)
        .setInputs(new ArrayList<>()).build();
  }

  @Test
  void anOutageIsNoticedAndItsEndToo(@TempDir Path dir) throws Exception {
    EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"), Map.of());
    try {
      int port = kafka.port();
      TopicAdmin.ensureTopics(kafka.bootstrapServers(), List.of(Topics.JOB_ARRIVALS));
      try (AckedPublisher publisher =
          new AckedPublisher(ClientConfigs.base(kafka.bootstrapServers()))) {
        publisher.send(job("before"));
        publisher.flush();
        assertThat(publisher.acked()).isEqualTo(1);
        assertThat(publisher.brokerOutages()).isZero();

        kafka.close();
        // Off the test thread: with the broker gone a send may wait for metadata.
        CompletableFuture<Void> during =
            CompletableFuture.runAsync(() -> publisher.send(job("during")));
        Await.until("the outage noticed", Duration.ofSeconds(60),
            () -> publisher.brokerOutages() == 1);
        assertThat(publisher.brokerOut()).isTrue();

        kafka = EmbeddedKafka.start(dir.resolve("kafka"), port, Map.of());
        Await.until("the job sent during the outage acked", Duration.ofSeconds(90),
            () -> publisher.acked() == 2);
        during.join();
        assertThat(publisher.brokerOut()).as("the outage is over").isFalse();
        assertThat(publisher.brokerOutages()).isEqualTo(1);
        assertThat(publisher.failed()).isZero();
      }
    } finally {
      kafka.close();
    }
  }
}
