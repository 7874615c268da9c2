package io.locus.agent.sim;

import io.locus.agent.AgentConfig;
import io.locus.agent.AgentOutput;
import io.locus.agent.AgentScheduler;
import io.locus.agent.NodeAgent;

/** Builds agents whose reads and runs are modelled in time. */
public final class SimulatedAgents {
  private SimulatedAgents() {}

  /** The endpoint a simulated agent reports: there is nothing to connect to. */
  public static String endpointOf(String nodeId) {
    return "sim://" + nodeId;
  }

  public static NodeAgent create(AgentConfig config, AgentScheduler scheduler, AgentOutput output,
      PeerDirectory peers) {
    return new NodeAgent(config, scheduler, new SimulatedStager(config, scheduler, peers),
        new SimulatedExecutor(config, scheduler), output, endpointOf(config.nodeId()));
  }
}
