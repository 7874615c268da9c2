package io.locus.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClientConfigsTest {
  @Test
  void producerIsIdempotentWithAcksAll() {
    Properties p = ClientConfigs.producer("h:1");
    assertThat(p).containsEntry("bootstrap.servers", "h:1")
        .containsEntry("acks", "all")
        .containsEntry("enable.idempotence", "true")
        .containsEntry("value.serializer",
            "org.apache.kafka.common.serialization.ByteArraySerializer");
  }

  @Test
  void consumerStartsEarliestWithTheRequestedIsolation() {
    assertThat(ClientConfigs.consumer("h:1", "g", true))
        .containsEntry("group.id", "g")
        .containsEntry("auto.offset.reset", "earliest")
        .containsEntry("isolation.level", "read_committed");
    assertThat(ClientConfigs.consumer("h:1", null, false))
        .doesNotContainKey("group.id")
        .containsEntry("isolation.level", "read_uncommitted");
  }

  @Test
  void overridesFromAFileWinAndAreTrimmed(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("client.properties");
    Files.writeString(file, String.join("\n",
        "security.protocol=SASL_SSL",
        "sasl.mechanism=SCRAM-SHA-512",
        "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required \\",
        "  username=\"locus\" password=\"s3cret\";   ",
        "ssl.truststore.location=/etc/kafka/truststore.jks",
        "bootstrap.servers=prod:9093"));

    Properties base = ClientConfigs.producer("localhost:9092");
    Properties p = ClientConfigs.withOverrides(base, file);

    assertThat(p).containsEntry("bootstrap.servers", "prod:9093")
        .containsEntry("security.protocol", "SASL_SSL")
        .containsEntry("acks", "all")
        .containsEntry("sasl.jaas.config",
            "org.apache.kafka.common.security.scram.ScramLoginModule required "
                + "username=\"locus\" password=\"s3cret\";");
    assertThat(base).containsEntry("bootstrap.servers", "localhost:9092");
  }

  @Test
  void mapOverridesSetAndRemove() {
    Map<String, Object> overrides = new HashMap<>();
    overrides.put("linger.ms", 20);
    overrides.put("acks", null);
    Properties p = ClientConfigs.withOverrides(ClientConfigs.producer("h:1"), overrides);
    assertThat(p).containsEntry("linger.ms", "20").doesNotContainKey("acks");
  }

  @Test
  void redactedHidesCredentialsOnly() {
    Properties p = ClientConfigs.base("h:1");
    p.put("sasl.jaas.config", "... password=\"s3cret\";");
    p.put("ssl.keystore.password", "s3cret");
    p.put("ssl.key.password", "s3cret");
    p.put("ssl.keystore.key", "-----BEGIN PRIVATE KEY-----");
    p.put("security.protocol", "SASL_SSL");
    p.put("retries", 3);

    Map<String, String> shown = ClientConfigs.redacted(p);

    assertThat(shown.toString()).doesNotContain("s3cret").doesNotContain("PRIVATE KEY");
    assertThat(shown).containsEntry("security.protocol", "SASL_SSL")
        .containsEntry("bootstrap.servers", "h:1")
        .containsEntry("retries", "3")
        .containsEntry("ssl.key.password", "[redacted]");
  }

  @Test
  void aMissingOverridesFileIsAClearError(@TempDir Path dir) {
    Path missing = dir.resolve("nope.properties");
    assertThatThrownBy(() -> ClientConfigs.withOverrides(new Properties(), missing))
        .hasMessageContaining("nope.properties");
  }
}
