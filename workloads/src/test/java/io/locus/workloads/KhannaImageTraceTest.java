package io.locus.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.locus.core.model.InputFile;
import io.locus.workloads.KhannaImageTrace.Arrivals;
import io.locus.workloads.KhannaImageTrace.TraceCosts;
import io.locus.workloads.KhannaImageTrace.Options;
import io.locus.workloads.KhannaImageTrace.Ordering;
import io.locus.workloads.KhannaImageTrace.Overlap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Hypergraph spec §4 (checkable properties of §4.6), §1.5 and worked examples T4, T5, T9. */
class KhannaImageTraceTest {
  /** The spec's experiments use at least 5 seeds per point (D31); so do the statistical checks. */
  private static final long[] SEEDS = {1, 2, 3, 4, 5};
  private static final int[] SIZES = {400, 800, 1600};
  private static final double MIB = Units.MIB;

  private static List<TraceJob> trace(int n, Overlap o, Ordering ord, Arrivals arr, long seed) {
    return KhannaImageTrace.workload(new Options(n, o, ord, arr, 4, TraceCosts.DEFAULT), 600, seed)
        .toList();
  }

  private static int fid(InputFile u) {
    return Integer.parseInt(u.id().substring("img-".length()));
  }

  @Test
  void datasetLayout() {
    long totalMib = 0;
    for (int fid = 0; fid < KhannaImageTrace.FILES; fid++) {
      totalMib += KhannaImageTrace.sizeOf(fid) / Units.MIB;
      // round-robin per patient; with M = 4 the storage node is the image index i
      assertThat(KhannaImageTrace.storageOf(fid, 4)).isEqualTo(fid % 4);
    }
    assertThat(KhannaImageTrace.FILES).isEqualTo(64_000);
    assertThat(totalMib).isEqualTo(2_176_000);
    assertThat(KhannaImageTrace.fileId(3, 2, 1, 3)).isEqualTo(3 * 32 + 2 * 8 + 4 + 3);
    assertThat(KhannaImageTrace.sizeOf(KhannaImageTrace.fileId(7, 1, 0, 2))).isEqualTo(4 * Units.MIB);
    assertThat(KhannaImageTrace.sizeOf(KhannaImageTrace.fileId(7, 1, 1, 2)))
        .isEqualTo(64 * Units.MIB);
    InputFile u = KhannaImageTrace.file(KhannaImageTrace.fileId(7, 1, 1, 2), 4, 0.001);
    assertThat(u.location()).isEqualTo("sn-2");
    assertThat(u.computeSeconds()).isCloseTo(0.064, within(1e-12)); // C · size
  }

  @ParameterizedTest
  @EnumSource(Overlap.class)
  void structureOfEveryTrace(Overlap overlap) {
    for (int n : SIZES) {
      for (long seed : SEEDS) {
        List<TraceJob> jobs = trace(n, overlap, Ordering.RANDOM, Arrivals.POISSON, seed);
        String at = overlap + "/" + n + "/seed " + seed;
        assertThat(jobs).as(at).hasSize(n);
        Map<String, List<TraceJob>> clusters =
            jobs.stream().collect(Collectors.groupingBy(j -> j.attributes().get("cluster")));
        assertThat(clusters).as(at).hasSize(n / 20);
        assertThat(clusters.values()).as(at).allMatch(c -> c.size() == 20);

        Set<Integer> clusterPatients = new HashSet<>();
        Map<Integer, Integer> freshUses = new HashMap<>();
        for (TraceJob j : jobs) {
          int patient = Integer.parseInt(j.attributes().get("basePatient"));
          int d0 = Integer.parseInt(j.attributes().get("baseDay"));
          clusterPatients.add(patient);
          assertThat(d0).isBetween(0, 2);
          assertThat(j.inputs().size()).as(at).isBetween(4, 10);
          Set<Integer> seen = new HashSet<>();
          for (InputFile u : j.inputs()) {
            int fid = fid(u);
            assertThat(seen.add(fid)).as("%s: file %d twice in %s", at, fid, j.jobId()).isTrue();
            assertThat(u.bytes()).isEqualTo(KhannaImageTrace.sizeOf(fid));
            assertThat(u.location()).isEqualTo("sn-" + (fid % 32) % 4);
            if (fid / 32 == patient) { // a base file: the cluster patient's days d0 and d0 + 1
              assertThat(fid % 32 / 8).isBetween(d0, d0 + 1);
            } else {
              freshUses.merge(fid, 1, Integer::sum);
            }
          }
        }
        assertThat(freshUses.values()).as(at + ": fresh files used once").containsOnly(1);
        assertThat(freshUses.keySet()).as(at)
            .noneMatch(fid -> clusterPatients.contains(fid / 32));
      }
    }
  }

