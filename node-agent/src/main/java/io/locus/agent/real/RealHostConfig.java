package io.locus.agent.real;

import io.locus.agent.sim.HostConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Settings of a {@link RealAgentHost}. Build with {@link #builder(String, RealAgentConfig)}.
 *
 * @param bootstrapServers Kafka bootstrap servers
 * @param agentTemplate every agent's settings; node id, directories and port are per agent
 * @param nodeIds the agents of this host
 * @param nodesDir when set, agent N keeps its cache in {@code nodesDir/N/cache} and its work
 *     directories in {@code nodesDir/N/work} and listens on a free port; when null there must be
 *     exactly one node, which uses the template's directories and port
 * @param readCommitted read decisions with read_committed (default true; see {@link HostConfig})
 * @param startFrom where decisions are read from at start-up (default LATEST)
 * @param schedulerThreads threads running heartbeats and timers (default 2)
 * @param ensureTopics create missing topics (default true)
 * @param clientOverrides extra Kafka client settings (security...)
 * @param peerLookback how far back node-reports are read to learn peers' endpoints (default 2 min:
 *     many heartbeats)
 */
public record RealHostConfig(
    String bootstrapServers,
    RealAgentConfig agentTemplate,
    List<String> nodeIds,
    Path nodesDir,
    boolean readCommitted,
    HostConfig.StartFrom startFrom,
    int schedulerThreads,
    boolean ensureTopics,
    Map<String, String> clientOverrides,
    Duration peerLookback) {

  public RealHostConfig {
    Objects.requireNonNull(bootstrapServers, "bootstrapServers");
    Objects.requireNonNull(agentTemplate, "agentTemplate");
    Objects.requireNonNull(startFrom, "startFrom");
    Objects.requireNonNull(peerLookback, "peerLookback");
    nodeIds = List.copyOf(nodeIds);
    clientOverrides = Map.copyOf(clientOverrides);
    if (nodeIds.isEmpty()) {
      throw new IllegalArgumentException("a host needs at least one node id");
    }
    if (new LinkedHashSet<>(nodeIds).size() != nodeIds.size()) {
      throw new IllegalArgumentException("duplicate node ids: " + nodeIds);
    }
    if (nodesDir == null && nodeIds.size() > 1) {
      throw new IllegalArgumentException(
          "several agents in one host need nodesDir (one cache and work directory each)");
    }
    if (nodesDir != null) {
      for (String n : nodeIds) {
        if (!FileIds.isSafe(n)) {
          throw new IllegalArgumentException("node id " + n + " cannot name a directory: "
              + FileIds.problem(n));
        }
      }
    }
  }

  public String pool() {
    return agentTemplate.pool();
  }

  /** The settings of agent {@code node}. */
  public RealAgentConfig agentConfig(String node) {
    return nodesDir != null
        ? agentTemplate.forNode(node, nodesDir.resolve(node))
        : agentTemplate.toBuilder().nodeId(node).build();
  }

  /** The Kafka side, as the simulated host has it. */
  HostConfig hostConfig() {
    return HostConfig.builder(bootstrapServers, agentTemplate.agent())
        .nodeIds(nodeIds)
        .readCommitted(readCommitted)
        .startFrom(startFrom)
        .schedulerThreads(schedulerThreads)
        .ensureTopics(ensureTopics)
        .clientOverrides(clientOverrides)
        .build();
  }

  public static Builder builder(String bootstrapServers, RealAgentConfig agentTemplate) {
    return new Builder(bootstrapServers, agentTemplate);
  }

  /** Mutable builder with the documented defaults. */
  public static final class Builder {
    private final String bootstrapServers;
    private final RealAgentConfig agentTemplate;
    private List<String> nodeIds;
    private Path nodesDir;
    private boolean readCommitted = true;
    private HostConfig.StartFrom startFrom = HostConfig.StartFrom.LATEST;
    private int schedulerThreads = 2;
    private boolean ensureTopics = true;
    private Map<String, String> clientOverrides = Map.of();
    private Duration peerLookback = Duration.ofMinutes(2);

    private Builder(String bootstrapServers, RealAgentConfig agentTemplate) {
      this.bootstrapServers = bootstrapServers;
      this.agentTemplate = agentTemplate;
      this.nodeIds = List.of(agentTemplate.nodeId());
    }

    /** Default: the template's node id alone. */
    public Builder nodeIds(List<String> v) {
      this.nodeIds = v;
      return this;
    }

    public Builder nodesDir(Path v) {
      this.nodesDir = v;
      return this;
    }

    public Builder readCommitted(boolean v) {
      this.readCommitted = v;
      return this;
    }

    public Builder startFrom(HostConfig.StartFrom v) {
      this.startFrom = v;
      return this;
    }

    public Builder schedulerThreads(int v) {
      this.schedulerThreads = v;
      return this;
    }

    public Builder ensureTopics(boolean v) {
      this.ensureTopics = v;
      return this;
    }

    public Builder clientOverrides(Map<String, String> v) {
      this.clientOverrides = v;
      return this;
    }

    public Builder peerLookback(Duration v) {
      this.peerLookback = v;
      return this;
    }

    public RealHostConfig build() {
      return new RealHostConfig(bootstrapServers, agentTemplate, nodeIds, nodesDir,
          readCommitted, startFrom, schedulerThreads, ensureTopics, clientOverrides,
          peerLookback);
    }
  }
}
