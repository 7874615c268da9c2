package io.locus.sim.cern;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How the cern-load experiment reads a variant (POLICY:key=value:...). */
class CernVariantsTest {
  @Test
  void variantsParseParameters() {
    LoadSweep.Variant v = CernExperiments.variant("delayed:period=1d:stripe=2500");
    assertThat(v.policy()).isEqualTo("DELAYED");
    assertThat(v.params()).containsEntry("period", "1d").containsEntry("stripe", "2500");
    LoadSweep.Variant a = CernExperiments.variant(
        "ADAPTIVE_DELAY:stripe=5000:lmaxTable=0:1.2;6h:1.5");
    assertThat(a.params()).containsEntry("lmaxTable", "0:1.2;6h:1.5");
  }
}
