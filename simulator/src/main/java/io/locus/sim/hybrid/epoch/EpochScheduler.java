package io.locus.sim.hybrid.epoch;

import io.locus.core.model.ResourceVector;
import io.locus.workloads.HybridJob;
import java.util.List;

/**
 * A thesis-mode scheduler (§1.4 epoch model, A5, A7): every job lasts one epoch; the capacity
 * vector resets at the start of every epoch; the schedule is which jobs run in which epoch.
 */
public interface EpochScheduler {
  /** The spec's term, e.g. "GREEDY_SORT_MERGE". */
  String name();

  /**
   * Schedules every job (in submission order; {@link HybridJob#seq()} breaks ties) into epochs of
   * capacity {@code cap}.
   *
   * @throws IllegalArgumentException if a job is larger than the capacity (it could never run)
   */
  EpochSchedule schedule(List<HybridJob> jobs, ResourceVector cap);

  /** Rejects a job that fits no empty epoch (§2.1: "job larger than capacity"). */
  static void requireFits(List<HybridJob> jobs, ResourceVector cap) {
    for (HybridJob j : jobs) {
      if (!j.demand().fitsIn(cap)) {
        throw new IllegalArgumentException("job " + j.id() + " " + j.demand()
            + " is larger than the capacity " + cap + " and can never be dispatched");
      }
    }
  }
}
