package io.locus.sim.hybrid.epoch;

import io.locus.core.model.Resource;
import io.locus.core.model.ResourceVector;
import io.locus.workloads.HybridJob;
import java.util.ArrayList;
import java.util.List;

/**
 * GREEDY_SORT_MERGE (§2.1, D3), the thesis's scheduler in the epoch model: one list per resource
 * sorted by that resource, descending; the pointer visits the lists round robin and looks at the
 * head only. A head that fits the remaining capacity is dispatched (and leaves every list); one
 * that does not is a miss. Either way the pointer advances. The epoch closes after |R|
 * consecutive misses; the pointer persists into the next epoch.
 */
public final class GreedySortMerge implements EpochScheduler {
  private final List<Resource> order;

  public GreedySortMerge() {
    this(Resource.THESIS_ORDER);
  }

  public GreedySortMerge(List<Resource> order) {
    if (order.isEmpty()) {
      throw new IllegalArgumentException("at least one resource list is needed");
    }
    this.order = List.copyOf(order);
  }

  @Override
  public String name() {
    return "GREEDY_SORT_MERGE";
  }

  @Override
  public EpochSchedule schedule(List<HybridJob> jobs, ResourceVector cap) {
    return run(jobs, cap, order, false, name());
  }

  /** Shared with the backfilling variant, which takes the first fitting job instead of the head. */
  static EpochSchedule run(List<HybridJob> jobs, ResourceVector capacity, List<Resource> order,
      boolean backfill, String name) {
    EpochScheduler.requireFits(jobs, capacity);
    SortedLists lists = new SortedLists(jobs, order);
    int r = lists.size();
    int ptr = 0;
    List<List<String>> epochs = new ArrayList<>();
    List<Resource> ptrs = new ArrayList<>();
    while (lists.anyLeft()) {
      ResourceVector cap = capacity;
      List<String> epoch = new ArrayList<>();
      int misses = 0;
      while (misses < r && lists.anyLeft()) {
        int h = backfill ? lists.firstFitting(ptr, cap) : lists.head(ptr);
        if (h >= 0 && lists.job(h).demand().fitsIn(cap)) {
          HybridJob j = lists.job(h);
          epoch.add(j.id());
          lists.markDone(h);
          cap = cap.minus(j.demand());
          misses = 0;
        } else {
          misses++;
        }
        ptr = (ptr + 1) % r;
      }
      if (epoch.isEmpty()) {
        // unreachable after requireFits: an empty epoch has the full capacity
        throw new IllegalStateException("no job fits an empty epoch");
      }
      epochs.add(epoch);
      ptrs.add(order.get(ptr));
    }
    return new EpochSchedule(name, epochs, ptrs);
  }
}
