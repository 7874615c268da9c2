package io.locus.agent.sim;

/**
 * Answers "does this peer hold this file right now?" for simulated peer reads: agents in one JVM
 * look each other up instead of fetching over HTTP. Must be callable from any agent's lock without
 * taking another agent's lock.
 */
@FunctionalInterface
public interface PeerDirectory {
  PeerDirectory NONE = (node, file) -> false;

  boolean holds(String node, String fileId);
}
