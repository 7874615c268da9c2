package io.locus.kafka;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.UnrecoverableKeyException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.security.auth.SecurityProtocol;
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
 *
 * <p>Such a file may also keep passwords out of itself, in files of their own (one line each),
 * with these Locus keys, which are replaced by the Kafka settings they stand for:
 * <ul>
 *   <li>{@value #SASL_USERNAME} and {@value #SASL_PASSWORD_FILE}: a SCRAM (or PLAIN) login,
 *       turned into {@code sasl.jaas.config}; {@code sasl.mechanism} defaults to SCRAM-SHA-512;
 *   <li>{@value #TRUSTSTORE_PASSWORD_FILE}, {@value #KEYSTORE_PASSWORD_FILE} and {@value
 *       #KEY_PASSWORD_FILE}: {@code ssl.truststore.password}, {@code ssl.keystore.password} and
 *       {@code ssl.key.password}.
 * </ul>
 * Relative paths in these keys and in {@code ssl.*.location} are relative to the properties
 * file's directory, so a directory holding the file, the truststore and the password files can
 * move as a whole. The result is checked ({@link #checkSecurity}): a truststore that is not there
 * or does not open with its password fails at start with the setting's name, not later as a
 * connection that keeps failing.
 */
public final class ClientConfigs {
  /** The SASL mechanism Locus's secured brokers offer and its clients use by default. */
  public static final String SCRAM_MECHANISM = "SCRAM-SHA-512";
  private static final Logger LOG = LoggerFactory.getLogger(ClientConfigs.class);
  /** Keys whose values are credentials or key material. */
  private static final Pattern SECRET_KEY = Pattern.compile(
      ".*(password|secret|jaas|token|credential|keystore\\.key|private).*");
  private static final String REDACTED = "[redacted]";

  public static final String SASL_USERNAME = "locus.sasl.username";
  public static final String SASL_PASSWORD_FILE = "locus.sasl.password.file";
  public static final String TRUSTSTORE_PASSWORD_FILE = "locus.ssl.truststore.password.file";
  public static final String KEYSTORE_PASSWORD_FILE = "locus.ssl.keystore.password.file";
  public static final String KEY_PASSWORD_FILE = "locus.ssl.key.password.file";
  /** Locus password-file keys and the Kafka setting each one fills. */
  private static final Map<String, String> PASSWORD_FILES = Map.of(
      TRUSTSTORE_PASSWORD_FILE, SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG,
      KEYSTORE_PASSWORD_FILE, SslConfigs.SSL_KEYSTORE_PASSWORD_CONFIG,
      KEY_PASSWORD_FILE, SslConfigs.SSL_KEY_PASSWORD_CONFIG);
  /** Settings naming a file, resolved against the properties file's directory. */
  private static final Set<String> PATH_KEYS = Set.of(
      SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG,
      SASL_PASSWORD_FILE, TRUSTSTORE_PASSWORD_FILE, KEYSTORE_PASSWORD_FILE, KEY_PASSWORD_FILE);
  private static final String SCRAM_MODULE =
      "org.apache.kafka.common.security.scram.ScramLoginModule";
  private static final String PLAIN_MODULE =
      "org.apache.kafka.common.security.plain.PlainLoginModule";

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
   * Locus password-file keys are resolved (see the class comment) and the result is checked with
   * {@link #checkSecurity}.
   *
   * @throws UncheckedIOException if the properties file cannot be read
   * @throws KafkaSettingsException if a setting cannot work, naming the file and the setting
   */
  public static Properties withOverrides(Properties p, Path propertiesFile) {
    Map<String, String> overrides = fromFile(propertiesFile);
    Properties out = withOverrides(p, overrides);
    checkSecurity(out, propertiesFile.toString());
    LOG.info("Kafka client settings from {}: {}", propertiesFile, overrides.keySet());
    return out;
  }

  /**
   * The settings of a properties file, trimmed, relative paths resolved against its directory and
   * Locus password-file keys replaced by the Kafka settings they stand for.
   */
  public static Map<String, String> fromFile(Path propertiesFile) {
    Properties file = new Properties();
    try (Reader in = Files.newBufferedReader(propertiesFile, StandardCharsets.UTF_8)) {
      file.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read Kafka client settings " + propertiesFile, e);
    }
    Path base = propertiesFile.toAbsolutePath().getParent();
    String source = propertiesFile.toString();
    Map<String, String> settings = new TreeMap<>();
    file.stringPropertyNames().forEach(k -> {
      String v = file.getProperty(k).trim();
      // ${provider:...} is resolved by Kafka's config providers, not a path to touch here.
      if (PATH_KEYS.contains(k) && !v.isEmpty() && !v.startsWith("${")) {
        v = base.resolve(v).normalize().toString();
      }
      settings.put(k, v);
    });
    PASSWORD_FILES.forEach((locusKey, kafkaKey) -> {
      String pwFile = settings.remove(locusKey);
      if (pwFile != null) {
        if (settings.containsKey(kafkaKey)) {
          throw new KafkaSettingsException(source, locusKey,
              "give either " + locusKey + " or " + kafkaKey + ", not both");
        }
        settings.put(kafkaKey, readPassword(source, locusKey, Path.of(pwFile)));
      }
    });
    String user = settings.remove(SASL_USERNAME);
    String passwordFile = settings.remove(SASL_PASSWORD_FILE);
    if (user != null || passwordFile != null) {
      if (user == null || user.isEmpty() || passwordFile == null) {
        throw new KafkaSettingsException(source, user == null || user.isEmpty()
            ? SASL_USERNAME : SASL_PASSWORD_FILE,
            "a SASL login needs both " + SASL_USERNAME + " and " + SASL_PASSWORD_FILE);
      }
      if (settings.containsKey(SaslConfigs.SASL_JAAS_CONFIG)) {
        throw new KafkaSettingsException(source, SASL_USERNAME,
            "give either " + SASL_USERNAME + " or " + SaslConfigs.SASL_JAAS_CONFIG + ", not both");
      }
      String mechanism = settings.computeIfAbsent(SaslConfigs.SASL_MECHANISM,
          k -> SCRAM_MECHANISM);
      String password = readPassword(source, SASL_PASSWORD_FILE, Path.of(passwordFile));
      try {
        settings.put(SaslConfigs.SASL_JAAS_CONFIG, jaasConfig(mechanism, user, password));
      } catch (IllegalArgumentException e) {
        throw new KafkaSettingsException(source, SaslConfigs.SASL_MECHANISM, e.getMessage());
      }
    }
    return settings;
  }

  /**
   * SASL_SSL settings (no bootstrap) for {@code user} with SCRAM-SHA-512, trusting the CAs in a
   * PKCS12 {@code truststore}.
   */
  public static Properties scramOverTls(
      String user, String password, Path truststore, String truststorePassword) {
    Properties p = tls(truststore, truststorePassword);
    p.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_SSL");
    p.put(SaslConfigs.SASL_MECHANISM, SCRAM_MECHANISM);
    p.put(SaslConfigs.SASL_JAAS_CONFIG, jaasConfig(SCRAM_MECHANISM, user, password));
    return p;
  }

  /** SSL settings (no bootstrap) trusting the CAs in a PKCS12 {@code truststore}. */
  public static Properties tls(Path truststore, String truststorePassword) {
    Properties p = new Properties();
    p.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SSL");
    p.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PKCS12");
    p.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, truststore.toAbsolutePath().toString());
    if (truststorePassword != null) {
      p.put(SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, truststorePassword);
    }
    return p;
  }

  /**
   * The {@code sasl.jaas.config} of a login with {@code user} and {@code password} for {@code
   * mechanism} (SCRAM-SHA-256, SCRAM-SHA-512 or PLAIN). Quotes and backslashes are escaped, so
   * any password survives Kafka's JAAS parser.
   */
  public static String jaasConfig(String mechanism, String user, String password) {
    String module = switch (mechanism) {
      case "SCRAM-SHA-512", "SCRAM-SHA-256" -> SCRAM_MODULE;
      case "PLAIN" -> PLAIN_MODULE;
      default -> throw new IllegalArgumentException("a user name and password file work with "
          + "SCRAM-SHA-512, SCRAM-SHA-256 or PLAIN, not " + mechanism);
    };
    return module + " required username=\"" + jaasQuote(user) + "\" password=\""
        + jaasQuote(password) + "\";";
  }

  private static String jaasQuote(String s) {
    return s.replace("\\", "\\\\").replace("\"", "\\\"");
  }

  /**
   * The password in {@code file}: its content without the final line break. A missing,
   * unreadable or empty file, or one of several lines, is an error naming {@code key}.
   */
  static String readPassword(String source, String key, Path file) {
    if (!Files.isRegularFile(file)) {
      throw new KafkaSettingsException(source, key, "password file " + file
          + (Files.exists(file) ? " is not a regular file" : " does not exist"));
    }
    String content;
    try {
      content = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new KafkaSettingsException(source, key, "cannot read password file " + file + ": "
          + e.getMessage());
    }
    String password = content.replaceFirst("(\r?\n)+$", "");
    if (password.isEmpty()) {
      throw new KafkaSettingsException(source, key, "password file " + file + " is empty");
    }
    if (password.indexOf('\n') >= 0 || password.indexOf('\r') >= 0) {
      throw new KafkaSettingsException(source, key, "password file " + file
          + " must hold one line, the password");
    }
    return password;
  }

  /**
   * Checks that the security settings in {@code p} can work: a known {@code security.protocol};
   * TLS stores that exist and open with their passwords; a JAAS login for SCRAM and PLAIN; no
   * SASL or TLS store settings under a protocol that would ignore them (a forgotten {@code
   * security.protocol} would otherwise connect in the clear).
   *
   * @param source where the settings came from, for the message (may be null)
   * @throws KafkaSettingsException naming the first setting at fault
   */
  public static void checkSecurity(Properties p, String source) {
    String raw = p.getProperty(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "PLAINTEXT").trim();
    SecurityProtocol protocol;
    try {
      protocol = SecurityProtocol.forName(raw.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new KafkaSettingsException(source, CommonClientConfigs.SECURITY_PROTOCOL_CONFIG,
          "unknown protocol '" + raw + "'; use one of " + SecurityProtocol.names());
    }
    boolean tls = protocol == SecurityProtocol.SSL || protocol == SecurityProtocol.SASL_SSL;
    boolean sasl = protocol == SecurityProtocol.SASL_SSL
        || protocol == SecurityProtocol.SASL_PLAINTEXT;
    if (!sasl && p.getProperty(SaslConfigs.SASL_JAAS_CONFIG) != null) {
      throw new KafkaSettingsException(source, SaslConfigs.SASL_JAAS_CONFIG, "a SASL login is "
          + "given but security.protocol is " + protocol + ", which would not use it; set "
          + "security.protocol=SASL_SSL");
    }
    for (String store : List.of("ssl.truststore", "ssl.keystore")) {
      String location = p.getProperty(store + ".location");
      if (location == null || location.isBlank()) {
        continue;
      }
      if (!tls) {
        throw new KafkaSettingsException(source, store + ".location", "a TLS store is given but "
            + "security.protocol is " + protocol + ", which would not use it; set "
            + "security.protocol=SASL_SSL or SSL");
      }
      checkStore(p, store, Path.of(location), source);
    }
    if (sasl) {
      String mechanism =
          p.getProperty(SaslConfigs.SASL_MECHANISM, SaslConfigs.DEFAULT_SASL_MECHANISM);
      boolean needsLogin = mechanism.startsWith("SCRAM-") || mechanism.equals("PLAIN");
      if (needsLogin && p.getProperty(SaslConfigs.SASL_JAAS_CONFIG) == null) {
        throw new KafkaSettingsException(source, SaslConfigs.SASL_JAAS_CONFIG, protocol + " with "
            + mechanism + " needs a login: " + SASL_USERNAME + " and " + SASL_PASSWORD_FILE
            + ", or sasl.jaas.config");
      }
    }
  }

  /** The store exists and, for JKS and PKCS12, opens with its password (when one is given). */
  private static void checkStore(Properties p, String store, Path location, String source) {
    String key = store + ".location";
    if (!Files.isRegularFile(location)) {
      throw new KafkaSettingsException(source, key, location
          + (Files.exists(location) ? " is not a regular file" : " does not exist"));
    }
    if (!Files.isReadable(location)) {
      throw new KafkaSettingsException(source, key, location + " is not readable");
    }
    String type = p.getProperty(store + ".type", "JKS").trim().toUpperCase(Locale.ROOT);
    String password = p.getProperty(store + ".password");
    if (!type.equals("JKS") && !type.equals("PKCS12")
        || password != null && password.startsWith("${")) {
      return; // PEM, or a password only Kafka's config provider can read
    }
    try (InputStream in = Files.newInputStream(location)) {
      KeyStore ks = KeyStore.getInstance(type);
      ks.load(in, password == null ? null : password.toCharArray());
    } catch (IOException | GeneralSecurityException e) {
      String why = e.getCause() instanceof UnrecoverableKeyException
          ? "the password (" + store + ".password) is wrong" : e.getMessage();
      throw new KafkaSettingsException(source, key, "cannot open " + type + " store " + location
          + ": " + why);
    }
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
