package io.locus.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.connectors.DeliveryMode;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.junit.jupiter.api.Test;

/** The bench's small parts: pool names per subtask, job numbers, percentiles, node split. */
class BenchPartsTest {

  @Test
  void kPoolsLandOnKDifferentSubtasks() {
    for (int k : List.of(1, 2, 4, 8)) {
      List<String> names = BenchRun.poolNames("FA", k, k);
      assertThat(names).hasSize(k).doesNotHaveDuplicates();
      int maxPar = KeyGroupRangeAssignment.computeDefaultMaxParallelism(k);
      Set<Integer> subtasks = new HashSet<>();
      for (String n : names) {
        subtasks.add(KeyGroupRangeAssignment.assignKeyToParallelOperator(n, maxPar, k));
      }
      assertThat(subtasks).as("subtasks of %s", names).hasSize(k);
    }
    // more pools than subtasks: still K distinct names
    assertThat(BenchRun.poolNames("GCC", 3, 1)).hasSize(3).doesNotHaveDuplicates();
  }

  @Test
  void jobNumbersRoundTrip() {
    BenchWorkload zipf = new BenchWorkload(config(BenchConfig.Workload.ZIPF));
    BenchWorkload noIdle = new BenchWorkload(config(BenchConfig.Workload.NO_IDLE));
    for (long seq : List.of(0L, 7L, 123_456L)) {
      assertThat(BenchWorkload.seqOf(zipf.job("bench-fa-0", seq).getJobId())).isEqualTo(seq);
      var j = noIdle.job("bench-fa-0", seq);
      assertThat(BenchWorkload.seqOf(j.getJobId())).isEqualTo(seq);
      assertThat(j.getInputs()).hasSize(1);
      assertThat(j.getInputs().get(0).getId().toString()).startsWith(BenchWorkload.PRELOAD_PREFIX);
      // the same job whatever the pacing
      assertThat(noIdle.job("bench-fa-0", seq)).isEqualTo(j);
    }
    assertThat(BenchWorkload.seqOf("someone-else")).isEqualTo(-1);
    assertThat(BenchWorkload.seqOf("x-jnot-a-number")).isEqualTo(-1);
  }

  @Test
  void quantilesAreNearestRank() {
    long[] ms = new long[100];
    for (int i = 0; i < 100; i++) {
      ms[i] = (i + 1) * 1_000_000L; // 1 … 100 ms
    }
    assertThat(StepResult.quantileMs(ms, 0.5)).isEqualTo(50.0);
    assertThat(StepResult.quantileMs(ms, 0.99)).isEqualTo(99.0);
    assertThat(StepResult.quantileMs(ms, 1.0)).isEqualTo(100.0);
    assertThat(StepResult.quantileMs(new long[0], 0.5)).isNaN();
  }

  @Test
  void nodesSplitEvenlyOverPools() {
    BenchConfig c = new BenchConfig("FA", DeliveryMode.AT_LEAST_ONCE, "rocksdb",
        BenchConfig.Workload.ZIPF, 3, 3, 1000, 4, 0, 0.001, Duration.ofSeconds(5),
        List.of(1000.0), Duration.ofSeconds(10), 50_000, Duration.ofSeconds(5), 300, 5_000_000,
        42, 2500, 0.9);
    assertThat(List.of(c.nodesOfPool(0), c.nodesOfPool(1), c.nodesOfPool(2)))
        .containsExactly(334, 333, 333);
  }

  @Test
  void agentsGetPreloadAndQueueDepthOnlyWhenAsked() {
    List<String> plain = BenchRun.agentArgs(config(BenchConfig.Workload.ZIPF), "k:9092", "p", 10,
        false);
    assertThat(plain).doesNotContain("--preload-files", "--queue-depth")
        .contains("--no-create-topics").containsSequence("--isolation", "read_uncommitted");
    BenchConfig deep = new BenchConfig("FA", DeliveryMode.EXACTLY_ONCE, "rocksdb",
        BenchConfig.Workload.NO_IDLE, 1, 1, 10, 4, 2, 0.001, Duration.ofMillis(500),
        List.of(1000.0), Duration.ofSeconds(10), 50_000, Duration.ofSeconds(5), 100, 1000, 42,
        2500, 0.9);
    assertThat(BenchRun.agentArgs(deep, "k:9092", "p", 10, true))
        .containsSequence("--preload-files", "100", "--preload-bytes", "1000",
            "--preload-prefix", BenchWorkload.PRELOAD_PREFIX)
        .containsSequence("--queue-depth", "2")
        .containsSequence("--isolation", "read_committed");
  }

  private static BenchConfig config(BenchConfig.Workload w) {
    return new BenchConfig("FA", DeliveryMode.AT_LEAST_ONCE, "rocksdb", w, 1, 1, 10, 4, 0, 0.001,
        Duration.ofSeconds(5), List.of(1000.0), Duration.ofSeconds(10), 50_000,
        Duration.ofSeconds(5), 100, 1000, 42, 2500, 0.9);
  }
}
