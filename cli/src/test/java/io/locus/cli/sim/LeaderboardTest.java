package io.locus.cli.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.model.InputFile;
import io.locus.sim.Simulation;
import io.locus.sim.SimulationConfig;
import io.locus.sim.SimulationConfig.Provisioning;
import io.locus.sim.TestJobs;
import io.locus.sim.exec.ExecConfig;
import io.locus.workloads.TraceJob;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The leaderboard's table logic, and a tiny real run through its files. */
class LeaderboardTest {
  private static Leaderboard.Entry entry(Map<String, String> cannotRun) {
    return new Leaderboard.Entry("w", "completion time s", List.of("A", "B", "C"),
        List.of("A", "B", "C", "EFT"), cannotRun, p -> { throw new AssertionError("not run"); });
  }

  private static Map<String, Double> values(Object... kv) {
    Map<String, Double> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], ((Number) kv[i + 1]).doubleValue());
    }
    return m;
  }

  @Test
  void theBestIsChosenAmongTheSeedPoliciesOnlyAndRatiosAreValueOverBest() {
    // EFT is lower than every seed policy: it must not become the reference
    List<Leaderboard.Row> rows = Leaderboard.rows(entry(Map.of()),
        values("A", 120, "B", 100, "C", 150, "EFT", 90));
    assertThat(rows).extracting(Leaderboard.Row::bestSeedPolicy).containsOnly("B");
    assertThat(rows).extracting(Leaderboard.Row::bestSeedValue).containsOnly(100.0);
    assertThat(rows).extracting(Leaderboard.Row::ratio).containsExactly(1.2, 1.0, 1.5, 0.9);
    assertThat(rows).extracting(Leaderboard.Row::policy).containsExactly("A", "B", "C", "EFT");
  }

  @Test
  void aTieGoesToTheFirstSeedPolicyInOrder() {
    List<Leaderboard.Row> rows = Leaderboard.rows(entry(Map.of()),
        values("A", 100, "B", 100, "C", 100, "EFT", 100));
    assertThat(rows.get(0).bestSeedPolicy()).isEqualTo("A");
  }

  @Test
  void nanValuesAreNeverTheBestAndGiveNanRatiosWithTheirReason() {
    List<Leaderboard.Row> rows = Leaderboard.rows(entry(Map.of("EFT", "no form here")),
        values("A", Double.NaN, "B", 200, "C", 300, "EFT", Double.NaN));
    assertThat(rows.get(0).bestSeedPolicy()).isEqualTo("B");
    assertThat(rows.get(0).ratio()).isNaN();
    assertThat(rows.get(0).note()).isEqualTo("did not finish every task");
    assertThat(rows.get(3).ratio()).isNaN();
    assertThat(rows.get(3).note()).isEqualTo("no form here");
    assertThat(rows.get(2).ratio()).isEqualTo(1.5);

    List<Leaderboard.Row> none = Leaderboard.rows(entry(Map.of()),
        values("A", Double.NaN, "B", Double.NaN, "C", Double.NaN, "EFT", 5));
    assertThat(none.get(3).bestSeedPolicy()).isEmpty();
    assertThat(none.get(3).bestSeedValue()).isNaN();
    assertThat(none.get(3).ratio()).isNaN();
  }

  @Test
  void csvHasExactlyTheColumnsAndTheMarkdownOneSummaryRowPerWorkload(@TempDir Path dir)
      throws Exception {
    List<Leaderboard.Row> rows = new ArrayList<>(Leaderboard.rows(entry(Map.of("EFT", "why")),
        values("A", 2, "B", 4, "C", 8, "EFT", Double.NaN)));
    Leaderboard.write(dir, rows, "header line");
    List<String> csv = Files.readAllLines(dir.resolve("leaderboard.csv"));
    assertThat(csv.get(0))
        .isEqualTo("workload,metric,policy,value,best_seed_policy,best_seed_value,ratio");
    assertThat(csv).hasSize(5);
    assertThat(csv.get(2)).isEqualTo("w,completion time s,B,4,A,2,2");
    assertThat(csv.get(4)).isEqualTo("w,completion time s,EFT,NaN,A,2,NaN");
    String md = Files.readString(dir.resolve("leaderboard.md"));
    assertThat(md).startsWith("header line");
    assertThat(md).contains("| w | completion time s | NaN | A | 2.00 | NaN |");
    assertThat(md).contains("- w, EFT: NaN — why");
  }

  /** A tiny real configuration: 200 tasks over 20 files on 2 nodes, FA and GCC and EFT. */
  @Test
  void aTinyRealRunIsMeasuredAndWritten(@TempDir Path dir) throws Exception {
    List<TraceJob> jobs = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      jobs.add(TestJobs.job("t" + i, i * 0.05, 0.01,
          InputFile.of("f" + (i % 20), 20 * TestJobs.MB)));
    }
    Leaderboard.Entry e = new Leaderboard.Entry("tiny", "completion time s",
        List.of("FA", "GCC"), List.of("FA", "GCC", "EFT"), Map.of(), p ->
        LeaderboardPlans.completion(Simulation.run(SimulationConfig.builder().policy(p)
            .provisioning(Provisioning.SRP).nodes(2).minNodes(1).slots(2).cacheBytes(
                500 * TestJobs.MB).exec(ExecConfig.defaults(0.5)).window(100).theta(0.9).seed(1)
            .build(), "tiny", jobs.iterator(), null)));
    StringWriter log = new StringWriter();
    List<Leaderboard.Row> rows = new Leaderboard(dir, new PrintWriter(log)).run(List.of(e), "h");
    assertThat(rows).hasSize(3);
    Leaderboard.Row fa = rows.get(0);
    Leaderboard.Row gcc = rows.get(1);
    // FA reads every task's file from the 0.5 Gb/s file system; GCC caches the 20 files
    assertThat(gcc.value()).isLessThan(fa.value());
    assertThat(gcc.bestSeedPolicy()).isEqualTo("GCC");
    assertThat(rows.get(2).ratio()).isEqualTo(rows.get(2).value() / gcc.value());
    assertThat(Files.readAllLines(dir.resolve("leaderboard.csv"))).hasSize(4);
    assertThat(log.toString()).contains("tiny").contains("EFT");
  }

  @Test
  void theHybridRowsMeasureEftsClusterForm() throws Exception {
    List<Leaderboard.Entry> hybrid = LeaderboardPlans.hybrid(
        new LeaderboardPlans.Sizes(0, 0, 0, List.of(), 1, 60), 1);
    assertThat(hybrid).hasSize(3);
    assertThat(hybrid.get(0).cannotRun()).isEmpty();
    assertThat(hybrid.get(0).seedPolicies()).doesNotContain("EFT");
    assertThat(hybrid.get(0).policies()).contains("EFT");
    assertThat(hybrid.get(0).measure().run("EFT")).isFinite().isPositive();
  }

  @Test
  void theOnlineHpsPointsAreOneWorkloadPerTableAndX() {
    List<Leaderboard.Entry> x8 = LeaderboardPlans.khanna("x8", 2);
    assertThat(x8).extracting(Leaderboard.Entry::workload).containsExactly(
        "x8-clustered P=2", "x8-clustered P=4", "x8-clustered P=8", "x8-clustered P=16",
        "x8-random P=2", "x8-random P=4", "x8-random P=8", "x8-random P=16");
    // the staged-cache policies in registry order, Locus's own apart
    assertThat(x8.get(0).seedPolicies()).containsExactly("MET", "MCT", "SA", "JDPDLL",
        "ONLINE_HPS");
    assertThat(x8.get(0).policies()).contains("EFT");
  }

  @Test
  void theCommandIsListedAndRefusesZeroSeeds(@TempDir Path dir) {
    CommandLine cl = io.locus.cli.LocusCli.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    assertThat(cl.execute("experiment", "leaderboard", "--quick", "--seeds", "0", "--out",
        dir.toString())).isEqualTo(2);
    assertThat(err.toString()).contains("--seeds must be >= 1");
    assertThat(cl.execute("experiment", "--list")).isZero();
    assertThat(out.toString()).contains("leaderboard: every workload x every policy");
  }
}
