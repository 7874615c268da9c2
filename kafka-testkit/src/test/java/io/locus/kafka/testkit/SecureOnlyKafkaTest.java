package io.locus.kafka.testkit;

import io.locus.kafka.KafkaSecurityAdmin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A broker with only the secure listener, restarted on its data directory. */
@Tag("integration")
class SecureOnlyKafkaTest {
  @Test
  @Timeout(180)
  void theOnlyClientListenerIsSecureAndUsersSurviveARestart(@TempDir Path dir) throws Exception {
    BrokerSecurity security = BrokerSecurity.secureOnly(TestSupport.certificates());
    assertThat(security.plaintextListener()).isFalse();
    try (EmbeddedKafka kafka = EmbeddedKafka.startSecure(dir, security, Map.of())) {
      assertThat(kafka.bootstrapServers()).isEqualTo(kafka.secureBootstrapServers());
      try (Admin admin = Admin.create(kafka.adminProperties())) {
        KafkaSecurityAdmin.upsertScramUser(admin, "keeper", "keeper-password");
      }
    }
    // The broker user's credential was written at format time and the new user's in the
    // metadata log: both are there after a restart on the same directory.
    try (EmbeddedKafka kafka = EmbeddedKafka.startSecure(dir, security, Map.of());
        Admin keeper = Admin.create(kafka.clientProperties("keeper", "keeper-password"))) {
      assertThat(keeper.describeCluster().nodes().get(30, TimeUnit.SECONDS)).hasSize(1);
    }
  }

  @Test
  void withoutPlaintextTheListenersAreSaslSslAndASaslController(@TempDir Path dir) {
    BrokerSecurity security = BrokerSecurity.secureOnly(TestSupport.certificates());
    EmbeddedKafka.ListenerPorts ports = EmbeddedKafka.choosePorts(0, 0, security);
    assertThat(ports.plaintext()).isEqualTo(-1);
    assertThat(ports.secure()).isNotEqualTo(ports.controller());
    Map<String, String> c = EmbeddedKafka.secureBrokerConfig(dir, ports, security, "pw");
    assertThat(c.get("listeners")).doesNotContain("PLAINTEXT://").contains("SASL_SSL://");
    assertThat(c.get("advertised.listeners"))
        .isEqualTo("SASL_SSL://127.0.0.1:" + ports.secure());
    assertThat(c).containsEntry("inter.broker.listener.name", "SASL_SSL")
        .containsEntry("sasl.mechanism.controller.protocol", "PLAIN")
        .containsEntry("super.users", "User:locus-broker;User:controller")
        .containsEntry("authorizer.class.name",
            "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
    assertThat(EmbeddedKafka.choosePorts(0, 0, security.withPlaintextListener(true)).plaintext())
        .isPositive();
  }

  @Test
  void fixedPortsAreKeptAndTheOthersDifferFromThem() {
    BrokerSecurity both =
        BrokerSecurity.secureOnly(TestSupport.certificates()).withPlaintextListener(true);
    int[] fixed = EmbeddedKafka.freePorts(2);
    EmbeddedKafka.ListenerPorts ports = EmbeddedKafka.choosePorts(fixed[0], fixed[1], both);
    assertThat(ports.plaintext()).isEqualTo(fixed[0]);
    assertThat(ports.secure()).isEqualTo(fixed[1]);
    assertThat(ports.controller()).isNotIn(fixed[0], fixed[1]);
    EmbeddedKafka.ListenerPorts secureOnly = EmbeddedKafka.choosePorts(fixed[0], 0,
        both.withPlaintextListener(false));
    assertThat(secureOnly.secure()).isEqualTo(fixed[0]);
    assertThat(secureOnly.controller()).isNotEqualTo(fixed[0]);
    EmbeddedKafka.ListenerPorts mixedFree = EmbeddedKafka.choosePorts(0, fixed[1], both);
    assertThat(mixedFree.secure()).isEqualTo(fixed[1]);
    assertThat(mixedFree.plaintext()).isNotEqualTo(fixed[1]);
    assertThat(mixedFree.controller()).isNotIn(fixed[1], mixedFree.plaintext());
  }

  @Test
  void aPlainBrokerHasNoSecureSideAndSaysSo() {
    assertThatThrownBy(() -> EmbeddedKafka.startSecure(null))
        .hasMessageContaining("security settings are required");
  }

  @Test
  void theBrokerUserMustBePlainText() {
    assertThatThrownBy(() -> new BrokerSecurity(TestSupport.certificates(), "admin",
        "has space in it", false)).hasMessageContaining("at least 8");
  }
}
