package io.locus.agent;

import io.locus.schemas.NodeReport;
import io.locus.schemas.TaskEvent;

/**
 * Where an agent's events go: Kafka in a host, a list in tests. Called with the agent's lock held, in
 * the order the agent produced them, so an implementation must not block for long nor call back into
 * the agent.
 */
public interface AgentOutput {
  void taskEvent(TaskEvent event);

  void nodeReport(NodeReport report);

  /**
   * Sends now whatever this output holds back ({@link BatchingOutput}); the others send every
   * record as it comes and have nothing to do.
   */
  default void flush() {}
}
