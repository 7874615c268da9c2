package io.locus.agent.real;

import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where each peer node serves its cache: node id → base URL ({@code http://host:port}).
 *
 * <p>Learnt from the pool's node-reports: every report an agent sends (REGISTER, HEARTBEAT, cache
 * reports) carries its endpoint, so a reader starting a little in the past knows every live peer
 * within one heartbeat interval; a LEAVE forgets the node. Agents of the same host add each other
 * directly. Entries configured by hand ({@code peers.static}) win over learnt ones and are never
 * forgotten. A node with no known endpoint is treated like a stale hint: the read falls back to
 * storage. Thread-safe, lock-free reads.
 */
public final class PeerEndpoints {
  private static final Logger LOG = LoggerFactory.getLogger(PeerEndpoints.class);

  private final Map<String, String> fixed;
  private final Map<String, String> learnt = new ConcurrentHashMap<>();

  public PeerEndpoints(Map<String, String> fixed) {
    Map<String, String> f = new ConcurrentHashMap<>();
    fixed.forEach((n, u) -> {
      if (!isHttp(u)) {
        throw new IllegalArgumentException("peer " + n + ": endpoint " + u
            + " is not an http(s) URL");
      }
      f.put(n, u);
    });
    this.fixed = Map.copyOf(f);
  }

  public PeerEndpoints() {
    this(Map.of());
  }

  static boolean isHttp(String u) {
    try {
      URI uri = URI.create(u);
      String s = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      return (s.equals("http") || s.equals("https")) && uri.getHost() != null
          && uri.getRawUserInfo() == null;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** The node's endpoint, or null when unknown. */
  public String endpoint(String node) {
    if (node == null) {
      return null;
    }
    String f = fixed.get(node);
    return f != null ? f : learnt.get(node);
  }

  public void put(String node, String endpoint) {
    if (!isHttp(endpoint)) {
      // Simulated agents report sim://...; anything else that is not http(s) is no peer of ours.
      LOG.debug("ignoring endpoint {} of {}", endpoint, node);
      return;
    }
    learnt.put(node, endpoint);
  }

  public void remove(String node) {
    learnt.remove(node);
  }

  /** Applies one node report of the pool. */
  public void onReport(NodeReport r) {
    if (r.getType() == NodeReportType.LEAVE) {
      remove(r.getNode());
    } else if (r.getEndpoint() != null) {
      put(r.getNode(), r.getEndpoint());
    }
  }

  /** Known endpoints now (configured ones win). */
  public Map<String, String> snapshot() {
    Map<String, String> all = new TreeMap<>(learnt);
    all.putAll(fixed);
    return all;
  }
}