  /** |F_j| and size rows of §4.6 (|F_j| mean is stated for N ≥ 800; see the module README). */
  @ParameterizedTest
  @EnumSource(Overlap.class)
  void jobAndFileSizes(Overlap overlap) {
    for (int n : new int[] {800, 1600}) {
      for (long seed : SEEDS) {
        List<TraceJob> jobs = trace(n, overlap, Ordering.CLUSTERED, Arrivals.POISSON, seed);
        String at = overlap + "/" + n + "/seed " + seed;
        long requests = jobs.stream().mapToLong(j -> j.inputs().size()).sum();
        long bytes = jobs.stream().mapToLong(TraceJob::totalBytes).sum();
        assertThat((double) requests / n).as(at).isCloseTo(6.0, within(0.15));
        assertThat(bytes / MIB / requests).as(at + " mean file size").isBetween(33.0, 35.0);
        assertThat(bytes / MIB / n).as(at + " mean job bytes").isBetween(196.0, 212.0);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Overlap.class)
  void overlapO1PerLevel(Overlap overlap) {
    double expected = Map.of(Overlap.HIGH, 0.85, Overlap.MEDIUM, 0.40, Overlap.LOW, 0.10)
        .get(overlap);
    for (int n : SIZES) {
      for (long seed : SEEDS) {
        List<TraceJob> jobs = trace(n, overlap, Ordering.CLUSTERED, Arrivals.POISSON, seed);
        assertThat(KhannaImageTrace.overlapO1(jobs)).as(overlap + "/" + n + "/seed " + seed)
            .isCloseTo(expected, within(0.02));
        assertThat(KhannaImageTrace.overlapO2(jobs)).isBetween(0.0, 1.0);
      }
    }
  }

  @Test
  void overlapMeasuresOnAHandMadeTrace() {
    List<TraceJob> jobs = List.of(job("a", "f1", "f2"), job("b", "f2", "f3"), job("c", "f4"));
    // O1: a shares f2 (1/2), b shares f2 (1/2), c shares nothing (0) -> 1/3
    assertThat(KhannaImageTrace.overlapO1(jobs)).isCloseTo(1.0 / 3, within(1e-12));
    // O2: 4 distinct files over 5 requests
    assertThat(KhannaImageTrace.overlapO2(jobs)).isCloseTo(0.2, within(1e-12));
  }

  @Test
  void arrivalsForBothProcessesAndOrderings() {
    for (Arrivals arr : Arrivals.values()) {
      for (Ordering ord : Ordering.values()) {
        for (long seed : SEEDS) {
          List<TraceJob> jobs = trace(1200, Overlap.HIGH, ord, arr, seed);
          String at = arr + "/" + ord + "/seed " + seed;
          assertThat(jobs.get(0).arrival()).as(at).isPositive();
          for (int i = 1; i < jobs.size(); i++) {
            assertThat(jobs.get(i).arrival()).as(at).isGreaterThanOrEqualTo(jobs.get(i - 1).arrival());
          }
          assertThat(jobs.get(jobs.size() - 1).arrival()).as(at).isEqualTo(600.0);
        }
      }
    }
    // and for a TLarrival computed from a load, which is no round number
    Workload w = KhannaImageTrace.workloadAtLoad(
        new Options(800, Overlap.MEDIUM, Ordering.CLUSTERED, Arrivals.LUBLIN, 4, TraceCosts.DEFAULT),
        1.3, 11);
    List<TraceJob> jobs = w.toList();
    double tl = KhannaImageTrace.tlArrival(800, KhannaImageTrace.avgExecTime(jobs,
        TraceCosts.DEFAULT), 4, 1.3);
    assertThat(jobs.get(jobs.size() - 1).arrival()).isEqualTo(tl);
  }

  @Test
  void clusteredOrderGivesEachClusterConsecutiveRanks() {
    for (long seed : SEEDS) {
      List<TraceJob> jobs = trace(1600, Overlap.HIGH, Ordering.CLUSTERED, Arrivals.POISSON, seed);
      List<String> runs = new ArrayList<>();
      for (TraceJob j : jobs) {
        String c = j.attributes().get("cluster");
        if (runs.isEmpty() || !runs.get(runs.size() - 1).equals(c)) {
          runs.add(c);
        }
      }
      assertThat(runs).hasSize(80).doesNotHaveDuplicates(); // 80 runs of exactly 20 each
      // clusters come in random order, not in generation order
      assertThat(runs).isNotEqualTo(runs.stream().sorted((a, b) ->
          Integer.compare(Integer.parseInt(a), Integer.parseInt(b))).collect(Collectors.toList()));
      // inside a cluster, jobs keep generation order
      for (int i = 1; i < jobs.size(); i++) {
        if (i % 20 != 0) {
          assertThat(id(jobs.get(i))).isEqualTo(id(jobs.get(i - 1)) + 1);
        }
      }
    }
    List<TraceJob> random = trace(1600, Overlap.HIGH, Ordering.RANDOM, Arrivals.POISSON, 1);
    long changes = 0;
    for (int i = 1; i < random.size(); i++) {
      if (!random.get(i).attributes().get("cluster")
          .equals(random.get(i - 1).attributes().get("cluster"))) {
        changes++;
      }
    }
    assertThat(changes).isGreaterThan(1000); // a uniform permutation interleaves clusters
  }

  @Test
  void avgExecTimeOfHigh800OnFourNodesIsThreeSeconds() {
    for (long seed : SEEDS) {
      List<TraceJob> jobs = trace(800, Overlap.HIGH, Ordering.CLUSTERED, Arrivals.POISSON, seed);
      assertThat(KhannaImageTrace.avgExecTime(jobs, TraceCosts.DEFAULT)).as("seed %d", seed)
          .isCloseTo(3.0, within(0.15));
    }
  }

  /** §4.6 marks these footprints as indicative; checked to ±5 %. */
  @Test
  void uniqueFootprintIsAsIndicated() {
    Object[][] rows = {
        {Overlap.HIGH, 800, 45.0}, {Overlap.HIGH, 1600, 90.0}, {Overlap.MEDIUM, 800, 113.0},
        {Overlap.LOW, 400, 76.0}};
    for (Object[] r : rows) {
      for (long seed : SEEDS) {
        Map<String, Long> distinct = new HashMap<>();
        for (TraceJob j : trace((int) r[1], (Overlap) r[0], Ordering.CLUSTERED, Arrivals.POISSON,
            seed)) {
          j.inputs().forEach(u -> distinct.put(u.id(), u.bytes()));
        }
        double gib = distinct.values().stream().mapToLong(Long::longValue).sum() / (MIB * 1024);
        double expected = (double) r[2];
        assertThat(gib).as("%s/%s seed %d", r[0], r[1], seed)
            .isCloseTo(expected, within(0.05 * expected));
      }
    }
  }

  /** §4.5, Figure 9b: equal expected load across overlap levels; "≈" values, checked to ±5 %. */
  @Test
  void figure9bCalibration() {
    for (long seed : SEEDS) {
      double lstar = KhannaImageTrace.load(1200, KhannaImageTrace.avgExecTime(
          trace(1200, Overlap.HIGH, Ordering.CLUSTERED, Arrivals.POISSON, seed),
          TraceCosts.DEFAULT), 4, 612);
      double tlMedium = KhannaImageTrace.tlArrival(800, KhannaImageTrace.avgExecTime(
          trace(800, Overlap.MEDIUM, Ordering.CLUSTERED, Arrivals.POISSON, seed),
          TraceCosts.DEFAULT), 4, lstar);
      double tlLow = KhannaImageTrace.tlArrival(400, KhannaImageTrace.avgExecTime(
          trace(400, Overlap.LOW, Ordering.CLUSTERED, Arrivals.POISSON, seed),
          TraceCosts.DEFAULT), 4, lstar);
      assertThat(lstar).isCloseTo(1.47, within(0.05 * 1.47));
      assertThat(tlMedium).isCloseTo(431, within(0.05 * 431));
      assertThat(tlLow).isCloseTo(226, within(0.05 * 226));
    }
  }

  @Test
  void t4TransferCostPerFile() {
    double[][] p4 = {{1, 1.000}, {2, 0.875}, {6, 0.7917}, {20, 0.7625}, {100, 0.7525}};
    for (double[] row : p4) {
      assertThat(KhannaImageTrace.trPerMib((int) row[0], 4, 117) * 117)
          .isCloseTo(row[1], within(0.00005));
    }
    assertThat(KhannaImageTrace.trPerMib(1, 2, 117) * 117).isCloseTo(1.0, within(1e-12));
    assertThat(KhannaImageTrace.trPerMib(2, 2, 117) * 117).isCloseTo(0.75, within(1e-12));
  }

  @Test
  void t5EstimatedExec() {
    TraceJob j = new TraceJob("j", 0, List.of(
        new InputFile("big", 64 * Units.MIB, 0, "sn-0", null),
        new InputFile("small", 4 * Units.MIB, 0, "sn-1", null)), 0);
    double est = KhannaImageTrace.estimatedExec(j, Map.of("big", 1, "small", 2), TraceCosts.DEFAULT);
    assertThat(est).isCloseTo(1.09826, within(0.000005));
    // a file absent from the counts has no other pin: s_f = 1
    assertThat(KhannaImageTrace.estimatedExec(j, Map.of("small", 2), TraceCosts.DEFAULT))
        .isEqualTo(est);
  }

  @Test
  void t9LoadArithmetic() {
    assertThat(KhannaImageTrace.tlArrival(800, 3.0, 4, 1.0)).isEqualTo(600.0);
    assertThat(KhannaImageTrace.load(1600, 3.0, 4, 600)).isEqualTo(2.0);
    assertThat(KhannaImageTrace.load(800, 3.0, 4, 600)).isEqualTo(1.0);
  }

  @Test
  void deterministicAndSeedSensitive() {
    Options o = new Options(800, Overlap.MEDIUM, Ordering.CLUSTERED, Arrivals.LUBLIN, 4,
        TraceCosts.DEFAULT);
    List<TraceJob> a = KhannaImageTrace.workload(o, 600, 7).toList();
    assertThat(KhannaImageTrace.workload(o, 600, 7).toList()).isEqualTo(a);
    assertThat(KhannaImageTrace.workload(o, 600, 8).toList()).isNotEqualTo(a);
    // ordering and arrivals draw from their own streams: the jobs themselves stay the same
    Options random = new Options(800, Overlap.MEDIUM, Ordering.RANDOM, Arrivals.POISSON, 4,
        TraceCosts.DEFAULT);
    assertThat(byId(KhannaImageTrace.workload(random, 600, 7).toList()))
        .isEqualTo(byId(a));
  }

  @Test
  void rejectsImpossibleOptions() {
    assertThatThrownBy(() -> KhannaImageTrace.Options.defaults(810))
        .hasMessageContaining("multiple of 20");
    assertThatThrownBy(() -> KhannaImageTrace.workload(Options.defaults(800), 0, 1))
        .hasMessageContaining("TLarrival");
  }

  private static Map<String, List<InputFile>> byId(List<TraceJob> jobs) {
    return jobs.stream().collect(Collectors.toMap(TraceJob::jobId, TraceJob::inputs));
  }

  private static int id(TraceJob j) {
    return Integer.parseInt(j.jobId().substring("job-".length()));
  }

  private static TraceJob job(String id, String... files) {
    List<InputFile> in = new ArrayList<>();
    for (String f : files) {
      in.add(InputFile.of(f, 1));
    }
    return new TraceJob(id, 0, in, 0);
  }
}
