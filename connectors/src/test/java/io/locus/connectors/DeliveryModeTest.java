package io.locus.connectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.flink.connector.base.DeliveryGuarantee;
import org.junit.jupiter.api.Test;

class DeliveryModeTest {
  @Test
  void parsesCliNames() {
    assertThat(DeliveryMode.parse("exactly-once")).isEqualTo(DeliveryMode.EXACTLY_ONCE);
    assertThat(DeliveryMode.parse("at-least-once")).isEqualTo(DeliveryMode.AT_LEAST_ONCE);
  }

  @Test
  void ignoresCaseBlanksAndAcceptsConstantNames() {
    assertThat(DeliveryMode.parse(" Exactly-Once ")).isEqualTo(DeliveryMode.EXACTLY_ONCE);
    assertThat(DeliveryMode.parse("AT_LEAST_ONCE")).isEqualTo(DeliveryMode.AT_LEAST_ONCE);
  }

  @Test
  void roundTripsThroughToString() {
    for (DeliveryMode m : DeliveryMode.values()) {
      assertThat(DeliveryMode.parse(m.toString())).isEqualTo(m);
    }
  }

  @Test
  void rejectsUnknownValuesListingTheValidOnes() {
    assertThatThrownBy(() -> DeliveryMode.parse("once"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown delivery mode 'once'; valid values: exactly-once, at-least-once");
    assertThatThrownBy(() -> DeliveryMode.parse(null))
        .hasMessageContaining("valid values: exactly-once, at-least-once");
  }

  @Test
  void mapsToConnectorGuarantees() {
    assertThat(DeliveryMode.EXACTLY_ONCE.guarantee()).isEqualTo(DeliveryGuarantee.EXACTLY_ONCE);
    assertThat(DeliveryMode.AT_LEAST_ONCE.guarantee()).isEqualTo(DeliveryGuarantee.AT_LEAST_ONCE);
  }
}
