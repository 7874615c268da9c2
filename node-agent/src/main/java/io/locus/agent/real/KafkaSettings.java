package io.locus.agent.real;

import io.locus.agent.HostConfig;
import io.locus.agent.config.Setting;
import java.nio.file.Path;

/**
 * [kafka] How the agent reaches Kafka.
 *
 * @param bootstrapServers [kafka.bootstrap-servers] null: the command line must give them
 * @param propertiesFile [kafka.properties-file] client settings: security.protocol, sasl.*, ssl.*
 * @param readCommitted [kafka.read-committed] read decisions read_committed (default true: needed
 *     with an exactly-once scheduler, harmless otherwise)
 * @param startFrom [kafka.start-from] where decisions are read from at start-up (default latest)
 * @param createTopics [kafka.create-topics] create missing topics (default true; idempotent)
 */
public record KafkaSettings(String bootstrapServers, Path propertiesFile, Boolean readCommitted,
    HostConfig.StartFrom startFrom, Boolean createTopics) {
  public static final KafkaSettings DEFAULTS = new KafkaSettings(null, null, null, null, null);

  public KafkaSettings {
    readCommitted = Setting.orDefault(readCommitted, true);
    startFrom = Setting.orDefault(startFrom, HostConfig.StartFrom.LATEST);
    createTopics = Setting.orDefault(createTopics, true);
  }
}
