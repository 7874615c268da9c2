package io.locus.sim.hybrid.epoch;

import io.locus.core.model.Resource;
import io.locus.core.model.ResourceVector;
import io.locus.workloads.HybridJob;
import java.util.ArrayList;
import java.util.List;

/**
 * SINGLE_SORTED_BACKFILL (§2.3, a variant): first-fit decreasing on one list sorted by CPU (or
 * disk): each epoch scans the whole list and dispatches every not-done job that still fits.
 */
public final class SingleSortedBackfill implements EpochScheduler {
  private final Resource key;

  public SingleSortedBackfill(Resource key) {
    this.key = key;
  }

  @Override
  public String name() {
    return "SINGLE_SORTED_BACKFILL_" + key.name();
  }

  @Override
  public EpochSchedule schedule(List<HybridJob> jobs, ResourceVector capacity) {
    EpochScheduler.requireFits(jobs, capacity);
    SortedLists list = new SortedLists(jobs, List.of(key));
    List<List<String>> epochs = new ArrayList<>();
    while (list.anyLeft()) {
      ResourceVector cap = capacity;
      List<String> epoch = new ArrayList<>();
      int h;
      while ((h = list.firstFitting(0, cap)) >= 0) {
        HybridJob j = list.job(h);
        epoch.add(j.id());
        list.markDone(h);
        cap = cap.minus(j.demand());
      }
      epochs.add(epoch);
    }
    return new EpochSchedule(name(), epochs, null);
  }
}
