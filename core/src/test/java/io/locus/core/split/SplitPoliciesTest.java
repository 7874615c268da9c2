package io.locus.core.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The registry: names, parameters, and what a bad parameter says. */
class SplitPoliciesTest {

  @Test
  void namesAreCaseInsensitive() {
    assertThat(SplitPolicies.create("FARM", Map.of()).hooks).isInstanceOf(Farm.class);
    assertThat(SplitPolicies.create("job_splitting", Map.of()).hooks)
        .isInstanceOf(JobSplitting.class);
    assertThat(SplitPolicies.create("Cache-Job-Splitting", Map.of()).hooks)
        .isInstanceOf(CacheJobSplitting.class);
    assertThat(SplitPolicies.create("out_of_order", Map.of("replication", "true")).hooks)
        .isInstanceOf(OutOfOrder.class);
    assertThat(SplitPolicies.create("delayed", Map.of("period", "0")).hooks)
        .isInstanceOf(Delayed.class);
    assertThat(SplitPolicies.create("adaptive_delay", Map.of("lmaxTable", "0:1,1d:2")).hooks)
        .isInstanceOf(AdaptiveDelay.class);
    assertThat(SplitPolicies.create("out_of_order", Map.of()).name()).isEqualTo("OUT_OF_ORDER");
  }

  @Test
  void parametersTakeDefaultsAndUnits() {
    SplitParams p = SplitParams.parse("DELAYED", Map.of("period", "12h", "stripe", "2500",
        "cacheGb", "200", "tapePipelining", "true"));
    assertThat(p.periodSeconds()).isEqualTo(43_200);
    assertThat(p.stripe()).isEqualTo(2500);
    assertThat(p.cacheEvents()).isEqualTo(333_333);
    assertThat(p.costs().cMiss()).isEqualTo(0.6);
    SplitParams d = SplitParams.parse("OUT_OF_ORDER", Map.of());
    assertThat(d.starveSeconds()).isEqualTo(172_800);
    assertThat(d.min()).isEqualTo(10);
    assertThat(d.replicationThreshold()).isEqualTo(3);
    assertThat(d.cacheEvents()).isEqualTo(166_667);
    assertThat(SplitParams.parseDuration("x", "1w")).isEqualTo(604_800);
    assertThat(SplitParams.parse(p.policy(), p.toMap())).isEqualTo(p);
  }

  @Test
  void badInputSaysWhatIsAllowed() {
    assertThatThrownBy(() -> SplitPolicies.create("LIFO", Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown split policy 'LIFO'")
        .hasMessageContaining("OUT_OF_ORDER");
    assertThatThrownBy(() -> SplitPolicies.create("FARM", Map.of("stripes", "5")))
        .hasMessageContaining("unknown parameter 'stripes'").hasMessageContaining("stripe");
    assertThatThrownBy(() -> SplitPolicies.create("FARM", Map.of("replication", "true")))
        .hasMessageContaining("only valid for OUT_OF_ORDER");
    assertThatThrownBy(() -> SplitPolicies.create("OUT_OF_ORDER", Map.of("replication", "yes")))
        .hasMessageContaining("must be true or false");
    assertThatThrownBy(() -> SplitPolicies.create("DELAYED", Map.of("period", "2 days")))
        .hasMessageContaining("duration").hasMessageContaining("2d");
    assertThatThrownBy(() -> SplitPolicies.create("DELAYED", Map.of("stripe", "0")))
        .hasMessageContaining("'stripe' must be >= 1");
    assertThatThrownBy(() -> SplitPolicies.create("ADAPTIVE_DELAY", Map.of()))
        .hasMessageContaining("lmaxTable").hasMessageContaining("0:1.0,1d:1.5");
    assertThatThrownBy(() -> SplitPolicies.create("ADAPTIVE_DELAY", Map.of("lmaxTable", "1d=2")))
        .hasMessageContaining("not d:Lmax");
    assertThatThrownBy(() -> SplitPolicies.create("OUT_OF_ORDER", Map.of("cacheGb", "-1")))
        .hasMessageContaining("'cacheGb' must be >= 0");
  }

  @Test
  void inputsAreChecked() {
    SplitPolicy p = SplitPolicies.create("FARM", Map.of());
    p.addNode("n1", 0);
    assertThatThrownBy(() -> p.addNode("n1", 0)).hasMessageContaining("already");
    p.onJobArrival(SplitJob.of("a", 0, 100), 1);
    assertThatThrownBy(() -> p.onJobArrival(SplitJob.of("a", 0, 100), 2))
        .hasMessageContaining("already in the pool");
    assertThatThrownBy(() -> p.onSubjobEnd("n2", "a/1", 100, 3))
        .hasMessageContaining("does not run on n2");
    assertThatThrownBy(() -> SplitJob.of("a/b", 0, 1)).hasMessageContaining("'/'");
    assertThatThrownBy(() -> SplitJob.of("e", 5, 5)).hasMessageContaining("non-empty");
    // the policy is still usable after a refused input
    assertThat(p.onSubjobEnd("n1", "a/1", 100, 80)).isEmpty();
    assertThat(p.drainFinished()).hasSize(1);
  }
}
