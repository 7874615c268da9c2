package io.locus.agent;

import io.locus.schemas.NodeReport;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * Makes the agents of one mode for an {@link AgentHost}: simulated
 * ({@code io.locus.agent.sim.SimulatedAgents}) or real ({@code io.locus.agent.real.RealAgents}).
 * The host owns the Kafka side; the factory owns what an agent is made of.
 *
 * @param <A> what the host hands out for a node: the protocol agent itself, or a wrapper of it
 */
public interface AgentFactory<A> {
  /** The pool every agent of the host serves. */
  String pool();

  /** Prefix of the host's Kafka client ids and thread names (e.g. "locus-agent-sim"). */
  String clientPrefix();

  /** Fails (IllegalArgumentException) when this factory cannot make agents for these nodes. */
  default void check(List<String> nodeIds) {}

  /**
   * The output the host's agents share, made from the host's Kafka output: that output itself,
   * or one that holds events back to batch them ({@link BatchingOutput}).
   */
  default AgentOutput output(AgentOutput kafka, AgentScheduler scheduler) {
    return kafka;
  }

  /** Builds the agent of one node; the host starts it. */
  A create(String nodeId, AgentScheduler scheduler, AgentOutput output);

  /** The protocol agent inside {@code agent}: the one the host routes decisions to. */
  NodeAgent protocol(A agent);

  /**
   * Node reports of the pool, for a peer directory; null not to read node-reports.
   */
  default ReportsListener reports() {
    return null;
  }

  /** The host closed {@code agent}'s protocol agent: release what {@link #create} took. */
  default void closed(A agent) {}

  /**
   * Node reports of the pool, for a peer directory.
   *
   * @param listener called on the host's consumer thread for each report of the pool; keep it
   *     short
   * @param lookback how far before now to start reading (heartbeats carry endpoints, so a few
   *     heartbeat intervals suffice)
   */
  record ReportsListener(Consumer<NodeReport> listener, Duration lookback) {}
}
