package io.locus.kafka.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throw-away public key infrastructure for a test or demo broker: a certificate authority and a
 * broker certificate it signed (for {@code 127.0.0.1} and {@code localhost}), in PKCS12 stores
 * that share one random password.
 *
 * <p>Made with the JDK's own {@code keytool} in child processes: the JDK has no public API to
 * sign a certificate, and the only library on hand (bcprov, without bcpkix) lacks a certificate
 * builder too, so keytool avoids a new dependency. It costs a few short JVM starts, once per
 * directory: {@link #open} reuses what an earlier call generated there.
 *
 * <p>Files in {@link #dir()}: {@code ca.p12} (the CA's key; never given to anyone),
 * {@code ca.pem}, {@code broker.p12} (the broker's key and chain), {@code truststore.p12} (the CA
 * certificate only: what clients need) and {@code store.password} (one line).
 */
public final class BrokerCertificates {
  static final String CA_STORE = "ca.p12";
  static final String CA_PEM = "ca.pem";
  static final String BROKER_STORE = "broker.p12";
  static final String TRUSTSTORE = "truststore.p12";
  static final String PASSWORD_FILE = "store.password";
  /** Long enough for any test run or demo, short enough that a leaked key soon means nothing. */
  private static final int VALIDITY_DAYS = 30;
  private static final long KEYTOOL_TIMEOUT_SECONDS = 60;

  private final Path dir;
  private final String password;

  private BrokerCertificates(Path dir, String password) {
    this.dir = dir;
    this.password = password;
  }

  /**
   * The certificates in {@code dir}: loaded if an earlier call generated them (so a broker
   * restarted on the same directory presents the same certificate), generated otherwise.
   */
  public static BrokerCertificates open(Path dir) {
    Path absolute = dir.toAbsolutePath();
    try {
      Files.createDirectories(absolute);
      Path passwordFile = absolute.resolve(PASSWORD_FILE);
      if (Files.exists(passwordFile) && Files.exists(absolute.resolve(TRUSTSTORE))) {
        return new BrokerCertificates(absolute, Files.readString(passwordFile).trim());
      }
      BrokerCertificates certs = new BrokerCertificates(absolute, randomSecret());
      certs.generate();
      // Written last: its presence means the set is complete.
      Files.writeString(passwordFile, certs.password + "\n", StandardCharsets.UTF_8);
      return certs;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create test certificates in " + absolute, e);
    }
  }

  private void generate() throws IOException {
    String ext = "-ext";
    keytool("-genkeypair", "-keystore", CA_STORE, "-alias", "ca", "-dname", "CN=Locus test CA",
        ext, "bc:c", ext, "KeyUsage=keyCertSign,cRLSign");
    keytool("-exportcert", "-keystore", CA_STORE, "-alias", "ca", "-rfc", "-file", CA_PEM);
    keytool("-genkeypair", "-keystore", BROKER_STORE, "-alias", "broker",
        "-dname", "CN=localhost");
    keytool("-certreq", "-keystore", BROKER_STORE, "-alias", "broker", "-file", "broker.csr");
    // Clients verify the host name (ssl.endpoint.identification.algorithm=https by default), so
    // the certificate names the address the broker advertises.
    keytool("-gencert", "-keystore", CA_STORE, "-alias", "ca", "-infile", "broker.csr",
        "-outfile", "broker.pem", "-rfc", ext, "SAN=ip:127.0.0.1,dns:localhost",
        ext, "KeyUsage=digitalSignature", ext, "ExtendedKeyUsage=serverAuth,clientAuth");
    // The reply is accepted only if the store can complete its chain: trust the CA there first.
    keytool("-importcert", "-keystore", BROKER_STORE, "-alias", "ca", "-file", CA_PEM,
        "-noprompt");
    keytool("-importcert", "-keystore", BROKER_STORE, "-alias", "broker", "-file", "broker.pem");
    keytool("-importcert", "-keystore", TRUSTSTORE, "-alias", "ca", "-file", CA_PEM, "-noprompt");
    Files.deleteIfExists(dir.resolve("broker.csr"));
    Files.deleteIfExists(dir.resolve("broker.pem"));
  }

  private void keytool(String command, String... args) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    cmd.add(command);
    cmd.addAll(List.of(args));
    cmd.addAll(List.of("-storetype", "PKCS12", "-storepass", password));
    if (command.equals("-genkeypair")) {
      // EC keys generate in milliseconds, where RSA keys can take a second on a slow machine.
      cmd.addAll(List.of("-keyalg", "EC", "-groupname", "secp256r1",
          "-validity", Integer.toString(VALIDITY_DAYS)));
    } else if (command.equals("-gencert")) {
      cmd.addAll(List.of("-validity", Integer.toString(VALIDITY_DAYS)));
    }
    Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
    p.getOutputStream().close();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    try {
      if (!p.waitFor(KEYTOOL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException("keytool " + command + " did not finish in "
            + KEYTOOL_TIMEOUT_SECONDS + " s");
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted running keytool " + command, e);
    }
    if (p.exitValue() != 0) {
      // The command line holds the store password: name the step, not the line.
      throw new IllegalStateException("keytool " + command + " failed (exit " + p.exitValue()
          + ") in " + dir + ": " + output.trim());
    }
  }

  /** A random 128-bit secret, hex: safe inside JAAS strings and keytool arguments. */
  static String randomSecret() {
    byte[] bytes = new byte[16];
    new SecureRandom().nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  public Path dir() {
    return dir;
  }

  /** The password of every store here. */
  public String password() {
    return password;
  }

  /** The file holding {@link #password()}: a client's truststore password file. */
  public Path passwordFile() {
    return dir.resolve(PASSWORD_FILE);
  }

  /** The broker's key and certificate chain (PKCS12). */
  public Path brokerKeystore() {
    return dir.resolve(BROKER_STORE);
  }

  /** The CA certificate alone (PKCS12): what a client trusts. */
  public Path truststore() {
    return dir.resolve(TRUSTSTORE);
  }

  /** The CA certificate (PEM). */
  public Path caCertificate() {
    return dir.resolve(CA_PEM);
  }
}
