package io.locus.sim.hybrid.cluster;

import io.locus.workloads.HybridJob;
import java.util.List;

/**
 * A cluster-mode scheduler (§2.4, D5): jobs arrive over time; at every arrival and completion the
 * driver applies the event (arrival here, completion on the {@link HybridCluster}) and calls
 * {@link #dispatch}, which starts what the policy wants and returns the starts in order.
 */
public interface OnlineScheduler {
  String name();

  /** A job entered the waiting lists (D14: immediately). */
  void arrive(HybridJob job);

  /** Starts jobs on the cluster (each start is already applied to it when returned). */
  List<Start> dispatch(HybridCluster cluster, double now);

  /** Jobs waiting. */
  int waiting();

  /** A job started on a node. */
  record Start(HybridJob job, String node) {}
}
