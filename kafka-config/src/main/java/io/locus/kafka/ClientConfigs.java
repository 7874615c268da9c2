package io.locus.kafka;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka client settings shared by every plain-Kafka client in Locus (node agent, demo, tools).
 * Keys and values travel as bytes; {@link TopicSpec} or {@link AvroKafkaSerde} turn them into
 * records. Each method returns a new {@link Properties} the caller may change.
 *
 * <p>A real cluster's security settings ({@code security.protocol}, {@code sasl.*}, {@code ssl.*})
 * come from a properties file through {@link #withOverrides(Properties, Path)}, so no secret sits
 * in code or on a command line. Values are never logged; use {@link #redacted} to print a config.
 */
public final class ClientConfigs {
  private static final Logger LOG = LoggerFactory.getLogger(ClientConfigs.class);
  /** Keys whose values are credentials or key material. */
  private static final Pattern SECRET_KEY = Pattern.compile(
      ".*(password|secret|jaas|token|credential|keystore\\.key|private).*");
  private static final String REDACTED = "[redacted]";

  private ClientConfigs() {}

  /** Only the bootstrap servers: enough for an admin client on a PLAINTEXT broker. */
  public static Properties base(String bootstrap) {
    if (bootstrap == null || bootstrap.isBlank()) {
      throw new IllegalArgumentException("bootstrap servers must be given");
    }
    Properties p = new Properties();
    p.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    return p;
  }

  /**
   * An idempotent producer with acks=all: a broker retry never duplicates or reorders a record,
   * and a record acknowledged is on every in-sync replica. A small linger batches the bursts of an
   * agent's reports without adding noticeable latency.
   */
  public static Properties producer(String bootstrap) {
    Properties p = base(bootstrap);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    return p;
  }

  /**
   * A consumer starting from the earliest offset when its group has none (a new agent must see
   * decisions already addressed to it).
   *
   * @param groupId the consumer group, or {@code null} for a consumer that only uses assign()
   * @param readCommitted true to skip aborted and still-open transactions, as an agent must when
   *     the scheduler's sink is exactly-once
   */
  public static Properties consumer(String bootstrap, String groupId, boolean readCommitted) {
    Properties p = base(bootstrap);
    if (groupId != null) {
      p.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
    }
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG,
        readCommitted ? "read_committed" : "read_uncommitted");
    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    return p;
  }

  /**
   * {@code p} plus the settings of a Java properties file (UTF-8), which win. Values are trimmed:
   * a trailing space in a hand-written file would otherwise end up in a password or a host name.
   */
  public static Properties withOverrides(Properties p, Path propertiesFile) {
    Properties file = new Properties();
    try (Reader in = Files.newBufferedReader(propertiesFile, StandardCharsets.UTF_8)) {
      file.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read Kafka client settings " + propertiesFile, e);
    }
    Map<String, String> overrides = new TreeMap<>();
    file.stringPropertyNames().forEach(k -> overrides.put(k, file.getProperty(k).trim()));
    Properties out = withOverrides(p, overrides);
    LOG.info("Kafka client settings from {}: {}", propertiesFile, overrides.keySet());
    return out;
  }

  /**
   * A copy of {@code p} with {@code overrides} applied; a {@code null} value removes the key.
   * Values are turned into strings, as Kafka reads them from a file.
   */
  public static Properties withOverrides(Properties p, Map<String, ?> overrides) {
    Properties out = new Properties();
    out.putAll(p);
    overrides.forEach((k, v) -> {
      if (v == null) {
        out.remove(k);
      } else {
        out.put(k, v.toString());
      }
    });
    return out;
  }

  /** The settings, sorted, with credentials and key material replaced: safe to log or print. */
  public static Map<String, String> redacted(Properties p) {
    Map<String, String> out = new TreeMap<>();
    // entrySet, not stringPropertyNames: the latter silently skips non-String values.
    p.forEach((k, v) -> {
      String key = String.valueOf(k);
      out.put(key, isSecret(key) ? REDACTED : String.valueOf(v));
    });
    return out;
  }

  static boolean isSecret(String key) {
    return SECRET_KEY.matcher(key.toLowerCase(Locale.ROOT)).matches();
  }
}
