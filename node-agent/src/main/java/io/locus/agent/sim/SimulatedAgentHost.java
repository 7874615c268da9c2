package io.locus.agent.sim;

import io.locus.agent.AgentStats;
import io.locus.agent.KafkaAgentHost;
import io.locus.agent.NodeAgent;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * N simulated agents of one pool in one JVM, against a real Kafka.
 *
 * <p>The Kafka side (one decisions consumer thread routing by node key, one producer, a small
 * scheduled pool for every agent's timed steps and heartbeats; start offsets resolved before any
 * agent registers) is {@link KafkaAgentHost}'s; this class adds the simulated agents and their
 * in-JVM peer directory.
 */
public final class SimulatedAgentHost implements AutoCloseable {
  private final HostConfig config;
  private final LocalPeerDirectory peers;
  /** Every agent made, even if start failed half-way: all leave the peer directory on close. */
  private final List<NodeAgent> made = new CopyOnWriteArrayList<>();
  private KafkaAgentHost host;
  private boolean closed;

  private SimulatedAgentHost(HostConfig config) {
    this.config = config;
    this.peers = config.peers() != null ? config.peers() : new LocalPeerDirectory();
  }

  /**
   * Connects, positions the decisions consumer, registers every agent (REGISTER is sent, not yet
   * acknowledged: see {@link #awaitRegistered}) and starts consuming.
   */
  public static SimulatedAgentHost start(HostConfig config) {
    SimulatedAgentHost sim = new SimulatedAgentHost(config);
    try {
      sim.host = KafkaAgentHost.start(config, "locus-agent-sim", (node, scheduler, output) -> {
        NodeAgent agent = SimulatedAgents.create(config.agentTemplate().withNodeId(node),
            scheduler, output, sim.peers);
        sim.peers.register(agent);
        sim.made.add(agent);
        return agent;
      }, null);
      return sim;
    } catch (RuntimeException | Error e) {
      sim.close();
      throw e;
    }
  }

  // ---- queries ---------------------------------------------------------------------------------

  public HostConfig config() {
    return config;
  }

  public List<String> nodeIds() {
    return config.nodeIds();
  }

  public NodeAgent agent(String nodeId) {
    return host.agent(nodeId);
  }

  public List<NodeAgent> agents() {
    return host.agents();
  }

  /** The decisions partitions this host reads. */
  public Set<Integer> partitions() {
    return host.partitions();
  }

  /** Waits until the broker acknowledged every agent's REGISTER. */
  public boolean awaitRegistered(Duration timeout) throws InterruptedException {
    return host.awaitRegistered(timeout);
  }

  /** All agents' counters summed. */
  public AgentStats stats() {
    return host.stats();
  }

  public Map<String, AgentStats> statsByNode() {
    return host.statsByNode();
  }

  /** Decision records handed to an agent. */
  public long decisionsRouted() {
    return host.decisionsRouted();
  }

  /** Decision records of nodes not on this host that share its partitions. */
  public long decisionsOfOtherNodes() {
    return host.decisionsOfOtherNodes();
  }

  /** Decision records that could not be decoded (skipped). */
  public long decodeErrors() {
    return host.decodeErrors();
  }

  /** Task events or node reports the producer could not deliver. */
  public long sendFailures() {
    return host.sendFailures();
  }

  /** Why the decisions consumer stopped, if it stopped before close; null while healthy. */
  public Throwable consumerFailure() {
    return host.consumerFailure();
  }

  // ---- shutdown --------------------------------------------------------------------------------

  /**
   * Stops reading decisions, stops every agent (running tasks FAILED "agent stopped", then LEAVE),
   * delivers what was produced and releases the clients.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (host != null) {
      host.close();
    }
    for (NodeAgent a : made) {
      a.close();
      peers.unregister(a);
    }
  }
}
