package io.locus.sim.hybrid.cluster;

import io.locus.workloads.HybridJob;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * A profile-blind slot scheduler, the usual cluster default the thesis argues against: every node
 * has {@code slots} slots; the oldest waiting job goes to the lowest-id node with a free slot,
 * whatever its demand. Co-located jobs then contend in the fluid model (§1.4). A simulator
 * baseline only; it is not a spec policy.
 */
public final class ProfileBlindSlots implements OnlineScheduler {
  private final int slots;
  private final TreeMap<Long, HybridJob> queue = new TreeMap<>();

  public ProfileBlindSlots(int slots) {
    if (slots < 1) {
      throw new IllegalArgumentException("slots must be >= 1, got " + slots);
    }
    this.slots = slots;
  }

  @Override
  public String name() {
    return "SLOTS-" + slots;
  }

  @Override
  public void arrive(HybridJob job) {
    queue.put(job.seq(), job);
  }

  @Override
  public int waiting() {
    return queue.size();
  }

  @Override
  public List<Start> dispatch(HybridCluster cluster, double now) {
    List<Start> starts = new ArrayList<>();
    for (HybridCluster.Node n : cluster.nodes()) {
      while (n.jobs() < slots && !queue.isEmpty()) {
        HybridJob j = queue.pollFirstEntry().getValue();
        cluster.start(j.id(), n.id(), j.demand());
        starts.add(new Start(j, n.id()));
      }
    }
    return starts;
  }
}
