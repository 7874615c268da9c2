package io.locus.sim.hybrid.cluster;

import io.locus.workloads.HybridJob;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.TreeMap;

/**
 * FIRST_FIT, the plain cluster baseline: waiting jobs in submission order, each on the lowest-id
 * node where it fits; a job that fits nowhere waits and the scan goes on (no head-of-line
 * blocking, no sorting, no complementarity).
 */
public final class OnlineFirstFit implements OnlineScheduler {
  private final TreeMap<Long, HybridJob> queue = new TreeMap<>();

  @Override
  public String name() {
    return "FIRST_FIT";
  }

  @Override
  public void arrive(HybridJob job) {
    if (queue.putIfAbsent(job.seq(), job) != null) {
      throw new IllegalArgumentException("submission sequence " + job.seq() + " already waiting");
    }
  }

  @Override
  public int waiting() {
    return queue.size();
  }

  @Override
  public List<Start> dispatch(HybridCluster cluster, double now) {
    List<Start> starts = new ArrayList<>();
    for (Iterator<HybridJob> it = queue.values().iterator(); it.hasNext(); ) {
      HybridJob j = it.next();
      HybridCluster.Node k = NodeChoice.LOWEST_ID.choose(cluster, j.demand());
      if (k != null) {
        cluster.start(j.id(), k.id(), j.demand());
        it.remove();
        starts.add(new Start(j, k.id()));
      }
    }
    return starts;
  }
}
