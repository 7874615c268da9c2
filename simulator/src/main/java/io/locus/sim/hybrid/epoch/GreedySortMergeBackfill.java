package io.locus.sim.hybrid.epoch;

import io.locus.core.model.Resource;
import io.locus.core.model.ResourceVector;
import io.locus.workloads.HybridJob;
import java.util.List;

/**
 * GREEDY_SORT_MERGE_BACKFILL (§2.3, a variant, not the thesis's scheduler): as
 * {@link GreedySortMerge}, but each turn takes the first fitting not-done job of the list instead
 * of only its head; a miss means no job of that list fits.
 */
public final class GreedySortMergeBackfill implements EpochScheduler {
  private final List<Resource> order;

  public GreedySortMergeBackfill() {
    this(Resource.THESIS_ORDER);
  }

  public GreedySortMergeBackfill(List<Resource> order) {
    this.order = List.copyOf(order);
  }

  @Override
  public String name() {
    return "GREEDY_SORT_MERGE_BACKFILL";
  }

  @Override
  public EpochSchedule schedule(List<HybridJob> jobs, ResourceVector cap) {
    return GreedySortMerge.run(jobs, cap, order, true, name());
  }
}
