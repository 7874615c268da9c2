package io.locus.sim.hybrid.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.locus.core.model.ResourceVector;
import org.junit.jupiter.api.Test;

/** Hybrid spec §1.4 and G3: the continuous fluid model. */
class FluidModelTest {
  private static FluidModel oneNode() {
    FluidModel m = new FluidModel();
    m.addNode("n0", ResourceVector.uniform(1));
    return m;
  }

  @Test
  void g3CpuPairSharesTheCpuThenTheSurvivorRunsAlone() {
    FluidModel m = oneNode();
    m.start("A", "n0", new ResourceVector(0.99, 0, 0, 0), 100, 1, 0);
    m.start("B", "n0", new ResourceVector(0.25, 0, 0.5, 0), 50, 1, 0);
    assertThat(m.rate("A")).isCloseTo(1 / 1.24, within(1e-12));
    assertThat(m.rate("B")).isCloseTo(1 / 1.24, within(1e-12));
    double t1 = m.nextCompletion();
    assertThat(t1).isCloseTo(62.0, within(1e-9));
    assertThat(m.advanceTo(t1)).containsExactly("B");
    assertThat(m.remaining("A")).isCloseTo(50.0, within(1e-9));
    assertThat(m.rate("A")).isEqualTo(1.0);
    double t2 = m.nextCompletion();
    assertThat(t2).isCloseTo(112.0, within(1e-9));
    assertThat(m.advanceTo(t2)).containsExactly("A");
    assertThat(m.running()).isZero();
    assertThat(m.nextCompletion()).isInfinite();
  }

  @Test
  void aDiskOnlyJobIgnoresTheCpuLoad() {
    FluidModel m = oneNode();
    m.start("A", "n0", new ResourceVector(0.99, 0, 0, 0), 100, 1, 0);
    m.start("B", "n0", new ResourceVector(0.25, 0, 0, 0), 50, 1, 0);
    m.start("D", "n0", new ResourceVector(0, 0.3, 0.6, 0), 40, 1, 0);
    assertThat(m.rate("D")).isEqualTo(1.0);
    assertThat(m.rate("A")).isCloseTo(1 / 1.24, within(1e-12));
    assertThat(m.advanceTo(m.nextCompletion())).containsExactly("D");
    assertThat(m.now()).isCloseTo(40.0, within(1e-9));
  }

  @Test
  void memoryIsNotARateAndKappaSlowsAJobDown() {
    FluidModel m = oneNode();
    m.start("M1", "n0", new ResourceVector(0.5, 0.9, 0, 0), 10, 1, 0);
    m.start("M2", "n0", new ResourceVector(0.4, 0.9, 0, 0), 10, 2, 0);
    assertThat(m.rate("M1")).isEqualTo(1.0); // CPU 0.9 ≤ 1; memory 1.8 does not slow anything
    assertThat(m.rate("M2")).isEqualTo(0.5);
  }

  @Test
  void jobsOnOtherNodesDoNotInterfere() {
    FluidModel m = oneNode();
    m.addNode("n1", ResourceVector.uniform(1));
    m.start("A", "n0", new ResourceVector(0.8, 0, 0, 0), 10, 1, 0);
    m.start("B", "n1", new ResourceVector(0.8, 0, 0, 0), 20, 1, 5);
    assertThat(m.rate("A")).isEqualTo(1.0);
    assertThat(m.rate("B")).isEqualTo(1.0);
    assertThat(m.remaining("A")).isCloseTo(5.0, within(1e-12));
    assertThat(m.advanceTo(10)).containsExactly("A");
    assertThat(m.nextCompletion()).isCloseTo(25.0, within(1e-9));
  }
}
