package io.locus.core.policy;

import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import io.locus.core.staging.CostModel;
import io.locus.core.state.NodeView;
import io.locus.core.state.PoolState;
import io.locus.core.state.StagedCache;
import io.locus.core.state.StagingState;
import io.locus.hypergraph.Partition;
import io.locus.hypergraph.Partitioner;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * ONLINE_HPS (hypergraph spec §2.2). Stage 1: at every event, all pending jobs are re-mapped by a
 * P-way partition of the hypergraph of file sharing among pending and running jobs (km1, running
 * jobs fixed to their nodes, balanced estimated work). Stage 2: every idle node starts the min-ECT
 * job of its group, its transfers reserved on the storage nodes' Gantt charts, VALUE eviction at
 * commit — the same stage 2 as MET/MCT/SA.
 *
 * <p>Re-partitioning budget: with {@code repartitionInterval} Δ > 0 or {@code repartitionEvents}
 * N > 1, the partition is recomputed at most every Δ seconds of pool time and every N dispatches;
 * jobs arriving in between are mapped to the group their files' holders are in (else the least
 * loaded group) until the next partition. Δ = 0 and N = 1 is the spec (D1).
 */
public final class OnlineHps extends GanttStaging {
  private final Partitioner partitioner;
  /** The partition's allowed imbalance when none is given. */
  public static final double DEFAULT_EPS = 0.10;

  private final double eps;
  private final long seed;
  private final double repartitionInterval;
  private final int repartitionEvents;
  private double lastPartition = Double.NEGATIVE_INFINITY;
  private int eventsSincePartition = Integer.MAX_VALUE / 2;
  private long partitions;

  public OnlineHps(CostModel cost, Partitioner partitioner, double eps, long seed,
      double repartitionInterval, int repartitionEvents) {
    super(cost);
    if (!(eps >= 0) || !Double.isFinite(eps) || !(repartitionInterval >= 0)
        || !Double.isFinite(repartitionInterval) || repartitionEvents < 1) {
      throw new IllegalArgumentException("ONLINE_HPS needs eps ≥ 0, repartitionInterval ≥ 0 and "
          + "repartitionEvents ≥ 1");
    }
    this.partitioner = partitioner;
    this.eps = eps;
    this.seed = seed;
    this.repartitionInterval = repartitionInterval;
    this.repartitionEvents = repartitionEvents;
  }

  @Override
  public String name() {
    return "ONLINE_HPS";
  }

  /** How many times the hypergraph was partitioned (for the budget trade-off). */
  public long partitions() {
    return partitions;
  }

  public Partitioner partitioner() {
    return partitioner;
  }

  @Override
  public void dispatch(Dispatch d) {
    PoolState s = d.state();
    StagingState st = s.staging();
    st.useEviction(StagingState.VALUE);
    st.pruneCharts(d.now());
    List<NodeView> nodes = StagingRules.nodes(s);
    if (nodes.isEmpty()) {
      return;
    }
    eventsSincePartition++;
    boolean due = d.now() - lastPartition >= repartitionInterval
        && eventsSincePartition >= repartitionEvents;
    if (due && s.queueLength() > 0) {
      repartition(d, s, st, nodes);
      lastPartition = d.now();
      eventsSincePartition = 0;
      partitions++;
    } else {
      for (Task t : new ArrayList<>(st.unmapped())) {
        st.map(t, provisionalGroup(st, t, nodes).id());
      }
    }
    dispatchIdleNodes(d, st, nodes);
  }

  @Override
  NodeView map(Dispatch d, StagingState st, Task t, List<NodeView> nodes) {
    return provisionalGroup(st, t, nodes);
  }

  /** RESCHEDULE's stage 1: partition, then every pending job joins its part's group (D32). */
  private void repartition(Dispatch d, PoolState s, StagingState st, List<NodeView> nodes) {
    List<Task> pending = new ArrayList<>(s.queue());
    List<OnlineHpsGraph.RunningNode> running = new ArrayList<>();
    for (int k = 0; k < nodes.size(); k++) {
      NodeView n = nodes.get(k);
      String r = st.runningTask(n.id());
      if (r == null || s.running(r) == null) {
        continue;
      }
      Task job = s.running(r).task();
      StagedCache c = st.cache(n.id());
      Set<String> present = new HashSet<>();
      double readCompute = 0;
      for (InputFile u : job.inputs()) {
        if (c.isPresent(u.id())) {
          present.add(u.id());
        }
        readCompute += cost.readComputeSeconds(u.bytes());
      }
      // ECT = readStart + read + compute (§2.2 COMMIT), so readStart follows from the plan
      double readStart = st.plannedCompletion(n.id()) - readCompute;
      running.add(new OnlineHpsGraph.RunningNode(k, job, c.files(), present, readStart));
    }
    OnlineHpsGraph.Built g = OnlineHpsGraph.build(pending, running, cost, nodes.size(), d.now());
    Partition part = partitioner.partition(g.graph(), nodes.size(), eps, g.fixed(), seed);
    for (int j = 0; j < pending.size(); j++) {
      st.remap(pending.get(j), nodes.get(part.part(j)).id());
    }
  }

  /**
   * Between partitions: the group of the node caching most of the job's bytes, else the group with
   * the least queued work (ties: lowest id). Only used under a re-partitioning budget.
   */
  private NodeView provisionalGroup(StagingState st, Task t, List<NodeView> nodes) {
    NodeView best = null;
    long bestBytes = -1;
    int bestQueue = Integer.MAX_VALUE;
    for (NodeView n : nodes) {
      StagedCache c = st.cache(n.id());
      long b = 0;
      for (InputFile u : t.inputs()) {
        if (c.contains(u.id())) {
          b += u.bytes();
        }
      }
      int q = st.queue(n.id()).size() + n.busy();
      if (b > bestBytes || (b == bestBytes && q < bestQueue)) {
        best = n;
        bestBytes = b;
        bestQueue = q;
      }
    }
    return best;
  }
}
