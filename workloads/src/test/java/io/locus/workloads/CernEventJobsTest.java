package io.locus.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.locus.core.split.EventSpan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The checkable properties of CERN spec §4 on 10^6 samples (or pairs). */
class CernEventJobsTest {
  private static final long D = CernEventJobs.DEFAULT_SPACE;
  private static final int SAMPLES = 1_000_000;

  @Test
  void lengthsAreErlang4WithMean40000AndCv05() {
    SplittableRandom r = new SplittableRandom(1);
    double sum = 0;
    double sq = 0;
    long shortest = Long.MAX_VALUE;
    for (int i = 0; i < SAMPLES; i++) {
      long n = CernEventJobs.next(r, D, true).events().length();
      sum += n;
      sq += (double) n * n;
      shortest = Math.min(shortest, n);
    }
    double mean = sum / SAMPLES;
    double cv = Math.sqrt(sq / SAMPLES - mean * mean) / mean;
    assertThat(mean).isCloseTo(40_000, within(400.0)); // ± 1 %
    assertThat(cv).isCloseTo(0.50, within(0.01));
    assertThat(mean * 600e3 / 1e9).isCloseTo(24.0, within(0.24)); // mean job size 24 GB ± 1 %
    assertThat(shortest).isGreaterThanOrEqualTo(CernEventJobs.MIN);
  }

  @Test
  void startDensityIsNineTimesHigherInTheHotRegions() {
    SplittableRandom r = new SplittableRandom(2);
    long hot = 0;
    long cold = 0;
    for (int i = 0; i < SAMPLES; i++) {
      EventSpan e = CernEventJobs.next(r, D, true).events();
      assertThat(e.end()).isLessThanOrEqualTo(D); // never wraps
      long s = e.start();
      if ((s >= 0.20 * D && s < 0.25 * D) || (s >= 0.60 * D && s < 0.65 * D)) {
        hot++;
      } else if (s < 0.85 * D) { // cold, away from the clamped end of the space
        cold++;
      }
    }
    // per-event density relative to uniform: hot 0.5 / 0.1 = 5.0, cold 0.5 / 0.9 = 0.556
    double hotDensity = (double) hot / SAMPLES / 0.10;
    double coldDensity = (double) cold / SAMPLES / 0.75;
    assertThat(hotDensity).isCloseTo(5.0, within(0.05));
    assertThat(coldDensity).isCloseTo(0.5556, within(0.01));
    assertThat(hotDensity / coldDensity).isCloseTo(9.0, within(0.2));
  }

  @Test
  void pairsOverlapAbout6PercentWithHalfAMeanJobInCommon() {
    double[] p = overlap(true, 3);
    assertThat(p[0]).isCloseTo(0.0595, within(0.004)); // the paper quotes about 6.5 %
    assertThat(p[0]).isBetween(0.055, 0.070);
    assertThat(p[1]).isCloseTo(12.2, within(0.5)); // GB, given overlap
  }

  @Test
  void uniformStartsOverlapAbout24Percent() {
    double[] p = overlap(false, 4);
    assertThat(p[0]).isCloseTo(0.024, within(0.002));
  }

  /** {P(overlap), mean overlap in GB given overlap} over 10^6 independent pairs. */
  private static double[] overlap(boolean hot, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    long hits = 0;
    double bytes = 0;
    for (int i = 0; i < SAMPLES; i++) {
      EventSpan a = CernEventJobs.next(r, D, hot).events();
      EventSpan b = CernEventJobs.next(r, D, hot).events();
      EventSpan x = a.intersection(b);
      if (x != null) {
        hits++;
        bytes += x.length() * 600e3;
      }
    }
    return new double[] {(double) hits / SAMPLES, bytes / hits / 1e9};
  }

  @Test
  void poissonArrivalsAtTheGivenLoad() {
    List<TraceJob> jobs = Workloads.create("cern", Map.of("n", "20000", "load", "2.5"), 9)
        .toList();
    assertThat(jobs).hasSize(20_000).allSatisfy(j -> {
      assertThat(j.splittable()).isTrue();
      assertThat(j.inputs()).isEmpty();
      assertThat(j.computeSeconds()).isCloseTo(j.events().length() * 0.2, within(1e-6));
    });
    double rate = jobs.size() / (jobs.get(jobs.size() - 1).arrival() / 3600);
    assertThat(rate).isCloseTo(2.5, within(0.1));
    assertThat(jobs.get(0).attributes()).containsKey("region");
  }

  @Test
  void writtenAsATraceAndReadBack(@TempDir Path dir) throws Exception {
    Workload w = Workloads.create("cern", Map.of("n", "50", "load", "1", "space", "400000"), 5);
    Path f = dir.resolve("cern.jsonl.gz");
    assertThat(TraceWriter.write(f, w)).isEqualTo(50);
    assertThat(TraceReader.readAll(f).toList()).isEqualTo(w.toList());
    Path plain = dir.resolve("cern.jsonl");
    TraceWriter.write(plain, w);
    assertThat(Files.readAllLines(plain).get(1)).contains("\"events\":{\"start\":");
  }

  @Test
  void badTraceEventsAreExplained(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("bad.jsonl");
    Files.writeString(f, "{\"format\":\"locus-trace\",\"version\":1,\"name\":\"x\",\"jobs\":1}\n"
        + "{\"jobId\":\"a\",\"arrival\":0,\"inputs\":[],\"computeSeconds\":0,"
        + "\"events\":{\"start\":5,\"end\":5}}\n");
    assertThatThrownBy(() -> TraceReader.readAll(f)).isInstanceOf(TraceFormatException.class)
        .hasMessageContaining("0 <= start < end");
    assertThatThrownBy(() -> Workloads.create("cern", Map.of("load", "0"), 1))
        .hasMessageContaining("load must be a rate > 0");
  }
}
