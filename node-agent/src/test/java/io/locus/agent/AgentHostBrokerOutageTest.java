package io.locus.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.agent.sim.SimulatedAgents;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.Topics;
import io.locus.kafka.testkit.EmbeddedKafka;
import io.locus.testkit.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A broker outage the agents ride out is still in their log (issue 26: an 18-s outage left no
 * line anywhere): the broker stops, the host logs one WARN; it comes back on the same port, the
 * host logs one INFO with how long it was out, and the agents' reports get through again.
 */
@Tag("integration")
@Timeout(180)
class AgentHostBrokerOutageTest {
  @Test
  void anOutageIsLoggedOnceWhenItStartsAndOnceWhenItEnds(@TempDir Path dir) throws Exception {
    List<String> lines = new CopyOnWriteArrayList<>();
    EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"), Map.of());
    AgentHost<NodeAgent> host = null;
    try (LogCapture c = LogCapture.of(LoggerFactory.getLogger(BrokerWatch.class), lines)) {
      String bootstrap = kafka.bootstrapServers();
      int port = kafka.port();
      TopicAdmin.ensureTopics(bootstrap, Topics.ALL);
      host = AgentHost.start(HostConfig.builder(bootstrap).nodeIds(List.of("o-0", "o-1"))
          .ensureTopics(false).build(),
          new SimulatedAgents(AgentConfig.builder("outage").slots(1).heartbeatMs(200).build()));
      assertThat(host.awaitRegistered(Duration.ofSeconds(30))).isTrue();
      assertThat(lines).as("no outage while the broker is up").isEmpty();

      kafka.close();
      Await.until("the outage WARN", Duration.ofSeconds(60), () -> !lines.isEmpty());
      assertThat(lines).hasSize(1);
      assertThat(lines.get(0)).startsWith("WARN agents of pool outage: the broker at " + bootstrap
          + " has answered no send for");

      kafka = EmbeddedKafka.start(dir.resolve("kafka"), port, Map.of());
      Await.until("the recovery INFO", Duration.ofSeconds(90), () -> lines.size() >= 2);
      assertThat(lines).hasSize(2);
      assertThat(lines.get(1)).containsPattern("^INFO agents of pool outage: the broker at "
          + bootstrap.replace(".", "\\.") + " answers again after \\d+ s out");
      assertThat(host.brokerOutages()).isEqualTo(1);
    } finally {
      if (host != null) {
        host.close();
      }
      kafka.close();
    }
  }
}
