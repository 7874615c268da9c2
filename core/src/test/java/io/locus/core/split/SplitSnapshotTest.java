package io.locus.core.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * State in parts: a seeded run whose journal wrote the state entry by entry is interrupted
 * midway (the streaming driver restarting from its keyed state), the policy is rebuilt from the
 * entries the journal holds, in any order, and decides exactly like the uninterrupted run; the
 * journal holds the whole state after every input; equal states give equal entries.
 */
class SplitSnapshotTest {

  static Stream<Arguments> cases() {
    List<Arguments> l = new ArrayList<>();
    for (String p : List.of("FARM", "JOB_SPLITTING", "CACHE_JOB_SPLITTING", "OUT_OF_ORDER",
        "OUT_OF_ORDER+replication", "DELAYED", "ADAPTIVE_DELAY")) {
      l.add(Arguments.of(p, SplitTestDriver.Ack.EXACT));
      l.add(Arguments.of(p, SplitTestDriver.Ack.LATE)); // pending stops and held RUNs inside
    }
    return l.stream();
  }

  private static SplitTestDriver driver(String spec, SplitTestDriver.Ack ack) {
    SplitTestDriver d = new SplitTestDriver(SplitConservationTest.policy(spec), ack, 5);
    d.journalled(true);
    d.addNodes(5);
    d.submitWorkload(11, 70, 80_000, 1200);
    return d;
  }

  /** The journal's entries shuffled, as a store may list them. */
  private static SplitEntries shuffled(SplitEntries e, long seed) {
    Random r = new Random(seed);
    List<String> nodes = new ArrayList<>(e.nodes());
    List<CachedRange> cache = new ArrayList<>(e.cache());
    List<JobEntry> jobs = new ArrayList<>(e.jobs());
    List<SubjobEntry> subjobs = new ArrayList<>(e.subjobs());
    List<PolicyEntry> memory = new ArrayList<>(e.memory());
    Collections.shuffle(nodes, r);
    Collections.shuffle(cache, r);
    Collections.shuffle(jobs, r);
    Collections.shuffle(subjobs, r);
    Collections.shuffle(memory, r);
    return new SplitEntries(e.pool(), nodes, cache, jobs, subjobs, memory);
  }

  @ParameterizedTest(name = "{0} / {1}")
  @MethodSource("cases")
  void restoredPolicyDecidesIdentically(String spec, SplitTestDriver.Ack ack) {
    SplitTestDriver whole = driver(spec, ack);
    whole.run();
    whole.assertExactlyOnce();

    SplitTestDriver cut = driver(spec, ack);
    double mid = 40_000;
    cut.runUntil(mid);
    SplitEntries stored = cut.journal.entries();
    assertThat(stored).isEqualTo(cut.policy.entries());
    SplitPolicy restored = SplitPolicies.restore(cut.policy.params(), shuffled(stored, 17));
    assertThat(restored.entries()).as("restore then export gives the same entries")
        .isEqualTo(stored);
    assertThat(restored.activeJobs()).isEqualTo(cut.policy.activeJobs());
    for (String n : cut.policy.nodeIds()) {
      assertThat(restored.cache(n).pinned()).as("pin of " + n)
          .isEqualTo(cut.policy.cache(n).pinned());
    }
    cut.continueWith(restored);
    cut.run();
    cut.assertExactlyOnce();
    assertThat(cut.log).isEqualTo(whole.log);
    assertThat(cut.log.size()).isGreaterThanOrEqualTo(70); // at least a RUN per job
  }

  @Test
  void entriesOfEqualStatesAreEqualAndOtherParametersAreRefused() {
    SplitTestDriver a = driver("OUT_OF_ORDER", SplitTestDriver.Ack.EXACT);
    SplitTestDriver b = driver("OUT_OF_ORDER", SplitTestDriver.Ack.EXACT);
    a.runUntil(30_000);
    b.runUntil(30_000);
    assertThat(a.policy.entries()).isEqualTo(b.policy.entries());
    SplitEntries e = a.journal.entries();
    assertThat(e.cache()).isNotEmpty();
    SplitParams small = SplitParams.parse("OUT_OF_ORDER", Map.of("cacheEvents", "5"));
    assertThatThrownBy(() -> SplitPolicies.restore(small, e))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("capacity of 5");
    SplitParams delayed = SplitParams.parse("DELAYED", Map.of("cacheEvents", "12000"));
    assertThatThrownBy(() -> SplitPolicies.restore(delayed, e))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("policy DELAYED keeps no entries like starve/");
  }

  @Test
  void entriesThatDoNotFitTogetherAreRefused() {
    SplitTestDriver a = driver("JOB_SPLITTING", SplitTestDriver.Ack.EXACT);
    double t = 10_000;
    while (a.journal.entries().subjobs().isEmpty()) {
      a.runUntil(t += 1000);
    }
    SplitEntries e = a.journal.entries();
    SubjobEntry x = e.subjobs().get(0);
    List<SubjobEntry> orphan = new ArrayList<>(e.subjobs());
    orphan.set(0, new SubjobEntry(x.id(), "nope", x.range(), x.node(), x.dispatch(),
        x.materialised(), x.segments(), x.preemptible(), x.priority(), x.origin(), x.cachedOn(),
        x.awaitsAck(), x.stop(), x.stoppedOn(), x.queue(), x.rank()));
    assertThatThrownBy(() -> SplitPolicies.restore(a.policy.params(), new SplitEntries(e.pool(),
        e.nodes(), e.cache(), e.jobs(), orphan, e.memory())))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown job nope");
    assertThatThrownBy(() -> SplitPolicies.restore(a.policy.params(), new SplitEntries(e.pool(),
        List.of(), e.cache(), e.jobs(), e.subjobs(), e.memory())))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown node");
  }
}
