package io.locus.cli;

import io.locus.kafka.ClientConfigs;
import java.nio.file.Path;
import java.util.Properties;
import picocli.CommandLine.Option;

/** How an operator command reaches Kafka: bootstrap servers plus optional security settings. */
final class KafkaClientOptions {
  @Option(names = "--bootstrap-servers", required = true, paramLabel = "HOST:PORT[,...]",
      description = "Kafka bootstrap servers.")
  String bootstrap;

  @Option(names = "--kafka-properties", paramLabel = "FILE",
      description = "Extra Kafka client properties (security.protocol, sasl.*, ssl.*).")
  Path kafkaProperties;

  /** Admin and consumer settings: bootstrap servers, then the file's settings. */
  Properties clientProperties() {
    Properties p = ClientConfigs.base(bootstrap);
    return kafkaProperties == null ? p : ClientConfigs.withOverrides(p, kafkaProperties);
  }
}
