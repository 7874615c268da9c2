package io.locus.core.policy;

import io.locus.core.model.Ids;
import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import io.locus.core.state.NodeView;
import io.locus.core.state.PoolState;
import io.locus.core.state.RunningTask;
import io.locus.core.state.StagingState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The two data waits the file policies share, as {@link DataWait}s (read-only). */
final class DataWaits {
  private DataWaits() {}

  /**
   * MCH's wait (also GCC in MCH mode and EFT's agent-cache model): t has bytes cached somewhere
   * and none of its best holders (nodes holding maxCached(t)) can take it now. The node named is
   * the best holder forecast to have a slot first (placed attempts end at placement + compute,
   * the only duration a file task declares; ties to the lowest id), {@code until} that forecast
   * (NaN if it is not after {@code now}: unknown), and the bytes saved are maxCached(t) less the
   * most any node that can take it now holds. Visits t's holders only. Null when t has no cached
   * byte or a best holder can take it (then the next dispatch places it there).
   */
  static DataWait bestHolder(PoolState s, Task t, double now, String rule) {
    // one pass over t's distinct holders (maxCached(t) is the most any of them holds)
    long max = 0;
    long freeBest = 0;
    List<NodeView> busy = new ArrayList<>();
    List<Long> busyBytes = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (InputFile u : t.inputs()) {
      for (String id : s.holders(u.id())) {
        NodeView n = seen.add(id) ? s.node(id) : null;
        if (n == null) {
          continue;
        }
        long c = s.cached(t, n);
        max = Math.max(max, c);
        if (PoolState.canTake(n)) {
          freeBest = Math.max(freeBest, c);
        } else {
          busy.add(n);
          busyBytes.add(c);
        }
      }
    }
    if (max == 0 || freeBest == max) {
      return null; // nothing cached, or a best holder can take it: the next dispatch places it
    }
    NodeView holder = null;
    double holderAt = Double.POSITIVE_INFINITY;
    for (int i = 0; i < busy.size(); i++) {
      NodeView n = busy.get(i);
      if (busyBytes.get(i) != max) {
        continue;
      }
      double at = freeAt(s, n, now);
      if (holder == null || at < holderAt
          || (at == holderAt && Ids.compare(n.id(), holder.id()) < 0)) {
        holder = n;
        holderAt = at;
      }
    }
    return new DataWait(holder.id(), holderAt > now && Double.isFinite(holderAt) ? holderAt
        : Double.NaN, max - freeBest, rule);
  }

  /**
   * When node n is forecast to have a slot: the (placed − slots + 1)-th end among its placed
   * attempts, each at its placement time plus its compute seconds; infinity for a draining node.
   */
  static double freeAt(PoolState s, NodeView n, double now) {
    if (n.draining()) {
      return Double.POSITIVE_INFINITY;
    }
    List<RunningTask> placed = s.placedOn(n.id());
    if (placed.size() < n.slots()) {
      return now;
    }
    double[] ends = new double[placed.size()];
    for (int i = 0; i < ends.length; i++) {
      RunningTask r = placed.get(i);
      ends[i] = Math.max(now, r.startTime() + r.task().totalComputeSeconds());
    }
    Arrays.sort(ends);
    return ends[placed.size() - n.slots()];
  }

  /**
   * The Khanna family's wait (MET, MCT, SA, JDPDLL, ONLINE_HPS, EFT on staged caches): a job is
   * mapped to a node for good (for its data: the node needing the least transfer or finishing it
   * first) and waits for that node while it runs another job, until that job's planned completion
   * (NaN when not planned, JDPDLL). The bytes are not priced per job (−1): the mapping weighed
   * them against the node's queue when the job arrived. Null when the job is not mapped yet or its
   * node is idle (it starts at the next dispatch), or the pool has no staging state.
   */
  static DataWait mappedNode(PoolState s, Task t, double now, String rule) {
    if (!s.hasStaging()) {
      return null; // never create it here: that would change the pool
    }
    StagingState st = s.staging();
    String k = st.mappedNode(t.taskId());
    NodeView n = k == null ? null : s.node(k);
    if (n == null || StagingRules.idle(n)) {
      return null;
    }
    double until = st.plannedCompletion(k);
    return new DataWait(k, until > now ? until : Double.NaN, -1, rule);
  }
}
