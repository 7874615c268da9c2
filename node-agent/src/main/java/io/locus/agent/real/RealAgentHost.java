package io.locus.agent.real;

import io.locus.agent.AgentStats;
import io.locus.agent.KafkaAgentHost;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * N real agents of one pool in one JVM, against a real Kafka: the same API as
 * {@code SimulatedAgentHost}, with agents that stage real files and run real processes. Each agent
 * has its own cache and work directories, HTTP port (peers and metrics) and processes; they share
 * the Kafka clients, the timer threads, an HTTP client and a {@link PeerEndpoints} directory (which
 * knows this host's agents at once, and other hosts' agents from the pool's node-reports).
 *
 * <p>For the demo with real agents: a template config with a storage root (e.g. a generated
 * {@code file:} directory) and a default template, {@code nodesDir} for the per-agent directories:
 * <pre>{@code
 * RealAgentConfig template = RealAgentConfig.builder(pool)
 *     .storageRoot(storageDir.toUri())
 *     .template("checksum", "sha256sum", "{inputs}").defaultTemplate("checksum")
 *     .cacheCapacityBytes(cacheBytes).build();
 * try (RealAgentHost host = RealAgentHost.start(RealHostConfig.builder(bootstrap, template)
 *     .nodeIds(HostConfig.nodeIds("node-", 4)).nodesDir(dataDir).build())) {
 *   host.awaitRegistered(Duration.ofSeconds(30));
 *   ...
 * }
 * }</pre>
 */
public final class RealAgentHost implements AutoCloseable {
  private final RealHostConfig config;
  private final PeerEndpoints peers;
  private final Map<String, RealAgent> agents = new ConcurrentHashMap<>();
  private final List<RealAgent> made = new ArrayList<>();
  private KafkaAgentHost host;
  private boolean closed;

  private RealAgentHost(RealHostConfig config) {
    this.config = config;
    this.peers = new PeerEndpoints(config.agentTemplate().staticPeers());
  }

  /**
   * Creates every agent (binding its HTTP port and recovering its cache), connects, registers them
   * and starts consuming decisions and node-reports.
   */
  public static RealAgentHost start(RealHostConfig config) {
    RealAgentHost h = new RealAgentHost(config);
    try {
      HttpClient client = RealAgent.httpClient(config.agentTemplate());
      h.host = KafkaAgentHost.start(config.hostConfig(), "locus-agent-real",
          (node, scheduler, output) -> {
            RealAgent a = RealAgent.create(config.agentConfig(node), scheduler, output, h.peers,
                client);
            synchronized (h.made) {
              h.made.add(a);
            }
            h.agents.put(node, a);
            h.peers.put(node, a.endpoint());
            return a.agent();
          },
          new KafkaAgentHost.ReportsListener(r -> {
            // This host's agents are known first-hand; their own LEAVE must not hide them early.
            if (!h.agents.containsKey(r.getNode())) {
              h.peers.onReport(r);
            }
          }, config.peerLookback()));
      return h;
    } catch (RuntimeException | Error e) {
      h.close();
      throw e;
    }
  }

  public RealHostConfig config() {
    return config;
  }

  public List<String> nodeIds() {
    return config.nodeIds();
  }

  public RealAgent agent(String nodeId) {
    RealAgent a = agents.get(nodeId);
    if (a == null) {
      throw new IllegalArgumentException("no agent " + nodeId + " here; have " + agents.keySet());
    }
    return a;
  }

  public List<RealAgent> agents() {
    List<RealAgent> out = new ArrayList<>();
    for (String n : config.nodeIds()) {
      out.add(agents.get(n));
    }
    return out;
  }

  /** Peers' endpoints, this host's and those learnt from node-reports. */
  public PeerEndpoints peers() {
    return peers;
  }

  public Set<Integer> partitions() {
    return host.partitions();
  }

  /** Waits until the broker acknowledged every agent's REGISTER. */
  public boolean awaitRegistered(Duration timeout) throws InterruptedException {
    return host.awaitRegistered(timeout);
  }

  public AgentStats stats() {
    return host.stats();
  }

  public Map<String, AgentStats> statsByNode() {
    return host.statsByNode();
  }

  public long decisionsRouted() {
    return host.decisionsRouted();
  }

  public long decodeErrors() {
    return host.decodeErrors();
  }

  public long sendFailures() {
    return host.sendFailures();
  }

  public Throwable consumerFailure() {
    return host.consumerFailure();
  }

  /**
   * Graceful drain of every agent: no new tasks, draining=true in heartbeats, running tasks
   * finish, then LEAVE; decisions are still read meanwhile (a cancel still applies).
   *
   * @return true when all left within the timeout; {@link #close()} stops the rest
   */
  public boolean drain(Duration timeout) throws InterruptedException {
    return host.drain(timeout);
  }

  /** Stops every agent (running tasks FAILED "agent stopped", processes stopped), LEAVE, clients. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (host != null) {
      host.close();
    }
    List<RealAgent> all;
    synchronized (made) {
      all = List.copyOf(made);
    }
    for (RealAgent a : all) {
      a.close();
    }
  }
}
