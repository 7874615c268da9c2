package io.locus.kafka.testkit;

import io.locus.kafka.ClientConfigs;
import io.locus.kafka.KafkaReachability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A wrong Kafka address fails within the timeout, naming the address and what went wrong. */
@Tag("integration")
@Timeout(60)
class KafkaReachabilityTest {
  @Test
  void aBrokerThatAnswersIsReachable() {
    try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
      assertThat(KafkaReachability.check(ClientConfigs.base(kafka.bootstrapServers()),
          Duration.ofSeconds(10))).isEqualTo(1);
    }
  }

  @Test
  void aPortWithoutABrokerFailsWithinTheTimeoutNamingTheAddress() {
    long t0 = System.nanoTime();
    assertThatThrownBy(() -> KafkaReachability.check(ClientConfigs.base("127.0.0.1:1"),
        Duration.ofSeconds(2)))
        .isInstanceOf(KafkaReachability.Unreachable.class)
        .hasMessageContaining("cannot reach Kafka at 127.0.0.1:1 within 2 s (no answer)");
    assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
  }

  @Test
  void anUnresolvableHostSaysSo() {
    assertThatThrownBy(() -> KafkaReachability.check(
        ClientConfigs.base("no-such-host.invalid:9092"), Duration.ofSeconds(2)))
        .isInstanceOf(KafkaReachability.Unreachable.class)
        .hasMessageContaining("cannot reach Kafka at no-such-host.invalid:9092: the host name"
            + " does not resolve")
        // it fails at once: a timeout it did not wait for is not said
        .hasMessageNotContaining("within");
  }
}
