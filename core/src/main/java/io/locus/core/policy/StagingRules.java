package io.locus.core.policy;

import io.locus.core.model.Ids;
import io.locus.core.model.Task;
import io.locus.core.staging.CostModel;
import io.locus.core.state.NodeView;
import io.locus.core.state.PoolState;
import io.locus.core.state.StagedCache;
import io.locus.core.state.StagingState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;

/** Estimates and rules the Khanna-family policies share (hypergraph spec §2.3–2.7). */
final class StagingRules {
  /** Job ties (D10): earliest arrival, then lowest id (then arrival order, for a total order). */
  static final Comparator<Task> ARRIVAL = Comparator.comparingDouble(Task::submitTime)
      .thenComparing(Task::taskId, Ids.ORDER)
      .thenComparingLong(Task::seq);

  private StagingRules() {}

  /** Nodes that may take jobs, lowest id first, so strict "better" comparisons tie to it (D10). */
  static List<NodeView> nodes(PoolState s) {
    List<NodeView> out = new ArrayList<>();
    for (NodeView n : s.nodes()) {
      if (!n.draining()) {
        out.add(n);
      }
    }
    out.sort(Comparator.comparing(NodeView::id, Ids.ORDER));
    return out;
  }

  /** running[k] = null (one job per node). */
  static boolean idle(NodeView n) {
    return n.freeSlots() > 0 && !n.draining();
  }

  /** Local_k: PRESENT only (MET, JDPDLL) or PRESENT ∪ IN_FLIGHT (MCT, SA, ECT). */
  static Predicate<String> local(StagingState st, NodeView n, boolean countInFlight) {
    StagedCache c = st.cache(n.id());
    return countInFlight ? c::contains : c::isPresent;
  }

  static long missingBytes(Task t, Predicate<String> local) {
    long sum = 0;
    for (var u : t.inputs()) {
      if (!local.test(u.id())) {
        sum += u.bytes();
      }
    }
    return sum;
  }

  /** Exec_k(j) = nominal staging of non-local files + read + compute (§2.3). */
  static double exec(CostModel c, Task t, Predicate<String> local) {
    return c.exec(missingBytes(t, local), t.totalBytes());
  }

  /**
   * ready_k = (running ? plannedCompletion : now) + Σ_{q ∈ queue[k]} Exec_k(q). The planned
   * completion is read as at least now: equal in virtual time (a completion at now is applied
   * before the policy runs), and a late job in a live pool is not "ready in the past".
   */
  static double ready(StagingState st, CostModel c, NodeView n, Predicate<String> local,
      double now) {
    double r = now;
    if (n.busy() > 0) {
      double planned = st.plannedCompletion(n.id());
      if (!Double.isNaN(planned)) {
        r = Math.max(now, planned);
      }
    }
    for (Task q : st.queue(n.id())) {
      r += exec(c, q, local);
    }
    return r;
  }

  /** MET rule (§2.4, D18): min Exec_k; among those, min ready_k; then lowest id. */
  static NodeView minExec(StagingState st, CostModel c, Task t, List<NodeView> nodes,
      boolean countInFlight, double now) {
    NodeView best = null;
    double bestExec = 0;
    double bestReady = 0;
    for (NodeView n : nodes) {
      Predicate<String> local = local(st, n, countInFlight);
      double e = exec(c, t, local);
      if (best == null || e < bestExec) {
        best = n;
        bestExec = e;
        bestReady = ready(st, c, n, local, now);
      } else if (e == bestExec) {
        double r = ready(st, c, n, local, now);
        if (r < bestReady) {
          best = n;
          bestReady = r;
        }
      }
    }
    return best;
  }

  /** MCT rule (§2.5, D19): min ready_k + Exec_k, nominal transfer times; then lowest id. */
  static NodeView minCompletion(StagingState st, CostModel c, Task t, List<NodeView> nodes,
      boolean countInFlight, double now) {
    NodeView best = null;
    double bestCt = 0;
    for (NodeView n : nodes) {
      Predicate<String> local = local(st, n, countInFlight);
      double ct = ready(st, c, n, local, now) + exec(c, t, local);
      if (best == null || ct < bestCt) {
        best = n;
        bestCt = ct;
      }
    }
    return best;
  }
}
