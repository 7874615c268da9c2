package io.locus.core.staging;

import io.locus.core.model.InputFile;
import io.locus.core.model.Ids;
import io.locus.core.model.Task;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.Predicate;

/**
 * ECT(j, k, t0) of hypergraph spec §1.6: the node's ingress receives one file at a time from t0
 * (no prefetch, D12), each storage node serves one transfer at a time (its Gantt chart), and the
 * files are ordered greedily by minimum transfer completion time (ties D10: lower storage node,
 * then lower file id). The charts are only read: the plan's own reservations are kept aside while
 * planning, so an evaluation never changes state; the caller reserves the plan when it commits.
 * A job's inputs are its file set F_j (distinct ids).
 */
public final class EctPlanner {
  private final CostModel cost;

  public EctPlanner(CostModel cost) {
    this.cost = cost;
  }

  public CostModel cost() {
    return cost;
  }

  /**
   * @param t0 when node k becomes available (now if idle)
   * @param local whether a file is in k's cache, PRESENT or IN_FLIGHT (those are not fetched)
   * @param charts the Gantt chart of each storage node (may be empty)
   */
  public Ect ect(Task j, double t0, Predicate<String> local, IntFunction<GanttChart> charts) {
    List<InputFile> toFetch = new ArrayList<>();
    long totalBytes = 0;
    for (InputFile u : j.inputs()) {
      totalBytes += u.bytes();
      if (!local.test(u.id())) {
        toFetch.add(u);
      }
    }
    List<PlannedTransfer> plan = new ArrayList<>(toFetch.size());
    double cursor = t0;
    double last = t0;
    while (!toFetch.isEmpty()) {
      int bestIdx = -1;
      int bestStorage = 0;
      double bestStart = 0;
      double bestTct = 0;
      for (int i = 0; i < toFetch.size(); i++) {
        InputFile u = toFetch.get(i);
        int s = cost.storageOf(u);
        double d = cost.transferSeconds(u.bytes());
        double st = slot(charts.apply(s), plan, s, cursor, d);
        double tct = st + d;
        if (bestIdx < 0 || tct < bestTct || (tct == bestTct && (s < bestStorage
            || (s == bestStorage && Ids.compare(u.id(), toFetch.get(bestIdx).id()) < 0)))) {
          bestIdx = i;
          bestStorage = s;
          bestStart = st;
          bestTct = tct;
        }
      }
      InputFile f = toFetch.remove(bestIdx);
      plan.add(new PlannedTransfer(f, bestStorage, bestStart, bestTct));
      cursor = bestTct;
      last = bestTct;
    }
    return new Ect(last + cost.readComputeSeconds(totalBytes), last, plan);
  }

  /** First fit on the chart and on this plan's tentative reservations on the same storage node. */
  private static double slot(GanttChart chart, List<PlannedTransfer> tentative, int storage,
      double notBefore, double len) {
    if (len <= 0) {
      return notBefore;
    }
    double t = notBefore;
    boolean moved = true;
    while (moved) {
      // each step only skips points that overlap a reservation, so the result is the first fit
      t = chart == null ? t : chart.firstFreeSlot(t, len);
      moved = false;
      for (PlannedTransfer p : tentative) {
        if (p.storageNode() == storage && p.start() < t + len && t < p.end()) {
          t = p.end();
          moved = true;
        }
      }
    }
    return t;
  }
}
