package io.locus.agent.sim;

import io.locus.agent.AgentConfig;
import io.locus.agent.AgentFactory;
import io.locus.agent.AgentIdentity;
import io.locus.agent.AgentOutput;
import io.locus.agent.AgentScheduler;
import io.locus.agent.CacheStore;
import io.locus.agent.DecisionGuard;
import io.locus.agent.NodeAgent;
import java.util.Objects;
import java.util.function.Function;

/**
 * Makes agents whose reads and runs are modelled in time: many in one JVM, for scale tests, the
 * demo and the end-to-end tests. Peer reads look holders up in a {@link LocalPeerDirectory} of the
 * agents of this JVM instead of fetching over HTTP. As a host's factory:
 * {@code AgentHost.start(hostConfig, new SimulatedAgents(template))}.
 */
public final class SimulatedAgents implements AgentFactory<NodeAgent> {
  private final AgentConfig template;
  private final LocalPeerDirectory peers;
  private final Function<String, AgentIdentity> identities;
  private final Preload preload;

  /** Agents with {@code template}'s settings (its node id is replaced), peers of each other. */
  public SimulatedAgents(AgentConfig template) {
    this(template, new LocalPeerDirectory());
  }

  /** @param peers shared with other hosts to let their agents read from each other */
  public SimulatedAgents(AgentConfig template, LocalPeerDirectory peers) {
    this(template, peers, node -> AgentIdentity.random());
  }

  /**
   * @param identities the identity of each node's agent (instance id, epoch store); by default a
   *     random instance id and epochs in memory, per agent start
   */
  public SimulatedAgents(AgentConfig template, LocalPeerDirectory peers,
      Function<String, AgentIdentity> identities) {
    this(template, peers, identities, Preload.NONE);
  }

  /**
   * @param preload files each agent holds in its cache from the start (reported by its REGISTER)
   * @throws IllegalArgumentException when they do not fit the template's cache
   */
  public SimulatedAgents(AgentConfig template, LocalPeerDirectory peers,
      Function<String, AgentIdentity> identities, Preload preload) {
    this.template = Objects.requireNonNull(template, "template");
    this.peers = Objects.requireNonNull(peers, "peers");
    this.identities = Objects.requireNonNull(identities, "identities");
    this.preload = Objects.requireNonNull(preload, "preload")
        .fitting(template.cacheCapacityBytes());
  }

  /** The endpoint a simulated agent reports: there is nothing to connect to. */
  public static String endpointOf(String nodeId) {
    return "sim://" + nodeId;
  }

  /** One simulated agent, not registered anywhere. */
  public static NodeAgent create(AgentConfig config, AgentScheduler scheduler, AgentOutput output,
      PeerDirectory peers) {
    return create(config, scheduler, output, peers, AgentIdentity.random());
  }

  /** One simulated agent with {@code identity}, not registered anywhere. */
  public static NodeAgent create(AgentConfig config, AgentScheduler scheduler, AgentOutput output,
      PeerDirectory peers, AgentIdentity identity) {
    return new NodeAgent(config, scheduler, new SimulatedStager(config, scheduler, peers),
        new SimulatedExecutor(config, scheduler), output, endpointOf(config.nodeId()),
        CacheStore.NONE, DecisionGuard.ACCEPT_ALL, identity);
  }

  public AgentConfig template() {
    return template;
  }

  @Override
  public String pool() {
    return template.pool();
  }

  @Override
  public String clientPrefix() {
    return "locus-agent-sim";
  }

  @Override
  public NodeAgent create(String nodeId, AgentScheduler scheduler, AgentOutput output) {
    NodeAgent agent = create(template.withNodeId(nodeId), scheduler, output, peers,
        identities.apply(nodeId));
    for (int i = 0; i < preload.files(); i++) {
      agent.preload(preload.fileId(i), preload.bytes());
    }
    peers.register(agent);
    return agent;
  }

  @Override
  public NodeAgent protocol(NodeAgent agent) {
    return agent;
  }

  @Override
  public void closed(NodeAgent agent) {
    peers.unregister(agent);
  }
}
