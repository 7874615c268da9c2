package io.locus.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.locus.core.model.ResourceVector;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hybrid spec §4: the mixes' checkable properties. */
class HybridMixTest {
  @TempDir Path tmp;

  private static List<TraceJob> jobs(String name, Map<String, String> params, long seed) {
    return Workloads.create(name, params, seed).toList();
  }

  @Test
  void idealMixHasExactClassCountsInARandomOrder() {
    for (long seed = 1; seed <= 5; seed++) {
      List<TraceJob> jobs = jobs("ideal-mix", Map.of(), seed);
      assertThat(jobs).hasSize(1000);
      List<ResourceVector> ps = jobs.stream().map(HybridMix::profile).toList();
      assertThat(ps).allMatch(p -> p.equals(ResourceVector.of(1, 0, 0))
          || p.equals(ResourceVector.of(0, 0, 1)));
      assertThat(ps.stream().filter(p -> p.cpu() == 1).count()).isEqualTo(500);
      assertThat(jobs.stream().filter(j -> j.attributes().get("class").equals("CPU")).count())
          .isEqualTo(500);
      // shuffled: the first half is not one class
      assertThat(ps.subList(0, 500).stream().filter(p -> p.cpu() == 1).count())
          .isBetween(200L, 300L);
    }
    assertThat(jobs("ideal-mix", Map.of("n", "10", "fracCpu", "0.3"), 1).stream()
        .filter(j -> HybridMix.profile(j).cpu() == 1).count()).isEqualTo(3);
  }

  /**
   * RANDOM_MIX on the seeds H3 uses (1 … 20): N jobs, values in [0, 100] %, sd 28.9 ± 1.5 on every
   * seed and dimension. The spec's "mean 50 ± 2" is only ≈ 2.2 standard errors at N = 1000
   * (SE = 28.9 / √1000 = 0.91), so about 3 % of seed-dimensions fall outside it by chance: the test
   * asserts every mean within 4.5 SE (a generator bug shows there) and at most 3 of the 60 outside
   * the spec's ± 2 (docs/experiments.md reports which).
   */
  @Test
  void randomMixIsUniformOnEverySeedOfTheExperiment() {
    int outsideSpec = 0;
    double se = 100 / Math.sqrt(12) / Math.sqrt(1000);
    for (long seed = 1; seed <= 20; seed++) {
      List<ResourceVector> ps = jobs("random-mix", Map.of(), seed).stream()
          .map(j -> HybridMix.profile(j).scale(100)).toList();
      assertThat(ps).hasSize(1000);
      for (io.locus.core.model.Resource r : List.of(io.locus.core.model.Resource.CPU,
          io.locus.core.model.Resource.MEM, io.locus.core.model.Resource.DISK)) {
        double[] xs = ps.stream().mapToDouble(p -> p.get(r)).toArray();
        double mean = 0;
        for (double x : xs) {
          assertThat(x).isBetween(0.0, 100.0);
          mean += x;
        }
        mean /= xs.length;
        double var = 0;
        for (double x : xs) {
          var += (x - mean) * (x - mean);
        }
        double sd = Math.sqrt(var / (xs.length - 1));
        assertThat(mean).as("seed " + seed + " " + r).isCloseTo(50, within(4.5 * se));
        if (Math.abs(mean - 50) > 2) {
          outsideSpec++;
        }
        assertThat(sd).as("seed " + seed + " " + r).isCloseTo(28.9, within(1.5));
      }
    }
    assertThat(outsideSpec).isLessThanOrEqualTo(3);
  }

  @Test
  void noisyMixHasExactClassesWithinTheirRanges() {
    List<TraceJob> jobs = jobs("noisy-mix", Map.of(), 4);
    long cpu = 0;
    for (TraceJob j : jobs) {
      ResourceVector p = HybridMix.profile(j);
      assertThat(p.mem()).isBetween(0.0, 0.2);
      if (j.attributes().get("class").equals("CPU")) {
        cpu++;
        assertThat(p.cpu()).isBetween(0.7, 1.0);
        assertThat(p.disk()).isBetween(0.0, 0.2);
      } else {
        assertThat(p.cpu()).isBetween(0.0, 0.3);
        assertThat(p.disk()).isBetween(0.7, 1.0);
      }
    }
    assertThat(cpu).isEqualTo(500);
  }

  @Test
  void arrivalsAndDurationsDoNotChangeTheProfiles() {
    List<TraceJob> batch = jobs("noisy-mix", Map.of(), 9);
    List<TraceJob> poisson = jobs("noisy-mix", Map.of("rate", "0.05", "durations", "exp",
        "duration", "300"), 9);
    assertThat(batch).allMatch(j -> j.arrival() == 0 && j.computeSeconds() == 600);
    for (int i = 0; i < batch.size(); i++) {
      assertThat(HybridMix.profile(poisson.get(i))).isEqualTo(HybridMix.profile(batch.get(i)));
    }
    double last = poisson.get(999).arrival();
    assertThat(last / 1000).as("mean gap 1/rate").isCloseTo(20.0, within(2.0));
    double meanDuration = poisson.stream().mapToDouble(TraceJob::computeSeconds).average()
        .orElseThrow();
    assertThat(meanDuration).isCloseTo(300, within(30.0));
    assertThat(poisson.stream().mapToDouble(TraceJob::computeSeconds).distinct().count())
        .isGreaterThan(900);
  }

  @Test
  void profilesRoundTripThroughATraceFileAndBecomeJobs() throws Exception {
    Workload w = Workloads.create("random-mix", Map.of("n", "50", "rate", "1"), 3);
    Path file = tmp.resolve("mix.jsonl.gz");
    TraceWriter.write(file, w);
    List<TraceJob> back = TraceReader.readAll(file).toList();
    assertThat(back).isEqualTo(w.toList());
    List<HybridJob> hj = HybridMix.jobs(w, 100);
    assertThat(hj).hasSize(50);
    assertThat(hj.get(7).demand()).isEqualTo(HybridMix.profile(back.get(7)).scale(100));
    assertThat(hj.get(7).seq()).isEqualTo(7);
    assertThat(hj.get(7).arrival()).isEqualTo(back.get(7).arrival());
    assertThat(HybridMix.profile(new TraceJob("x", 0, List.of(), 1))).isNull();
  }

  @Test
  void badParametersAreExplained() {
    assertThatThrownBy(() -> Workloads.create("ideal-mix", Map.of("fracCpu", "1.5"), 1))
        .hasMessageContaining("fracCpu must be in [0, 1]");
    assertThatThrownBy(() -> Workloads.create("noisy-mix", Map.of("rate", "-1"), 1))
        .hasMessageContaining("rate must be a finite number >= 0");
    assertThatThrownBy(() -> Workloads.create("random-mix", Map.of("fracCpu", "0.5"), 1))
        .hasMessageContaining("unknown parameter 'fracCpu'");
    assertThatThrownBy(() -> Workloads.create("noisy-mix", Map.of("durations", "weibull"), 1))
        .hasMessageContaining("'durations' must be one of");
  }
}
