package io.locus.sim.hybrid.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Hybrid spec §1.6 and G5: power and energy over equal windows. */
class PowerModelTest {
  @Test
  void g5EqualWindowEnergy() {
    List<PowerModel.Segment> serial = List.of(new PowerModel.Segment(10, 150),
        new PowerModel.Segment(6, 140));
    List<PowerModel.Segment> corun = List.of(new PowerModel.Segment(15, 170));
    double window = Math.max(PowerModel.length(serial), PowerModel.length(corun));
    assertThat(window).isEqualTo(16);
    assertThat(PowerModel.energy(serial, window, 100)).isEqualTo(2340);
    assertThat(PowerModel.energy(corun, window, 100)).isEqualTo(2650);
    assertThatThrownBy(() -> PowerModel.energy(serial, 15, 100))
        .hasMessageContaining("exceeds the window");
  }

  @Test
  void linearPowerModel() {
    assertThat(PowerModel.LINEAR.watts(12)).isEqualTo(116 * 12 + 572);
    assertThat(PowerModel.LINEAR.watts(0)).isEqualTo(572);
    assertThat(PowerModel.thermalBtuPerHour(1000)).isEqualTo(3412, within(1e-9));
  }
}
