package io.locus.sim.hybrid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.workloads.HybridMix;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** H3 in the epoch model, and the experiment's files. */
class HybridExperimentsTest {
  @TempDir Path tmp;

  /**
   * IDEAL_MIX: GSM pairs one CPU and one disk job per epoch (500 = the lower bound); a single
   * sorted list holds one class first, so it needs one epoch per job but one (999).
   */
  @Test
  void idealMixMakespans() {
    EpochExperiment.Table t = EpochExperiment.run(HybridMix.Kind.IDEAL, 1000, 2, 1);
    assertThat(t.makespans().get("GREEDY_SORT_MERGE")).containsExactly(500, 500);
    assertThat(t.makespans().get("SINGLE_SORTED_CPU")).containsExactly(999, 999);
    assertThat(t.makespans().get("SINGLE_SORTED_DISK")).containsExactly(999, 999);
    assertThat(t.makespans().get(EpochExperiment.LOWER_BOUND)).containsExactly(500, 500);
  }

  @Test
  void randomMixMakespansAreAtLeastTheLowerBound() {
    EpochExperiment.Table t = EpochExperiment.run(HybridMix.Kind.RANDOM, 300, 3, 1);
    double[] bound = t.makespans().get(EpochExperiment.LOWER_BOUND);
    t.makespans().forEach((name, xs) -> {
      for (int i = 0; i < xs.length; i++) {
        assertThat(xs[i]).as(name).isGreaterThanOrEqualTo(bound[i]);
      }
    });
    String md = EpochExperiment.markdown(List.of(t));
    assertThat(md).contains("**GREEDY_SORT_MERGE**", "FIFO_HEAD", "lower bound", "RANDOM_MIX");
  }

  @Test
  void h3WritesTablesCsvAndPlot() throws Exception {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    new HybridExperiments(tmp, 2, 1, true, new PrintStream(buf, true, StandardCharsets.UTF_8))
        .run("hybrid-h3");
    assertThat(tmp.resolve("h3-makespan.png")).isNotEmptyFile();
    List<String> agg = Files.readAllLines(tmp.resolve("h3-makespan.csv"));
    // header + (7 schedulers + lower bound) x 2 mixes
    assertThat(agg).hasSize(1 + 8 * 2);
    assertThat(Files.readAllLines(tmp.resolve("h3-runs.csv"))).hasSize(1 + 8 * (5 + 20));
    assertThat(Files.readString(tmp.resolve("results.md"))).contains("IDEAL_MIX (5 seeds)",
        "RANDOM_MIX (20 seeds)", "500.0 ± 0.0");
    assertThat(buf.toString(StandardCharsets.UTF_8)).contains("GREEDY_SORT_MERGE");
    assertThatThrownBy(() -> new HybridExperiments(tmp, 1, 1, false, System.out))
        .hasMessageContaining("--seeds must be >= 2");
  }
}
