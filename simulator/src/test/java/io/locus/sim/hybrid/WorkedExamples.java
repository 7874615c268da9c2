package io.locus.sim.hybrid;

import io.locus.core.model.ResourceVector;
import io.locus.workloads.HybridJob;
import java.util.ArrayList;
import java.util.List;

/** The hybrid spec's worked examples (§8) that more than one test replays. */
public final class WorkedExamples {
  private WorkedExamples() {}

  /** G1's six jobs in submission order (thesis-mode percentages). */
  public static List<HybridJob> g1() {
    double[][] v = {{60, 10, 10}, {50, 20, 0}, {10, 10, 70}, {30, 60, 40}, {0, 0, 50},
        {40, 30, 20}};
    List<HybridJob> jobs = new ArrayList<>();
    for (int i = 0; i < v.length; i++) {
      jobs.add(HybridJob.of("J" + i, i, ResourceVector.of(v[i][0], v[i][1], v[i][2])));
    }
    return jobs;
  }
}
