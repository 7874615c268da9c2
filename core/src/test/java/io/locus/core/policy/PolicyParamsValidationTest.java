package io.locus.core.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.core.split.SplitParams;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Issue 12: a bad parameter is refused with its name, never turned into a broken policy. */
class PolicyParamsValidationTest {
  @ParameterizedTest
  @CsvSource({
      "GCC, theta, NaN", "GCC, theta, Infinity", "GCC, theta, 1.5", "GCC, theta, -0.1",
      "SA, l, NaN", "SA, h, 2", "MET, rbw, Infinity", "MET, rbw, NaN", "MCT, lbw, -Infinity",
      "MCT, c, NaN", "JDPDLL, storageNodes, 2.5", "JDPDLL, storageNodes, 1e12",
      "ONLINE_HPS, eps, NaN", "ONLINE_HPS, repartitionInterval, Infinity",
      "ONLINE_HPS, seed, 0.5", "MCH, window, 0", "MCH, window, 1e99"})
  void aNonFiniteOrOutOfRangeValueIsRefusedNamingItsParameter(String policy, String key,
      String value) {
    assertThatThrownBy(() -> Policies.create(policy, Map.of(key, value)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(key);
  }

  @Test
  void anUnknownParameterIsRefusedWithTheValidOnes() {
    assertThatThrownBy(() -> Policies.create("GCC", Map.of("thetta", "0.5")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("thetta").hasMessageContaining("theta");
    assertThatThrownBy(() -> Policies.create("MET", Map.of("theta", "0.5")))
        .hasMessageContaining("unknown parameter 'theta'");
  }

  @Test
  void validParametersStillMakeTheirPolicies() {
    // the simulator gives every data-diffusion policy both of its family's parameters
    assertThat(Policies.create("FA", Map.of("window", "10", "theta", "0.9")).name())
        .isEqualTo("FA");
    assertThat(Policies.create("GCC", Map.of("theta", "0")).name()).isEqualTo("GCC");
    assertThat(Policies.create("ONLINE_HPS", Map.of("seed", "7", "eps", "0.2")).name())
        .isEqualTo("ONLINE_HPS");
    assertThat(Policies.create("COMPLEMENTARY_PLACE", Map.of("W_LOC", "2", "aging",
        "Infinity")).name()).isEqualTo("COMPLEMENTARY_PLACE");
  }

  @Test
  void aSplitIntegerParameterTooLargeForAnIntIsRefused() {
    assertThatThrownBy(() -> SplitParams.parse("DELAYED", Map.of("hysteresis", "4294967297")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("hysteresis");
    assertThatThrownBy(() -> SplitParams.parse("OUT_OF_ORDER",
        Map.of("replicationThreshold", "4294967296")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("replicationThreshold");
    assertThatThrownBy(() -> SplitParams.parse("FARM", Map.of("tCpu", "NaN")))
        .hasMessageContaining("tCpu");
  }
}
