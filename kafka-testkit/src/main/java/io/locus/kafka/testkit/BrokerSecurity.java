package io.locus.kafka.testkit;

import io.locus.kafka.ClientConfigs;
import io.locus.kafka.KafkaSecurityAdmin;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * How {@link EmbeddedKafka} secures itself: a {@code SASL_SSL} client listener (TLS with the
 * certificates of {@link BrokerCertificates}, SASL/SCRAM-SHA-512 logins) and Kafka's {@code
 * StandardAuthorizer}, so that every client is a named principal and may do only what an ACL
 * grants it.
 *
 * <p>The broker's own identity, {@link #adminUser()}, is a super user whose SCRAM credential is
 * written when the storage is formatted (SCRAM credentials live in the metadata log, so the very
 * first one cannot be made with the Admin API: nobody could log in to make it). Every other user
 * is made by a test through {@link KafkaSecurityAdmin}. The controller listener is not reachable
 * by clients in practice (loopback, unadvertised port) but is authenticated all the same, with
 * SASL/PLAIN and a per-start password, because a KRaft controller also accepts admin requests.
 *
 * <p>For tests and the demo only: the passwords are kept in plain files ({@link #open}) and in
 * the {@code server.properties} that formatting writes into the data directory.
 *
 * @param certificates the broker's key and the CA clients trust
 * @param adminUser the broker's principal (User:adminUser), super user
 * @param adminPassword its SCRAM password
 * @param plaintextListener true to keep a PLAINTEXT client listener beside the secure one. Its
 *     clients are {@code User:ANONYMOUS} and, like everyone, get only what ACLs grant.
 */
public record BrokerSecurity(BrokerCertificates certificates, String adminUser,
    String adminPassword, boolean plaintextListener) {
  /** The one SASL mechanism the secure listener offers. */
  public static final String MECHANISM = ClientConfigs.SCRAM_MECHANISM;
  static final String DEFAULT_ADMIN = "locus-broker";
  static final String ADMIN_PASSWORD_FILE = "broker-user.password";

  public BrokerSecurity {
    if (certificates == null) {
      throw new IllegalArgumentException("certificates are required");
    }
    KafkaSecurityAdmin.checkUserName(adminUser);
    // Both end up in a StorageTool argument and a JAAS string unquoted: keep them plain.
    if (!adminUser.matches("[A-Za-z0-9._-]+") || adminPassword == null
        || !adminPassword.matches("[A-Za-z0-9._-]{8,}")) {
      throw new IllegalArgumentException("the broker user and its password must be at least 8 "
          + "letters, digits, '.', '_' or '-'");
    }
  }

  /** SASL_SSL only; the broker user gets a random password. */
  public static BrokerSecurity secureOnly(BrokerCertificates certificates) {
    return new BrokerSecurity(
        certificates, DEFAULT_ADMIN, BrokerCertificates.randomSecret(), false);
  }

  /**
   * The security kept in {@code dir}: its certificates ({@link BrokerCertificates#open}) and the
   * broker user's password, generated on first use and read back after, so that a broker
   * restarted on the same storage (whose format wrote that credential), or started in a child
   * process, uses the same one.
   */
  public static BrokerSecurity open(Path dir, boolean plaintextListener) {
    BrokerCertificates certificates = BrokerCertificates.open(dir);
    Path file = certificates.dir().resolve(ADMIN_PASSWORD_FILE);
    try {
      if (!Files.exists(file)) {
        Path tmp = Files.createTempFile(certificates.dir(), "broker-user", ".tmp");
        Files.writeString(tmp, BrokerCertificates.randomSecret() + "\n", StandardCharsets.UTF_8);
        try {
          Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException raced) {
          Files.deleteIfExists(tmp);
        }
      }
      return new BrokerSecurity(certificates, DEFAULT_ADMIN,
          Files.readString(file, StandardCharsets.UTF_8).trim(), plaintextListener);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot keep the broker user's password in " + file, e);
    }
  }

  /** This security with or without a PLAINTEXT listener beside the secure one. */
  public BrokerSecurity withPlaintextListener(boolean keep) {
    return new BrokerSecurity(certificates, adminUser, adminPassword, keep);
  }

  /** {@code User:<adminUser>}. */
  public String adminPrincipal() {
    return "User:" + adminUser;
  }

  /**
   * Client settings (no bootstrap) for {@code user} over SASL_SSL with SCRAM, trusting the
   * broker's CA.
   */
  public Properties clientSecurity(String user, String password) {
    return ClientConfigs.scramOverTls(
        user, password, certificates.truststore(), certificates.password());
  }

  /** Broker settings for the listeners named {@code SASL_SSL} and {@code CONTROLLER}. */
  Map<String, String> brokerConfig(String controllerPassword) {
    Map<String, String> c = new LinkedHashMap<>();
    String truststore = certificates.truststore().toString();
    c.put("ssl.keystore.type", "PKCS12");
    c.put("ssl.keystore.location", certificates.brokerKeystore().toString());
    c.put("ssl.keystore.password", certificates.password());
    c.put("ssl.key.password", certificates.password());
    // The broker is a client of itself on the inter-broker listener: it must trust its CA.
    c.put("ssl.truststore.type", "PKCS12");
    c.put("ssl.truststore.location", truststore);
    c.put("ssl.truststore.password", certificates.password());
    c.put("ssl.client.auth", "none");
    c.put("listener.name.sasl_ssl.sasl.enabled.mechanisms", MECHANISM);
    c.put("sasl.enabled.mechanisms", MECHANISM);
    c.put("sasl.mechanism.inter.broker.protocol", MECHANISM);
    c.put("listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config",
        ClientConfigs.jaasConfig(MECHANISM, adminUser, adminPassword));
    // SCRAM cannot guard the controller listener (its credentials are in the log the controller
    // serves); PLAIN with users in the JAAS config can. The broker logs in as "controller".
    c.put("sasl.mechanism.controller.protocol", "PLAIN");
    c.put("listener.name.controller.sasl.enabled.mechanisms", "PLAIN");
    c.put("listener.name.controller.plain.sasl.jaas.config",
        "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"controller\""
            + " password=\"" + controllerPassword + "\" user_controller=\""
            + controllerPassword + "\";");
    c.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
    c.put("super.users", adminPrincipal() + ";User:controller");
    // The default, stated: no ACL on a resource means nobody but super users may use it.
    c.put("allow.everyone.if.no.acl.found", "false");
    return c;
  }

  /** The StorageTool argument that writes the broker user's credential at format time. */
  String formatScramArgument() {
    return MECHANISM + "=[name=" + adminUser + ",password=" + adminPassword + "]";
  }

  /** Admin-client settings (no bootstrap) logging in as the broker's super user. */
  public Properties adminClientSecurity() {
    return clientSecurity(adminUser, adminPassword);
  }

  /** Bootstrap plus {@link #clientSecurity}: a client's base settings. */
  public Properties clientProperties(String secureBootstrap, String user, String password) {
    Properties p = ClientConfigs.base(secureBootstrap);
    p.putAll(clientSecurity(user, password));
    return p;
  }
}
