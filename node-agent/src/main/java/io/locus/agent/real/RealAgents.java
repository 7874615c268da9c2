package io.locus.agent.real;

import io.locus.agent.AgentFactory;
import io.locus.agent.AgentOutput;
import io.locus.agent.AgentScheduler;
import io.locus.agent.NodeAgent;
import io.locus.schemas.limits.FileIds;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Makes real agents for an {@link io.locus.agent.AgentHost}: agents that stage real files and run
 * real processes. Each has its own cache and work directories, HTTP port (peers and metrics) and
 * processes; the agents of one host share an HTTP client and a {@link PeerEndpoints} directory,
 * which knows this host's agents at once, and other hosts' agents from the pool's node-reports.
 *
 * <p>For the demo with real agents: a template config with a storage root (e.g. a generated
 * {@code file:} directory) and a default template, and {@code nodesDir} for the per-agent
 * directories:
 * <pre>{@code
 * try (AgentHost<RealAgent> host = AgentHost.start(
 *     HostConfig.builder(bootstrap).nodeIds(HostConfig.nodeIds("node-", 4)).build(),
 *     new RealAgents(template, dataDir))) {
 *   host.awaitRegistered(Duration.ofSeconds(30));
 *   ...
 * }
 * }</pre>
 */
public final class RealAgents implements AgentFactory<RealAgent> {
  private final RealAgentConfig template;
  private final Path nodesDir;
  private final PeerEndpoints peers;
  private final Set<String> local = ConcurrentHashMap.newKeySet();
  private HttpClient client;

  /**
   * @param template every agent's settings; node id, directories and port are per agent
   * @param nodesDir when set, agent N keeps its cache in {@code nodesDir/N/cache} and its work
   *     directories in {@code nodesDir/N/work} and listens on a free port; when null the host may
   *     have one agent only, which uses the template's directories and port
   */
  public RealAgents(RealAgentConfig template, Path nodesDir) {
    this.template = Objects.requireNonNull(template, "template");
    this.nodesDir = nodesDir;
    this.peers = new PeerEndpoints(template.peers().endpoints());
  }

  /** The settings of agent {@code node}. */
  public RealAgentConfig configOf(String node) {
    return nodesDir != null
        ? template.forNode(node, nodesDir.resolve(node))
        : template.withNodeId(node);
  }

  /** Peers' endpoints: this host's agents and those learnt from node-reports. */
  public PeerEndpoints peers() {
    return peers;
  }

  @Override
  public String pool() {
    return template.pool();
  }

  @Override
  public String clientPrefix() {
    return "locus-agent-real";
  }

  @Override
  public void check(List<String> nodeIds) {
    if (nodesDir == null && nodeIds.size() > 1) {
      throw new IllegalArgumentException(
          "several agents in one host need nodesDir (one cache and work directory each)");
    }
    if (nodesDir != null) {
      for (String n : nodeIds) {
        if (FileIds.nameProblem(n) != null) {
          throw new IllegalArgumentException("node id " + n + " cannot name a directory: "
              + FileIds.nameProblem(n));
        }
      }
    }
  }

  /**
   * Real agents run short tasks at hundreds a second each: their STARTED and COMPLETED are held a
   * few milliseconds while the local queue is busy and leave together (see {@link
   * io.locus.agent.BatchingOutput}).
   */
  @Override
  public AgentOutput output(AgentOutput kafka, AgentScheduler scheduler) {
    return new io.locus.agent.BatchingOutput(kafka, scheduler);
  }

  @Override
  public RealAgent create(String nodeId, AgentScheduler scheduler, AgentOutput output) {
    if (client == null) {
      client = RealAgent.httpClient(template);
    }
    RealAgent a = RealAgent.create(configOf(nodeId), scheduler, output, peers, client);
    local.add(nodeId);
    peers.put(nodeId, a.endpoint());
    return a;
  }

  @Override
  public NodeAgent protocol(RealAgent agent) {
    return agent.agent();
  }

  @Override
  public ReportsListener reports() {
    return new ReportsListener(r -> {
      // This host's agents are known first-hand; their own LEAVE must not hide them early.
      if (!local.contains(r.getNode())) {
        peers.onReport(r);
      }
    }, template.peers().lookback());
  }

  /** Stops the agent's processes, HTTP server and pools; cached files stay for the next start. */
  @Override
  public void closed(RealAgent agent) {
    agent.close();
  }
}
