package io.locus.sim.hybrid.cluster;

import io.locus.core.model.Ids;
import io.locus.core.model.ResourceVector;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Cluster mode's nodes (§2.5): each node k has a capacity vector CAP_k and the pool a headroom
 * h_r (D4: 0.9), so free_k = h ⊙ CAP_k − Σ vectors of the jobs running on k. Memory is part of the
 * fit test, hence a hard constraint (D7). Nodes are kept in lowest-id order (the tie-break).
 *
 * <p>A job too large for even an empty node (the §2.8 cold-start vector ⟨1, m, 1⟩ against a 0.9
 * headroom) may still start on an idle node, alone, if its memory fits the node's raw capacity:
 * the spec's intent is that such a job "runs alone until profiled", not that it never runs.
 */
public final class HybridCluster {
  private final ResourceVector headroom;
  private final Map<String, Node> nodes = new LinkedHashMap<>();
  private final Map<String, Running> running = new HashMap<>();

  /** A node's capacity and current load (the sum of its running jobs' vectors). */
  public static final class Node {
    private final String id;
    private final ResourceVector capacity;
    private final ResourceVector limit;
    private ResourceVector load = ResourceVector.ZERO;
    private int jobs;

    Node(String id, ResourceVector capacity, ResourceVector headroom) {
      this.id = id;
      this.capacity = capacity;
      this.limit = capacity.times(headroom);
    }

    public String id() {
      return id;
    }

    public ResourceVector capacity() {
      return capacity;
    }

    public ResourceVector load() {
      return load;
    }

    /** h ⊙ CAP_k − load (clamped at 0). */
    public ResourceVector free() {
      return limit.minus(load);
    }

    public int jobs() {
      return jobs;
    }

    /** The load as shares of this node's capacity (what comp and the fluid model compare). */
    public ResourceVector share() {
      return load.dividedBy(capacity);
    }

    /** free_k ≥ p in every dimension, or an idle node taking an oversize job alone. */
    public boolean fits(ResourceVector p) {
      if (load.plus(p).fitsIn(limit)) {
        return true;
      }
      return jobs == 0 && p.mem() <= capacity.mem() + ResourceVector.EPS;
    }
  }

  private record Running(String node, ResourceVector demand) {}

  /** Nodes of equal capacity. */
  public HybridCluster(int nodes, ResourceVector capacity, ResourceVector headroom) {
    this(ids(nodes), capacity, headroom);
  }

  public HybridCluster(List<String> ids, ResourceVector capacity, ResourceVector headroom) {
    this.headroom = headroom;
    if (headroom.cpu() <= 0 || headroom.mem() <= 0 || headroom.disk() <= 0) {
      throw new IllegalArgumentException("headroom must be > 0 for CPU, MEM and DISK, got "
          + headroom);
    }
    List<String> sorted = new ArrayList<>(ids);
    sorted.sort(Ids.ORDER);
    for (String id : sorted) {
      if (nodes.put(id, new Node(id, capacity, headroom)) != null) {
        throw new IllegalArgumentException("duplicate node id " + id);
      }
    }
    if (nodes.isEmpty()) {
      throw new IllegalArgumentException("a cluster needs at least one node");
    }
  }

  private static List<String> ids(int n) {
    List<String> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add("n" + i);
    }
    return out;
  }

  public ResourceVector headroom() {
    return headroom;
  }

  /** In lowest-id order. */
  public List<Node> nodes() {
    return Collections.unmodifiableList(new ArrayList<>(nodes.values()));
  }

  Iterable<Node> nodeView() {
    return nodes.values();
  }

  public Node node(String id) {
    return nodes.get(id);
  }

  public int runningJobs() {
    return running.size();
  }

  public boolean isRunning(String jobId) {
    return running.containsKey(jobId);
  }

  /** Starts a job on a node (the fit test is the policy's business; profile-blind ones skip it). */
  public void start(String jobId, String nodeId, ResourceVector demand) {
    Node n = nodes.get(nodeId);
    if (n == null) {
      throw new IllegalArgumentException("unknown node " + nodeId);
    }
    if (running.putIfAbsent(jobId, new Running(nodeId, demand)) != null) {
      throw new IllegalStateException("job " + jobId + " is already running");
    }
    n.load = n.load.plus(demand);
    n.jobs++;
  }

  /** A job completed: its vector is freed on its node (§2.4 ON_COMPLETION). */
  public void finish(String jobId) {
    Running r = running.remove(jobId);
    if (r == null) {
      throw new IllegalStateException("job " + jobId + " is not running");
    }
    Node n = nodes.get(r.node());
    n.jobs--;
    // recompute rather than subtract, so rounding never accumulates over thousands of jobs
    ResourceVector sum = ResourceVector.ZERO;
    for (Running o : running.values()) {
      if (o.node().equals(r.node())) {
        sum = sum.plus(o.demand());
      }
    }
    n.load = n.jobs == 0 ? ResourceVector.ZERO : sum;
  }

  /** The node a job runs on, or null. */
  public String nodeOf(String jobId) {
    Running r = running.get(jobId);
    return r == null ? null : r.node();
  }
}
