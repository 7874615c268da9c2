package io.locus.core.split;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every policy, every way an agent may acknowledge: every event of every job is processed exactly
 * once, every job finishes, and no cache ever exceeds its capacity.
 */
class SplitConservationTest {

  static Stream<Arguments> cases() {
    List<Arguments> l = new ArrayList<>();
    String[][] policies = {
        {"FARM"}, {"JOB_SPLITTING"}, {"CACHE_JOB_SPLITTING"}, {"OUT_OF_ORDER"},
        {"OUT_OF_ORDER", "replication"}, {"DELAYED"}, {"DELAYED", "d0"}, {"ADAPTIVE_DELAY"}};
    for (String[] p : policies) {
      for (SplitTestDriver.Ack a : SplitTestDriver.Ack.values()) {
        l.add(Arguments.of(String.join("+", p), a));
      }
    }
    return l.stream();
  }

  static SplitPolicy policy(String spec) {
    Map<String, String> params = new HashMap<>();
    String[] parts = spec.split("\\+");
    params.put("cacheEvents", "12000");
    params.put("stripe", "1500");
    if (spec.contains("replication")) {
      params.put("replication", "true");
    }
    if (parts[0].equals("DELAYED")) {
      params.put("period", spec.contains("d0") ? "0" : "6h");
    }
    if (parts[0].equals("ADAPTIVE_DELAY")) {
      params.put("lmaxTable", "0:0.5,6h:2,12h:3");
    }
    if (parts[0].equals("OUT_OF_ORDER")) {
      params.put("starve", "1d");
    }
    return SplitPolicies.create(parts[0], params);
  }

  /** A small CERN-like workload: hot regions, Erlang-ish lengths, Poisson arrivals. */
  static List<SplitJob> workload(long seed, int jobs, long space, double meanGap,
      List<Double> arrivals) {
    SplittableRandom r = new SplittableRandom(seed);
    List<SplitJob> out = new ArrayList<>();
    double t = 0;
    for (int i = 0; i < jobs; i++) {
      t += -Math.log(1 - r.nextDouble()) * meanGap;
      long n = 10;
      for (int k = 0; k < 4; k++) {
        n += (long) (-Math.log(1 - r.nextDouble()) * 1000);
      }
      long s = r.nextInt(4) == 0 ? (long) (0.2 * space + r.nextDouble() * 0.05 * space)
          : (long) (r.nextDouble() * space);
      s = Math.min(s, space - n);
      out.add(SplitJob.of("j" + i, s, s + n));
      arrivals.add(t);
    }
    return out;
  }

  /** Six nodes, no log; the journal must hold the whole state after every input. */
  private static SplitTestDriver journalled(SplitPolicy p, SplitTestDriver.Ack ack, long seed) {
    SplitTestDriver d = new SplitTestDriver(p, ack, seed);
    d.logging = false;
    d.journalled(true);
    d.addNodes(6);
    return d;
  }

  @ParameterizedTest(name = "{0} / {1}")
  @MethodSource("cases")
  void everyEventExactlyOnce(String spec, SplitTestDriver.Ack ack) {
    SplitPolicy p = policy(spec);
    SplitTestDriver d = journalled(p, ack, 42);
    d.submitWorkload(7, 160, 100_000, 900);
    d.run();
    d.assertExactlyOnce();
    assertThat(p.activeJobs()).isZero();
    assertThat(p.queuedSubjobs()).isZero();
    if (ack != SplitTestDriver.Ack.EXACT && (d.suspends + d.shrinks) > 0
        && !spec.startsWith("FARM") && !spec.startsWith("DELAYED")) {
      assertThat(d.corrections).as("the agent disagreed with the model at least once")
          .isPositive();
    }
    // the coverage index agrees with the caches
    long indexed = 0;
    for (String n : p.nodeIds()) {
      RangeLru c = p.cache(n);
      for (RangeLru.Entry e : c.entries()) {
        for (CoverageIndex.Segment s : p.coverage().segments(e.range().start(),
            e.range().end())) {
          assertThat(s.holders()).contains(n);
        }
      }
      indexed += c.used();
    }
    long covered = 0;
    for (CoverageIndex.Segment s : p.coverage().segments(0, 100_000)) {
      covered += s.range().length() * s.holders().size();
    }
    assertThat(covered).isEqualTo(indexed);
  }

  /** Nodes lost while they run (and one rejoining): their work runs elsewhere, once. */
  @ParameterizedTest(name = "{0} / {1}")
  @MethodSource("cases")
  void lostNodesLoseNoEvent(String spec, SplitTestDriver.Ack ack) {
    SplitPolicy p = policy(spec);
    SplitTestDriver d = journalled(p, ack, 8);
    d.submitWorkload(5, 80, 100_000, 700);
    d.loseNode("n3", 9_000);
    d.loseNode("n5", 21_000);
    d.addNode("n3", 30_000);
    d.run();
    d.assertExactlyOnce();
    assertThat(p.nodeIds()).containsExactly("n1", "n2", "n3", "n4", "n6");
    assertThat(p.activeJobs()).isZero();
  }

  @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
  @org.junit.jupiter.params.provider.ValueSource(strings = {"CACHE_JOB_SPLITTING", "OUT_OF_ORDER",
      "DELAYED"})
  void lazyMaterialisationDecidesLikeEager(String spec) {
    List<String> logs = new ArrayList<>();
    for (boolean eager : new boolean[] {true, false}) {
      SplitPolicy.eagerMaterialisation = eager;
      try {
        SplitTestDriver d = new SplitTestDriver(policy(spec), SplitTestDriver.Ack.EXACT, 3);
        d.addNodes(6);
        d.submitWorkload(9, 120, 60_000, 700);
        d.run();
        d.assertExactlyOnce();
        logs.add(String.join("\n", d.log));
      } finally {
        SplitPolicy.eagerMaterialisation = false;
      }
    }
    assertThat(logs.get(1)).isEqualTo(logs.get(0));
  }
}
