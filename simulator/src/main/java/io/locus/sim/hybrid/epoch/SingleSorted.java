package io.locus.sim.hybrid.epoch;

import io.locus.core.model.Resource;
import io.locus.core.model.ResourceVector;
import io.locus.workloads.HybridJob;
import java.util.ArrayList;
import java.util.List;

/**
 * SINGLE_SORTED_CPU / SINGLE_SORTED_DISK (§2.2, the thesis's baseline, D10): one list sorted by
 * CPU (or disk) demand, descending, ties by submission order; each epoch dispatches from the head
 * while the head fits, and closes at the first head that does not (strict head-of-line blocking).
 */
public final class SingleSorted implements EpochScheduler {
  private final Resource key;

  public SingleSorted(Resource key) {
    this.key = key;
  }

  @Override
  public String name() {
    return "SINGLE_SORTED_" + key.name();
  }

  @Override
  public EpochSchedule schedule(List<HybridJob> jobs, ResourceVector cap) {
    return headOfLine(new SortedLists(jobs, List.of(key)), jobs, cap, name());
  }

  /** §2.2's loop over one list; also FIFO_HEAD's, over the unsorted submission order. */
  static EpochSchedule headOfLine(SortedLists list, List<HybridJob> jobs, ResourceVector capacity,
      String name) {
    EpochScheduler.requireFits(jobs, capacity);
    List<List<String>> epochs = new ArrayList<>();
    while (list.anyLeft()) {
      ResourceVector cap = capacity;
      List<String> epoch = new ArrayList<>();
      int h;
      while ((h = list.head(0)) >= 0 && list.job(h).demand().fitsIn(cap)) {
        HybridJob j = list.job(h);
        epoch.add(j.id());
        list.markDone(h);
        cap = cap.minus(j.demand());
      }
      epochs.add(epoch);
    }
    return new EpochSchedule(name, epochs, null);
  }
}
