package io.locus.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.agent.real.AgentConfigFile;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The config file the real-agents bench writes for each agent is one the agent accepts. */
class RealAgentsBenchTest {
  @TempDir Path tmp;

  @Test
  void theAgentsConfigCarriesTheLocalQueue() {
    String yaml = RealAgentsBench.yaml("p", "p-node-0", 4, 7, tmp.resolve("data"),
        tmp.resolve("storage"), "127.0.0.1:9092", true, 1.0);
    AgentConfigFile f = AgentConfigFile.parse(yaml, tmp, null);
    assertThat(f.agent().agent().slots()).isEqualTo(4);
    assertThat(f.agent().agent().queueDepth()).isEqualTo(7);
    assertThat(f.agent().tasks().queueDepth()).isEqualTo(7);
    assertThat(f.agent().templates()).containsKeys("noop", "checksum", "sleep");
  }

  /** --product-defaults leaves the queue depth to the agent: the config names none. */
  @Test
  void withoutADepthTheAgentsDefaultApplies() {
    String yaml = RealAgentsBench.yaml("p", "p-node-0", 4, null, tmp.resolve("data"),
        tmp.resolve("storage"), "127.0.0.1:9092", true, 1.0);
    AgentConfigFile f = AgentConfigFile.parse(yaml, tmp, null);
    assertThat(yaml).doesNotContain("queue-depth");
    assertThat(f.agent().agent().queueDepth()).isEqualTo(4); // the agent's default: its slots
  }
}
