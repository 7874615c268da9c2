package io.locus.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The split demo's workload: seeded, inside the scaled data space, with the spec's shape. */
class SplitDemoWorkloadTest {
  private static String describe(List<SplitDemoWorkload.Job> jobs) {
    StringBuilder b = new StringBuilder();
    for (SplitDemoWorkload.Job j : jobs) {
      b.append(j.job().getJobId()).append(j.job().getEvents()).append('@').append(j.atSeconds())
          .append('\n');
    }
    return b.toString();
  }

  @Test
  void theSameSeedGivesTheSameJobsAndAnotherSeedOthers() {
    var spec = new SplitDemoWorkload.Spec(200, 7, 100, 2, "ds");
    String a = describe(SplitDemoWorkload.generate("p", spec));
    assertThat(describe(SplitDemoWorkload.generate("p", spec))).isEqualTo(a);
    assertThat(describe(SplitDemoWorkload.generate("p",
        new SplitDemoWorkload.Spec(200, 8, 100, 2, "ds")))).isNotEqualTo(a);
  }

  @Test
  void jobsAreScaledCernJobsInsideTheSpace() {
    var spec = new SplitDemoWorkload.Spec(2_000, 3, 100, 4, "ds");
    List<SplitDemoWorkload.Job> jobs = SplitDemoWorkload.generate("p", spec);
    double prev = -1;
    long inHotSpots = 0;
    for (SplitDemoWorkload.Job j : jobs) {
      var e = j.job().getEvents();
      assertThat(e.getDataset()).isEqualTo("ds");
      assertThat(e.getStart()).isGreaterThanOrEqualTo(0);
      assertThat(e.getEnd()).isLessThanOrEqualTo(spec.space());
      assertThat(e.getEnd() - e.getStart()).isGreaterThanOrEqualTo(10);
      assertThat(j.job().getSplittable()).isTrue();
      assertThat(j.atSeconds()).isGreaterThanOrEqualTo(prev);
      prev = j.atSeconds();
      double s = (double) e.getStart() / spec.space();
      if ((s >= 0.20 && s < 0.25) || (s >= 0.60 && s < 0.65)) {
        inHotSpots++;
      }
    }
    // spec §4: mean 40,000 events / 100; half of the starts in H1 or H2 (plus their share of
    // the uniform half); Poisson arrivals at 4/s
    assertThat(SplitDemoWorkload.events(jobs) / (double) jobs.size()).isBetween(370.0, 430.0);
    assertThat(inHotSpots / (double) jobs.size()).isBetween(0.45, 0.60);
    assertThat(jobs.get(jobs.size() - 1).atSeconds() / (jobs.size() - 1)).isBetween(0.22, 0.28);
  }

  @Test
  void badSettingsAreRejected() {
    assertThatThrownBy(() -> new SplitDemoWorkload.Spec(0, 1, 100, 1, "d"))
        .hasMessageContaining("jobs must be >= 1");
    assertThatThrownBy(() -> new SplitDemoWorkload.Spec(1, 1, 100, 0, "d"))
        .hasMessageContaining("arrivals per second must be > 0");
  }
}
