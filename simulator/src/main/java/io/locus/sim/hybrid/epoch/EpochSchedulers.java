package io.locus.sim.hybrid.epoch;

import io.locus.core.model.Resource;
import io.locus.core.model.ResourceVector;
import io.locus.workloads.HybridJob;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/** The thesis-mode schedulers by name (§2.1–2.3), in the order experiments report them. */
public final class EpochSchedulers {
  private static final Map<String, Supplier<EpochScheduler>> ALL = new LinkedHashMap<>();

  static {
    ALL.put("GREEDY_SORT_MERGE", GreedySortMerge::new);
    ALL.put("SINGLE_SORTED_CPU", () -> new SingleSorted(Resource.CPU));
    ALL.put("SINGLE_SORTED_DISK", () -> new SingleSorted(Resource.DISK));
    ALL.put("GREEDY_SORT_MERGE_BACKFILL", GreedySortMergeBackfill::new);
    ALL.put("SINGLE_SORTED_BACKFILL_CPU", () -> new SingleSortedBackfill(Resource.CPU));
    ALL.put("SINGLE_SORTED_BACKFILL_DISK", () -> new SingleSortedBackfill(Resource.DISK));
    ALL.put("FIFO_HEAD", FifoHead::new);
  }

  /** GREEDY_SORT_MERGE and the thesis's baselines (§2.1, §2.2). */
  public static final List<String> THESIS =
      List.of("GREEDY_SORT_MERGE", "SINGLE_SORTED_CPU", "SINGLE_SORTED_DISK");

  private EpochSchedulers() {}

  public static List<String> names() {
    return List.copyOf(ALL.keySet());
  }

  public static EpochScheduler create(String name) {
    Supplier<EpochScheduler> s = name == null ? null : ALL.get(name.toUpperCase(Locale.ROOT));
    if (s == null) {
      throw new IllegalArgumentException("unknown epoch scheduler '" + name + "'; valid: "
          + String.join(", ", names()));
    }
    return s.get();
  }

  /**
   * A lower bound on any schedule's makespan: ⌈max_r Σ_j j[r] / cap[r]⌉ epochs (every epoch holds
   * at most one capacity of each resource). A reference for the tables, not a scheduler.
   */
  public static int lowerBound(List<HybridJob> jobs, ResourceVector cap) {
    ResourceVector sum = ResourceVector.ZERO;
    for (HybridJob j : jobs) {
      sum = sum.plus(j.demand());
    }
    double need = 0;
    for (Resource r : Resource.values()) {
      if (cap.get(r) > 0) {
        need = Math.max(need, sum.get(r) / cap.get(r));
      }
    }
    return jobs.isEmpty() ? 0 : Math.max(1, (int) Math.ceil(need - ResourceVector.EPS));
  }
}
