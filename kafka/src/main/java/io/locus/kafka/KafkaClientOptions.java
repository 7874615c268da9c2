package io.locus.kafka;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import picocli.CommandLine.Option;

/**
 * How a command reaches Kafka: bootstrap servers plus optional client settings from a file. One
 * picocli mixin ({@code @Mixin KafkaClientOptions kafka;}) for every command that talks to Kafka
 * (the scheduler job, the agents, the operator commands), so the two flags have one spelling and
 * one meaning everywhere.
 */
public final class KafkaClientOptions {
  @Option(names = "--bootstrap-servers", required = true, paramLabel = "HOST:PORT[,...]",
      description = "Kafka bootstrap servers.")
  public String bootstrap;

  @Option(names = "--kafka-properties", paramLabel = "FILE",
      description = "Extra Kafka client properties (security.protocol, sasl.*, ssl.*).")
  public Path kafkaProperties;

  /** Admin and consumer settings: bootstrap servers, then the file's settings. */
  public Properties clientProperties() {
    Properties p = ClientConfigs.base(bootstrap);
    return kafkaProperties == null ? p : ClientConfigs.withOverrides(p, kafkaProperties);
  }

  /** The file's settings alone (empty without --kafka-properties). */
  public Properties overrides() {
    Properties p = new Properties();
    return kafkaProperties == null ? p : ClientConfigs.withOverrides(p, kafkaProperties);
  }

  /** {@link #overrides} as a sorted map. */
  public Map<String, String> overrideMap() {
    Map<String, String> m = new TreeMap<>();
    Properties p = overrides();
    p.stringPropertyNames().forEach(k -> m.put(k, p.getProperty(k)));
    return m;
  }
}
