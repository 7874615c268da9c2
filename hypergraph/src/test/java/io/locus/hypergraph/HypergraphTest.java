package io.locus.hypergraph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HypergraphTest {
  @Test
  void builderMakesBothIncidenceDirections() {
    Hypergraph.Builder b = Hypergraph.builder();
    b.addVertices(4, 1.5);
    b.setWeight(3, 0);
    assertThat(b.addNet(2, 0, 1, 1, 2)).isZero(); // the repeated pin counts once
    assertThat(b.addNet(1, 3)).isEqualTo(1);
    assertThat(b.addNet(0.5, 2, 0)).isEqualTo(2);
    Hypergraph h = b.build();
    assertThat(h.numVertices()).isEqualTo(4);
    assertThat(h.numNets()).isEqualTo(3);
    assertThat(h.numPins()).isEqualTo(6);
    assertThat(h.pins(0)).containsExactly(0, 1, 2);
    assertThat(h.incidentNets(0)).containsExactly(0, 2);
    assertThat(h.incidentNets(2)).containsExactly(0, 2);
    assertThat(h.incidentNets(3)).containsExactly(1);
    assertThat(h.degree(1)).isEqualTo(1);
    assertThat(h.totalWeight()).isEqualTo(4.5);
    assertThat(h.maxWeight()).isEqualTo(1.5);
    assertThat(h.totalCost()).isEqualTo(3.5);
    Hypergraph d = h.withoutSinglePinNets();
    assertThat(d.numNets()).isEqualTo(2);
    assertThat(d.pins(1)).containsExactly(2, 0);
    assertThat(d.cost(1)).isEqualTo(0.5);
    assertThat(d.withoutSinglePinNets()).isSameAs(d);
  }

  @Test
  void builderRejectsBadInput() {
    Hypergraph.Builder b = Hypergraph.builder();
    b.addVertices(2, 1);
    assertThatThrownBy(() -> b.addVertex(-1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> b.addVertex(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> b.addNet(1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> b.addNet(-2, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> b.addNet(1, -1)).isInstanceOf(IllegalArgumentException.class);
    b.addNet(1, 0, 5);
    assertThatThrownBy(b::build).isInstanceOf(IllegalArgumentException.class);
  }
}
