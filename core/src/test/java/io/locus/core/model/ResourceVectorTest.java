package io.locus.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Hybrid spec §2.5 (G4): complementarity of a demand with a node's load. */
class ResourceVectorTest {
  @Test
  void g4Complementarity() {
    ResourceVector load = new ResourceVector(0.8, 0, 0, 0);
    assertThat(ResourceVector.comp(load, new ResourceVector(0, 0, 0.6, 0))).isEqualTo(1.0);
    assertThat(ResourceVector.comp(load, new ResourceVector(0.5, 0, 0, 0)))
        .isCloseTo(0.0, within(1e-12));
    assertThat(ResourceVector.comp(ResourceVector.ZERO, new ResourceVector(0.5, 0, 0, 0)))
        .isEqualTo(1.0);
  }
}
