package io.locus.agent.sim;

import io.locus.agent.NodeAgent;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The agents of this JVM by node id. A node that is not here (another JVM, or gone) holds nothing,
 * so a peer read from it falls back to storage, as a stale hint does. Share one instance between
 * hosts to let their agents read from each other.
 */
public final class LocalPeerDirectory implements PeerDirectory {
  private final Map<String, NodeAgent> agents = new ConcurrentHashMap<>();

  public void register(NodeAgent agent) {
    NodeAgent old = agents.putIfAbsent(agent.nodeId(), agent);
    if (old != null && old != agent) {
      throw new IllegalStateException("node " + agent.nodeId() + " is already registered here");
    }
  }

  public void unregister(NodeAgent agent) {
    agents.remove(agent.nodeId(), agent);
  }

  @Override
  public boolean holds(String node, String fileId) {
    NodeAgent a = agents.get(node);
    return a != null && a.holds(fileId);
  }
}
