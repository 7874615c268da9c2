package io.locus.agent.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.agent.AgentConfig;
import io.locus.agent.AgentHost;
import io.locus.agent.HostConfig;
import io.locus.agent.NodeAgent;
import io.locus.kafka.testkit.EmbeddedKafka;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.Topics;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A host whose broker has gone still shuts down promptly. The CI failure this pins: a provisioning
 * test closed its agents after the broker, each heartbeat blocked a minute in the producer waiting
 * for metadata while holding its agent's monitor, each LEAVE waited behind it, and closing four
 * nodes outlasted the test's five minutes.
 */
// Separate thread: before the fix close() starved on a monitor, which an interrupt cannot end.
@Tag("integration")
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class AgentHostShutdownTest {
  @Test
  void closingAfterTheBrokerDiedIsBoundedByTheCloseDeadline() throws Exception {
    AgentConfig template = AgentConfig.builder("gone").slots(2).heartbeatMs(100).build();
    AgentHost<NodeAgent> host;
    try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
      TopicAdmin.ensureTopics(kafka.bootstrapServers(), Topics.ALL);
      host = AgentHost.start(HostConfig.builder(kafka.bootstrapServers())
          .nodeIds(List.of("g-0", "g-1", "g-2")).ensureTopics(false).build(),
          new SimulatedAgents(template));
      assertThat(host.awaitRegistered(Duration.ofSeconds(30))).isTrue();
    }
    // The broker is gone; heartbeats keep trying every 100 ms while the host says goodbye.
    long start = System.nanoTime();
    host.close();
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    // the deadline, plus the scheduler's own five seconds to stop, plus slack for a loaded machine
    assertThat(took).isLessThan(Duration.ofSeconds(25));
  }
}
