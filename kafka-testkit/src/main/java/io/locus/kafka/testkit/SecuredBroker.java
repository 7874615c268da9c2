package io.locus.kafka.testkit;

import io.locus.kafka.ClientConfigs;

import java.util.Map;
import java.util.Properties;

/**
 * A broker that may have been started with a SASL_SSL listener ({@link EmbeddedKafka} in this JVM,
 * {@link KafkaProcess} as a child): the client settings to reach that listener, derived from its
 * address and {@link BrokerSecurity}. Both accessors fail on a broker started insecure.
 */
public interface SecuredBroker {
  /** {@code 127.0.0.1:<port>} of the SASL_SSL listener. */
  String secureBootstrapServers();

  /** The security the broker was started with. */
  BrokerSecurity security();

  /** Admin settings for the secure listener, logged in as the broker's super user. */
  default Properties adminProperties() {
    BrokerSecurity s = security();
    return s.clientProperties(secureBootstrapServers(), s.adminUser(), s.adminPassword());
  }

  /**
   * Base client settings (bootstrap plus security) for {@code user} on the secure listener; add
   * producer or consumer settings with {@link ClientConfigs#withOverrides(Properties, Map)}.
   */
  default Properties clientProperties(String user, String password) {
    return security().clientProperties(secureBootstrapServers(), user, password);
  }
}
