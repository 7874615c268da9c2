package io.locus.sim.hybrid.epoch;

import io.locus.core.model.ResourceVector;
import io.locus.workloads.HybridJob;
import java.util.List;

/**
 * FIFO_HEAD (§2.3, a variant): unsorted submission order with head-of-line blocking, as in §2.2.
 */
public final class FifoHead implements EpochScheduler {
  @Override
  public String name() {
    return "FIFO_HEAD";
  }

  @Override
  public EpochSchedule schedule(List<HybridJob> jobs, ResourceVector cap) {
    return SingleSorted.headOfLine(SortedLists.submissionOrder(jobs), jobs, cap, name());
  }
}
