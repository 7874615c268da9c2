package io.locus.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.agent.sim.HostConfig;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class AgentCliTest {
  @Test
  void simOptionsBecomeAHostConfig() {
    AgentCli.Sim sim = new AgentCli.Sim();
    new CommandLine(sim).parseArgs("--bootstrap-servers", "k:9092", "--pool", "batch",
        "--nodes", "3", "--node-prefix", "w", "--time-scale", "0.01", "--isolation", "read_uncommitted", "--no-create-topics",
        "--from", "earliest", "--cache-bytes", "2000000000");
    HostConfig cfg = sim.hostConfig();

    assertThat(cfg.bootstrapServers()).isEqualTo("k:9092");
    assertThat(cfg.pool()).isEqualTo("batch");
    assertThat(cfg.nodeIds()).containsExactly("w00", "w01", "w02");
    assertThat(cfg.readCommitted()).isFalse();
    assertThat(cfg.ensureTopics()).isFalse();
    assertThat(cfg.startFrom()).isEqualTo(HostConfig.StartFrom.EARLIEST);
    assertThat(cfg.agentTemplate().timeScale()).isEqualTo(0.01);
    assertThat(cfg.agentTemplate().cacheCapacityBytes()).isEqualTo(2_000_000_000L);
    assertThat(cfg.agentTemplate().slots()).isEqualTo(2);
    assertThat(cfg.agentTemplate().storageBandwidth()).isEqualTo(125e6);
  }

  @Test
  void createTopicsCanBeTurnedOnExplicitly() {
    AgentCli.Sim sim = new AgentCli.Sim();
    new CommandLine(sim).parseArgs("--bootstrap-servers", "k:9092", "--pool", "p",
        "--create-topics");
    assertThat(sim.hostConfig().ensureTopics()).isTrue();
  }

  @Test
  void defaultsAreSixteenNodesReadCommittedFromLatest() {
    AgentCli.Sim sim = new AgentCli.Sim();
    new CommandLine(sim).parseArgs("--bootstrap-servers", "k:9092", "--pool", "p");
    HostConfig cfg = sim.hostConfig();

    assertThat(cfg.nodeIds()).hasSize(16).startsWith("node-00").endsWith("node-15");
    assertThat(cfg.readCommitted()).isTrue();
    assertThat(cfg.ensureTopics()).isTrue();
    assertThat(cfg.startFrom()).isEqualTo(HostConfig.StartFrom.LATEST);
  }
}
