package io.locus.sim.hybrid.cluster;

import io.locus.workloads.HybridJob;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * FIFO_HEAD online (§2.3 variant, event-driven): the oldest waiting job starts if it fits on some
 * node (chosen by {@link NodeChoice}); otherwise nothing starts until the next event (strict
 * head-of-line blocking).
 */
public final class OnlineFifoHead implements OnlineScheduler {
  private final NodeChoice choice;
  private final TreeMap<Long, HybridJob> queue = new TreeMap<>();

  public OnlineFifoHead(NodeChoice choice) {
    this.choice = choice;
  }

  @Override
  public String name() {
    return choice == NodeChoice.COMPLEMENTARY ? "FIFO_HEAD" : "FIFO_HEAD/" + choice;
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
    while (!queue.isEmpty()) {
      HybridJob h = queue.firstEntry().getValue();
      HybridCluster.Node k = choice.choose(cluster, h.demand());
      if (k == null) {
        break;
      }
      cluster.start(h.id(), k.id(), h.demand());
      queue.pollFirstEntry();
      starts.add(new Start(h, k.id()));
    }
    return starts;
  }
}
