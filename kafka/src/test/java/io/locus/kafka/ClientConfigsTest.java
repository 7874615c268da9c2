package io.locus.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.HashMap;
import java.util.List;
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
    Path truststore = truststore(dir.resolve("truststore.jks"), "changeit");
    Files.writeString(file, String.join("\n",
        "security.protocol=SASL_SSL",
        "sasl.mechanism=SCRAM-SHA-512",
        "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required \\",
        "  username=\"locus\" password=\"s3cret\";   ",
        "ssl.truststore.location=" + truststore,
        "ssl.truststore.password=changeit",
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

  // --- security settings: helpers and checks ------------------------------------------------

  @Test
  void passwordFilesAndALoginBecomeKafkaSettingsWithPathsRelativeToTheFile(@TempDir Path dir)
      throws Exception {
    Path conf = Files.createDirectories(dir.resolve("conf"));
    truststore(conf.resolve("ca.p12"), "trust-pw");
    Files.writeString(conf.resolve("ca.password"), "trust-pw\n");
    Files.writeString(conf.resolve("agent.password"), "p\"w\\1\r\n");
    Path file = Files.writeString(conf.resolve("kafka.properties"), String.join("\n",
        "security.protocol=SASL_SSL",
        "ssl.truststore.type=PKCS12",
        "ssl.truststore.location=ca.p12",
        "locus.ssl.truststore.password.file=ca.password",
        "locus.sasl.username=agent-node-1",
        "locus.sasl.password.file=agent.password"));

    Properties p = ClientConfigs.withOverrides(ClientConfigs.producer("h:1"), file);

    assertThat(p).containsEntry("ssl.truststore.location", conf.resolve("ca.p12").toString())
        .containsEntry("ssl.truststore.password", "trust-pw")
        .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
        .containsEntry("sasl.jaas.config",
            "org.apache.kafka.common.security.scram.ScramLoginModule required "
                + "username=\"agent-node-1\" password=\"p\\\"w\\\\1\";");
    assertThat(p.stringPropertyNames()).noneMatch(k -> k.startsWith("locus."));
  }

  @Test
  void helpersBuildScramOverTlsAndPlainTls(@TempDir Path dir) throws Exception {
    Path ts = truststore(dir.resolve("t.p12"), "pw");
    Properties scram = ClientConfigs.scramOverTls("u", "pw2", ts, "pw");
    assertThat(scram).containsEntry("security.protocol", "SASL_SSL")
        .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
        .containsEntry("ssl.truststore.location", ts.toAbsolutePath().toString());
    ClientConfigs.checkSecurity(scram, "helper");
    Properties tls = ClientConfigs.tls(ts, "pw");
    assertThat(tls).containsEntry("security.protocol", "SSL").doesNotContainKey("sasl.jaas.config");
    ClientConfigs.checkSecurity(tls, "helper");
  }

  @Test
  void aMissingTruststoreIsNamedWithItsPath(@TempDir Path dir) throws Exception {
    Path file = settings(dir, "security.protocol=SASL_SSL", "ssl.truststore.location=nope.p12",
        "sasl.jaas.config=x required;", "sasl.mechanism=SCRAM-SHA-512");
    assertThatThrownBy(() -> ClientConfigs.withOverrides(new Properties(), file))
        .isInstanceOfSatisfying(KafkaSettingsException.class,
            e -> assertThat(e.key()).isEqualTo("ssl.truststore.location"))
        .hasMessageContaining(file.toString())
        .hasMessageContaining(dir.resolve("nope.p12") + " does not exist");
  }

  @Test
  void aTruststoreWithTheWrongPasswordIsRefusedAtOnce(@TempDir Path dir) throws Exception {
    truststore(dir.resolve("ca.p12"), "right");
    Path file = settings(dir, "security.protocol=SSL", "ssl.truststore.type=PKCS12",
        "ssl.truststore.location=ca.p12", "ssl.truststore.password=wrong");
    assertThatThrownBy(() -> ClientConfigs.withOverrides(new Properties(), file))
        .isInstanceOf(KafkaSettingsException.class)
        .hasMessageContaining("ssl.truststore.password) is wrong");
  }

  @Test
  void aMissingEmptyOrMultiLinePasswordFileIsNamed(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("empty"), "\n");
    Files.writeString(dir.resolve("two-lines"), "a\nb\n");
    for (String[] c : List.of(new String[] {"missing", "does not exist"},
        new String[] {"empty", "is empty"}, new String[] {"two-lines", "must hold one line"})) {
      Path file = settings(dir, "security.protocol=SASL_SSL", "locus.sasl.username=u",
          "locus.sasl.password.file=" + c[0]);
      assertThatThrownBy(() -> ClientConfigs.withOverrides(new Properties(), file))
          .isInstanceOfSatisfying(KafkaSettingsException.class,
              e -> assertThat(e.key()).isEqualTo("locus.sasl.password.file"))
          .hasMessageContaining(dir.resolve(c[0]).toString())
          .hasMessageContaining(c[1]);
    }
    Path truststorePassword = settings(dir, "security.protocol=SSL",
        "locus.ssl.truststore.password.file=missing");
    assertThatThrownBy(() -> ClientConfigs.withOverrides(new Properties(), truststorePassword))
        .hasMessageContaining("locus.ssl.truststore.password.file")
        .hasMessageContaining("does not exist");
  }

  @Test
  void incompleteOrContradictorySaslSettingsAreRefused(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("pw"), "secret");
    assertKey(settings(dir, "security.protocol=SASL_SSL", "locus.sasl.username=u"),
        "locus.sasl.password.file");
    assertKey(settings(dir, "security.protocol=SASL_SSL", "locus.sasl.password.file=pw"),
        "locus.sasl.username");
    assertKey(settings(dir, "security.protocol=SASL_SSL", "locus.sasl.username=u",
        "locus.sasl.password.file=pw", "sasl.jaas.config=x required;"), "locus.sasl.username");
    assertKey(settings(dir, "security.protocol=SASL_SSL", "locus.sasl.username=u",
        "locus.sasl.password.file=pw", "sasl.mechanism=GSSAPI"), "sasl.mechanism");
    // SCRAM without any login: Kafka would only fail at the first connection.
    assertKey(settings(dir, "security.protocol=SASL_SSL", "sasl.mechanism=SCRAM-SHA-512"),
        "sasl.jaas.config");
  }

  @Test
  void securitySettingsUnderAProtocolThatIgnoresThemAreRefused(@TempDir Path dir)
      throws Exception {
    Files.writeString(dir.resolve("pw"), "secret");
    // A forgotten security.protocol would connect in the clear and never send the login.
    assertKey(settings(dir, "locus.sasl.username=u", "locus.sasl.password.file=pw"),
        "sasl.jaas.config");
    truststore(dir.resolve("ca.p12"), "x");
    assertKey(settings(dir, "security.protocol=SASL_PLAINTEXT", "ssl.truststore.location=ca.p12",
        "locus.sasl.username=u", "locus.sasl.password.file=pw"), "ssl.truststore.location");
    assertThatThrownBy(() -> ClientConfigs.withOverrides(new Properties(),
        settings(dir, "security.protocol=SASL_TLS")))
        .hasMessageContaining("unknown protocol 'SASL_TLS'").hasMessageContaining("SASL_SSL");
  }

  @Test
  void configProviderReferencesAreLeftToKafka(@TempDir Path dir) throws Exception {
    truststore(dir.resolve("ca.p12"), "x");
    Path file = settings(dir, "security.protocol=SSL", "config.providers=file",
        "config.providers.file.class=org.apache.kafka.common.config.provider.FileConfigProvider",
        "ssl.truststore.type=PKCS12", "ssl.truststore.location=ca.p12",
        "ssl.truststore.password=${file:/etc/locus/secrets.properties:truststore}");
    assertThat(ClientConfigs.withOverrides(new Properties(), file))
        .containsEntry("ssl.truststore.password",
            "${file:/etc/locus/secrets.properties:truststore}");
  }

  private static void assertKey(Path file, String key) {
    assertThatThrownBy(() -> ClientConfigs.withOverrides(new Properties(), file))
        .isInstanceOfSatisfying(KafkaSettingsException.class,
            e -> assertThat(e.key()).as(e.getMessage()).isEqualTo(key));
  }

  private static Path settings(Path dir, String... lines) throws IOException {
    return Files.writeString(dir.resolve("kafka.properties"), String.join("\n", lines));
  }

  /** An empty store of the type its name says (.jks or .p12), protected by {@code password}. */
  static Path truststore(Path path, String password) throws Exception {
    KeyStore ks = KeyStore.getInstance(path.toString().endsWith(".jks") ? "JKS" : "PKCS12");
    ks.load(null, null);
    try (OutputStream out = Files.newOutputStream(path)) {
      ks.store(out, password.toCharArray());
    }
    return path;
  }
}
