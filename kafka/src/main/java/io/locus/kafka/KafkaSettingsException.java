package io.locus.kafka;

/**
 * A Kafka client setting that cannot work (a truststore file that is not there, a password file
 * that is empty, SASL settings without a SASL protocol), found before any connection is tried:
 * Kafka itself would report most of these late, as a connection that keeps failing.
 */
public final class KafkaSettingsException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;
  private final String key;

  KafkaSettingsException(String source, String key, String problem) {
    super((source == null ? "" : source + ": ") + key + ": " + problem);
    this.key = key;
  }

  /** The setting at fault, e.g. {@code ssl.truststore.location}. */
  public String key() {
    return key;
  }
}
