package io.locus.core.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * snapshot() / restore(): a seeded run interrupted midway (the streaming driver restarting from
 * its RocksDB value) decides exactly like the uninterrupted run; equal states give equal bytes.
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
    d.addNodes(5);
    List<Double> at = new ArrayList<>();
    List<SplitJob> jobs = SplitConservationTest.workload(11, 70, 80_000, 1200, at);
    for (int i = 0; i < jobs.size(); i++) {
      d.submit(jobs.get(i), at.get(i));
    }
    return d;
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
    byte[] snap = cut.policy.snapshot();
    assertThat(snap).isEqualTo(cut.policy.snapshot());
    SplitPolicy restored = SplitPolicies.restore(snap);
    assertThat(restored.snapshot()).as("restore then snapshot gives the same bytes")
        .isEqualTo(snap);
    assertThat(restored.activeJobs()).isEqualTo(cut.policy.activeJobs());
    cut.policy = restored;
    cut.run();
    cut.assertExactlyOnce();
    assertThat(cut.log).isEqualTo(whole.log);
    assertThat(cut.log.size()).isGreaterThanOrEqualTo(70); // at least a RUN per job
  }

  @Test
  void snapshotsOfEqualStatesAreEqualAndOtherParametersAreRefused() {
    SplitTestDriver a = driver("OUT_OF_ORDER", SplitTestDriver.Ack.EXACT);
    SplitTestDriver b = driver("OUT_OF_ORDER", SplitTestDriver.Ack.EXACT);
    a.runUntil(30_000);
    b.runUntil(30_000);
    assertThat(a.policy.snapshot()).isEqualTo(b.policy.snapshot());
    SplitPolicy other = SplitPolicies.create("OUT_OF_ORDER", Map.of("cacheEvents", "5"));
    assertThatThrownBy(() -> other.restore(a.policy.snapshot()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not of this policy");
    byte[] bad = a.policy.snapshot();
    bad[7] = 9; // version
    assertThatThrownBy(() -> SplitPolicies.restore(bad))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("version");
  }
}
