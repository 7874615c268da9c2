package io.locus.sim.hybrid.cluster;

import io.locus.core.model.ResourceVector;

/** Where a dispatched head job goes, among the nodes it fits on. */
public enum NodeChoice {
  /**
   * §2.5: k* = argmax comp(L_k, p) over the nodes where p fits; ties by the smaller resulting peak
   * max_r (L_k[r] + p[r]), then by lowest id. Loads and demands as shares of the node's capacity.
   */
  COMPLEMENTARY,
  /** The lowest-id node where it fits (plain first fit; a baseline). */
  LOWEST_ID;

  /** The chosen node, or null if p fits on no node. */
  public HybridCluster.Node choose(HybridCluster cluster, ResourceVector p) {
    HybridCluster.Node best = null;
    double bestComp = 0;
    double bestPeak = 0;
    for (HybridCluster.Node n : cluster.nodeView()) {
      if (!n.fits(p)) {
        continue;
      }
      if (this == LOWEST_ID) {
        return n;
      }
      ResourceVector share = n.share();
      ResourceVector ps = p.dividedBy(n.capacity());
      double comp = ResourceVector.comp(share, ps);
      double peak = share.plus(ps).peak();
      // nodes come in lowest-id order, so strict comparisons keep the lowest id on full ties
      if (best == null || comp > bestComp || (comp == bestComp && peak < bestPeak)) {
        best = n;
        bestComp = comp;
        bestPeak = peak;
      }
    }
    return best;
  }
}
