package io.locus.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The registry: every name, defaults, determinism per seed, and the error messages. */
class WorkloadsTest {
  private static final Map<String, Map<String, String>> MINIMAL = Map.of(
      "stacking", Map.of("locality", "20"));
  /** Generators that draw nothing random; the seed cannot change them. */
  private static final List<String> SEEDLESS = List.of("ap", "dd-throughput", "stages18");

  private static Workload create(String name, long seed) {
    return Workloads.create(name, MINIMAL.getOrDefault(name, Map.of()), seed);
  }

  @Test
  void registersEveryGenerator() {
    assertThat(Workloads.names()).containsExactly("mi", "sw", "ap", "stacking", "sched-micro",
        "dd-throughput", "stages18", "khanna", "ideal-mix", "random-mix", "noisy-mix",
        "cern", "tenants");
    assertThat(create("mi", 1).size()).isEqualTo(250_000);
    assertThat(create("sw", 1).size()).isEqualTo(2_000_000);
    assertThat(create("ap", 1).size()).isEqualTo(250_000);
    assertThat(create("stacking", 1).size()).isEqualTo(40_460);
    assertThat(create("sched-micro", 1).size()).isEqualTo(250_000);
    assertThat(create("dd-throughput", 1).size()).isEqualTo(40);
    assertThat(create("stages18", 1).size()).isEqualTo(1000);
    assertThat(create("khanna", 1).size()).isEqualTo(800);
    assertThat(create("random-mix", 1).size()).isEqualTo(1000);
    assertThat(create("cern", 1).size()).isEqualTo(20_000);
    for (String name : Workloads.names()) {
      assertThat(create(name, 1).name()).isEqualTo(name);
    }
  }

  /** Same seed, same trace; another seed, another trace (SW is covered in full by SwTest). */
  @Test
  void deterministicPerSeed() {
    for (String name : Workloads.names()) {
      if (name.equals("sw")) {
        continue;
      }
      assertThat(sameJobs(create(name, 21), create(name, 21))).as(name).isTrue();
      assertThat(sameJobs(create(name, 21), create(name, 22))).as(name)
          .isEqualTo(SEEDLESS.contains(name));
    }
    assertThat(sameJobs(limit(create("sw", 21)), limit(create("sw", 22)))).isFalse();
  }

  @Test
  void parametersReachTheGenerators() {
    assertThat(Workloads.create("ap", Map.of("n", "3", "compute", "0.1"), 0).toList())
        .hasSize(9).allMatch(j -> j.computeSeconds() == 0.1);
    List<TraceJob> k = Workloads.create("khanna",
        Map.of("n", "400", "overlap", "LOW", "order", "random", "arrivals", "lublin",
            "tlArrival", "226"), 3).toList();
    assertThat(k).hasSize(400);
    assertThat(k.get(399).arrival()).isEqualTo(226.0);
    List<TraceJob> atLoad = Workloads.create("khanna", Map.of("load", "2"), 3).toList();
    double avg = KhannaImageTrace.avgExecTime(atLoad, KhannaImageTrace.TraceCosts.DEFAULT);
    assertThat(atLoad.get(799).arrival()).isEqualTo(KhannaImageTrace.tlArrival(800, avg, 4, 2));
    assertThat(Workloads.create("dd-throughput", Map.of("nodes", "4", "locality", "100",
        "mode", "read+write", "fileBytes", "1000"), 0).toList())
        .hasSize(160).allMatch(j -> j.attributes().containsKey("prewarmExecutor"));
    assertThat(Workloads.create("sched-micro", Map.of("io", "false"), 0).iterator().next()
        .inputs()).isEmpty();
  }

  @Test
  void badInputIsExplained() {
    assertThatThrownBy(() -> Workloads.create("nope", Map.of(), 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown workload 'nope'")
        .hasMessageContaining("mi:").hasMessageContaining("khanna:")
        .hasMessageContaining("tlArrival=600");
    assertThatThrownBy(() -> Workloads.create("ap", Map.of("size", "3"), 1))
        .hasMessageContaining("unknown parameter 'size'")
        .hasMessageContaining("n=500").hasMessageContaining("compute=1.0");
    assertThatThrownBy(() -> Workloads.create("ap", Map.of("n", "abc"), 1))
        .hasMessageContaining("'n' must be an integer, got 'abc'");
    assertThatThrownBy(() -> Workloads.create("stacking", Map.of(), 1))
        .hasMessageContaining("'locality' is required");
    assertThatThrownBy(() -> Workloads.create("stacking", Map.of("locality", "7"), 1))
        .hasMessageContaining("unknown STACKING locality '7'");
    assertThatThrownBy(() -> Workloads.create("khanna", Map.of("n", "810"), 1))
        .hasMessageContaining("multiple of 20").hasMessageContaining("overlap=high");
    assertThatThrownBy(() -> Workloads.create("khanna", Map.of("overlap", "huge"), 1))
        .hasMessageContaining("'overlap' must be one of");
    assertThatThrownBy(() -> Workloads.create("khanna", Map.of("load", "1", "tlArrival", "5"), 1))
        .hasMessageContaining("not both");
    assertThatThrownBy(() -> Workloads.create("mi", Map.of("rate", "5"), 1))
        .hasMessageContaining("Parameters of mi: none");
  }

  private static boolean sameJobs(Iterable<TraceJob> a, Iterable<TraceJob> b) {
    Iterator<TraceJob> x = a.iterator();
    Iterator<TraceJob> y = b.iterator();
    while (x.hasNext() && y.hasNext()) {
      if (!x.next().equals(y.next())) {
        return false;
      }
    }
    return x.hasNext() == y.hasNext();
  }

  private static Iterable<TraceJob> limit(Workload w) {
    return () -> w.stream().limit(10_000).iterator();
  }
}
