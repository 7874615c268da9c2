package io.locus.agent;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The Kafka side of an {@link AgentHost}, whatever its agents are. Build with
 * {@link #builder(String)}; the agents' own settings are their factory's.
 *
 * @param bootstrapServers Kafka bootstrap servers
 * @param nodeIds the nodes this host runs an agent for, all of the factory's pool (default
 *     node-00 .. node-15)
 * @param readCommitted read decisions with isolation read_committed (default true). Required when
 *     the scheduler's sink is exactly-once; harmless otherwise, since records written outside
 *     transactions are visible at once to read_committed consumers too. Set false to read
 *     uncommitted for an at-least-once pool.
 * @param startFrom where decisions are read from at start-up (default LATEST: an agent acts on what
 *     the scheduler decides after it registered; EARLIEST replays what the topic holds, e.g. an agent
 *     restarted after the decisions for it were written — deduplication and epochs keep that safe)
 * @param schedulerThreads threads running every agent's timed steps (default 2)
 * @param ensureTopics create the decisions, task-events and node-reports topics if missing (default
 *     true; idempotent)
 * @param clientOverrides extra Kafka client settings for producer, consumer and admin (security...)
 */
public record HostConfig(
    String bootstrapServers,
    List<String> nodeIds,
    boolean readCommitted,
    StartFrom startFrom,
    int schedulerThreads,
    boolean ensureTopics,
    Map<String, String> clientOverrides) {

  /** Where the decisions consumer starts. */
  public enum StartFrom { LATEST, EARLIEST }

  public HostConfig {
    Objects.requireNonNull(bootstrapServers, "bootstrapServers");
    Objects.requireNonNull(startFrom, "startFrom");
    nodeIds = List.copyOf(nodeIds);
    clientOverrides = Map.copyOf(clientOverrides);
    if (nodeIds.isEmpty()) {
      throw new IllegalArgumentException("a host needs at least one node id");
    }
    if (new LinkedHashSet<>(nodeIds).size() != nodeIds.size()) {
      throw new IllegalArgumentException("duplicate node ids: " + nodeIds);
    }
    if (schedulerThreads < 1) {
      throw new IllegalArgumentException("schedulerThreads must be >= 1");
    }
  }

  /** {@code prefix} + two-digit index: nodeIds("node-", 16) = node-00 .. node-15. */
  public static List<String> nodeIds(String prefix, int count) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(String.format("%s%02d", prefix, i));
    }
    return out;
  }

  public static Builder builder(String bootstrapServers) {
    return new Builder(bootstrapServers);
  }

  /** Mutable builder with the documented defaults. */
  public static final class Builder {
    private final String bootstrapServers;
    private List<String> nodeIds = HostConfig.nodeIds("node-", 16);
    private boolean readCommitted = true;
    private StartFrom startFrom = StartFrom.LATEST;
    private int schedulerThreads = 2;
    private boolean ensureTopics = true;
    private Map<String, String> clientOverrides = Map.of();

    private Builder(String bootstrapServers) {
      this.bootstrapServers = bootstrapServers;
    }

    public Builder nodeIds(List<String> v) {
      this.nodeIds = v;
      return this;
    }

    public Builder readCommitted(boolean v) {
      this.readCommitted = v;
      return this;
    }

    public Builder startFrom(StartFrom v) {
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

    public HostConfig build() {
      return new HostConfig(bootstrapServers, nodeIds, readCommitted, startFrom,
          schedulerThreads, ensureTopics, clientOverrides);
    }
  }
}
