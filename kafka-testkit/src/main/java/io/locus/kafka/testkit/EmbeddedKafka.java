package io.locus.kafka.testkit;

import io.locus.kafka.ClientConfigs;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.Topics;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Exit;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single-node Kafka 4 (KRaft, combined broker + controller) running inside this JVM, for tests
 * and the demo. Listens on 127.0.0.1 only, with PLAINTEXT for clients and a separate CONTROLLER
 * listener for the Raft quorum. Not a production deployment: one replica of everything.
 *
 * <p>{@link #startSecure} adds (or puts instead of PLAINTEXT) a SASL_SSL listener with SCRAM
 * logins and an authorizer, as described by {@link BrokerSecurity}: the settings a production
 * cluster uses, exercised for real in tests.
 *
 * <p>{@link #start()} uses a temporary directory deleted on {@link #close()}; {@link
 * #start(Path, Map)} keeps its data in a directory the caller owns, so a broker started again on
 * the same directory sees the same topics, offsets and committed transactions.
 */
public final class EmbeddedKafka implements AutoCloseable, SecuredBroker {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafka.class);
  private static final String HOST = "127.0.0.1";
  private static final int NODE_ID = 1;
  /** Kafka log segments live here, under the data directory. */
  static final String LOG_DIR_NAME = "kafka-logs";
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
  /** A freshly chosen free port can be taken by someone else before the broker binds it. */
  private static final int BIND_ATTEMPTS = 3;

  private final KafkaRaftServer server;
  private final Path dataDir;
  private final boolean deleteOnClose;
  private final String bootstrapServers;
  private final int port;
  /** Null unless started secure. */
  private final BrokerSecurity security;
  private final String secureBootstrapServers;
  private boolean closed;

  private EmbeddedKafka(KafkaRaftServer server, Path dataDir, boolean deleteOnClose,
      ListenerPorts ports, BrokerSecurity security) {
    this.server = server;
    this.dataDir = dataDir;
    this.deleteOnClose = deleteOnClose;
    this.security = security;
    this.port = ports.client();
    this.bootstrapServers = HOST + ":" + port;
    this.secureBootstrapServers = ports.secure() > 0 ? HOST + ":" + ports.secure() : null;
  }

  /**
   * The ports of one start. {@code plaintext} or {@code secure} is -1 when that listener is off.
   */
  record ListenerPorts(int plaintext, int secure, int controller) {
    /** The port {@link #bootstrapServers()} names: PLAINTEXT when there is one. */
    int client() {
      return plaintext > 0 ? plaintext : secure;
    }
  }

  /** A broker on free ports with a temporary data directory, deleted on {@link #close()}. */
  public static EmbeddedKafka start() {
    Path dir;
    try {
      dir = Files.createTempDirectory("locus-kafka-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a temporary Kafka data directory", e);
    }
    try {
      return start(dir, 0, 0, Map.of(), true, null);
    } catch (RuntimeException e) {
      deleteRecursively(dir);
      throw e;
    }
  }

  /**
   * A secured broker (see {@link BrokerSecurity}) on free ports with a temporary data directory,
   * deleted on {@link #close()} (the certificates are the caller's and stay).
   */
  public static EmbeddedKafka startSecure(BrokerSecurity security) {
    Path dir;
    try {
      dir = Files.createTempDirectory("locus-kafka-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a temporary Kafka data directory", e);
    }
    try {
      return start(dir, 0, 0, Map.of(), true, requireSecurity(security));
    } catch (RuntimeException e) {
      deleteRecursively(dir);
      throw e;
    }
  }

  /**
   * A secured broker keeping its data in {@code dataDir}, as {@link #start(Path, Map)}. A restart
   * on the same directory must use the same {@link BrokerSecurity#adminPassword()}: the broker
   * user's credential was written when the storage was formatted.
   */
  public static EmbeddedKafka startSecure(
      Path dataDir, BrokerSecurity security, Map<String, String> overrides) {
    return startSecure(dataDir, 0, 0, security, overrides);
  }

  /**
   * As {@link #startSecure(Path, BrokerSecurity, Map)} on given ports ({@code 0}: a free one), so
   * that clients reconnect after a restart. {@code plaintextPort} must be 0 when security has no
   * PLAINTEXT listener.
   */
  public static EmbeddedKafka startSecure(Path dataDir, int plaintextPort, int securePort,
      BrokerSecurity security, Map<String, String> overrides) {
    requireSecurity(security);
    if (plaintextPort != 0 && !security.plaintextListener()) {
      throw new IllegalArgumentException("a PLAINTEXT port was given but the broker has no "
          + "PLAINTEXT listener");
    }
    return start(dataDir, plaintextPort, securePort, overrides, false, security);
  }

  private static BrokerSecurity requireSecurity(BrokerSecurity security) {
    if (security == null) {
      throw new IllegalArgumentException("security settings are required for a secure broker");
    }
    return security;
  }

  /**
   * A broker on free ports keeping its data in {@code dataDir} (created if missing, never deleted).
   * Storage already formatted there is reused, so a restart keeps its data. {@code overrides} are
   * broker configs applied last (for example {@code log.retention.ms}).
   */
  public static EmbeddedKafka start(Path dataDir, Map<String, String> overrides) {
    return start(dataDir, 0, overrides);
  }

  /**
   * As {@link #start(Path, Map)}, with the client (PLAINTEXT) listener on {@code port}; {@code 0}
   * picks a free one. A fixed port lets clients that knew the previous broker reconnect after a
   * restart.
   */
  public static EmbeddedKafka start(Path dataDir, int port, Map<String, String> overrides) {
    return start(dataDir, port, 0, overrides, false, null);
  }

  private static EmbeddedKafka start(Path dataDir, int port, int securePort,
      Map<String, String> overrides, boolean deleteOnClose, BrokerSecurity security) {
    for (int p : new int[] {port, securePort}) {
      if (p < 0 || p > 65535) {
        throw new IllegalArgumentException("port must be 0 (free port) or 1..65535, got " + p);
      }
    }
    installExitGuard();
    try {
      Files.createDirectories(dataDir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create Kafka data directory " + dataDir, e);
    }
    // Retrying only helps when we chose the ports; a fixed port that is taken stays taken.
    int attempts = port == 0 && securePort == 0 ? BIND_ATTEMPTS : 1;
    for (int attempt = 1; ; attempt++) {
      ListenerPorts ports = choosePorts(port, securePort, security);
      try {
        return startOnce(dataDir, ports, overrides, deleteOnClose, security);
      } catch (RuntimeException e) {
        if (attempt >= attempts || !isBindFailure(e)) {
          throw e;
        }
        LOG.warn("Kafka could not bind its ports (attempt {}/{}); retrying on other free ports",
            attempt, attempts);
      }
    }
  }

  /**
   * Distinct ports for the listeners of one start. {@code port} is the PLAINTEXT listener's, or
   * the SASL_SSL one's on a broker without PLAINTEXT; {@code securePort} the SASL_SSL one's on a
   * broker with both. 0 means a free port; the controller's is always free.
   */
  static ListenerPorts choosePorts(int port, int securePort, BrokerSecurity security) {
    boolean plaintext = security == null || security.plaintextListener();
    boolean secure = security != null;
    int[] wanted = plaintext && secure ? new int[] {port, securePort, 0} : new int[] {port, 0};
    int[] free = freePorts(wanted.length);
    int[] chosen = new int[wanted.length];
    // Fixed ports first, then free ones that clash with none of them.
    int fixed = 0;
    for (int i = 0; i < wanted.length; i++) {
      if (wanted[i] != 0) {
        chosen[i] = wanted[i];
        fixed++;
      }
    }
    for (int i = 0; i < wanted.length; i++) {
      if (wanted[i] == 0) {
        chosen[i] = fixed == 0 ? free[i] : freePortOtherThan(chosen, wanted.length);
      }
    }
    int controller = chosen[wanted.length - 1];
    if (!secure) {
      return new ListenerPorts(chosen[0], -1, controller);
    }
    return plaintext ? new ListenerPorts(chosen[0], chosen[1], controller)
        : new ListenerPorts(-1, chosen[0], controller);
  }

  private static EmbeddedKafka startOnce(Path dataDir, ListenerPorts ports,
      Map<String, String> overrides, boolean deleteOnClose, BrokerSecurity security) {
    Map<String, String> config = security == null
        ? brokerConfig(dataDir, ports.plaintext(), ports.controller())
        : secureBrokerConfig(dataDir, ports, security, BrokerCertificates.randomSecret());
    config.putAll(overrides);
    formatIfNeeded(dataDir, config, security == null ? null : security.formatScramArgument());

    long t0 = System.nanoTime();
    KafkaRaftServer server = new KafkaRaftServer(new KafkaConfig(config, false), Time.SYSTEM);
    EmbeddedKafka kafka = new EmbeddedKafka(server, dataDir, deleteOnClose, ports, security);
    try {
      server.startup();
      kafka.awaitReady(READY_TIMEOUT);
    } catch (RuntimeException e) {
      kafka.shutdownQuietly();
      throw e;
    }
    LOG.info("Kafka broker ready at {} in {} ms (data in {})", kafka.bootstrapServers,
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0), dataDir);
    return kafka;
  }

  /** Single-node settings (see TOOLCHAIN.md); overrides may replace any of them. */
  static Map<String, String> brokerConfig(Path dataDir, int brokerPort, int controllerPort) {
    Map<String, String> c = new LinkedHashMap<>();
    c.put("process.roles", "broker,controller");
    c.put("node.id", Integer.toString(NODE_ID));
    c.put("controller.quorum.voters", NODE_ID + "@" + HOST + ":" + controllerPort);
    c.put("listeners",
        "PLAINTEXT://" + HOST + ":" + brokerPort + ",CONTROLLER://" + HOST + ":" + controllerPort);
    c.put("advertised.listeners", "PLAINTEXT://" + HOST + ":" + brokerPort);
    c.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    c.put("controller.listener.names", "CONTROLLER");
    c.put("inter.broker.listener.name", "PLAINTEXT");
    c.put("log.dirs", dataDir.resolve(LOG_DIR_NAME).toAbsolutePath().toString());
    // Every topic is declared in Topics and created by TopicAdmin: a typo must fail, not create.
    c.put("auto.create.topics.enable", "false");
    // Tests and the demo start consumers one at a time; waiting 3 s for more members is wasted.
    c.put("group.initial.rebalance.delay.ms", "0");
    // One broker: internal topics cannot have more than one replica.
    c.put("offsets.topic.replication.factor", "1");
    c.put("transaction.state.log.replication.factor", "1");
    c.put("transaction.state.log.min.isr", "1");
    c.put("share.coordinator.state.topic.replication.factor", "1");
    c.put("share.coordinator.state.topic.min.isr", "1");
    c.put("default.replication.factor", "1");
    c.put("min.insync.replicas", "1");
    // 50 partitions per internal topic (the default) only cost start-up time on one node.
    c.put("offsets.topic.num.partitions", "4");
    c.put("transaction.state.log.num.partitions", "4");
    c.put("share.coordinator.state.topic.num.partitions", "4");
    // Flink's exactly-once KafkaSink uses transactions of up to 1 h by default; the broker's
    // default maximum (15 min) would reject them.
    c.put("transaction.max.timeout.ms", "3600000");
    // The log cleaner's dedupe buffer is 128 MiB of heap by default, allocated at start: in a JVM
    // that hosts the scheduler too (demo, bench, tests) and starts a broker per run, that was the
    // allocation that ran out of heap. The embedded broker's compacted topics are small.
    c.put("log.cleaner.dedupe.buffer.size", Integer.toString(8 * 1024 * 1024));
    return c;
  }

  /**
   * {@link #brokerConfig} with a SASL_SSL listener (and PLAINTEXT only if {@code ports} has one),
   * SASL on the controller listener and the authorizer of {@code security}. The broker talks to
   * itself over SASL_SSL, as its super user.
   */
  static Map<String, String> secureBrokerConfig(Path dataDir, ListenerPorts ports,
      BrokerSecurity security, String controllerPassword) {
    Map<String, String> c = brokerConfig(dataDir, ports.client(), ports.controller());
    String controller = "CONTROLLER://" + HOST + ":" + ports.controller();
    String secure = "SASL_SSL://" + HOST + ":" + ports.secure();
    String clients = ports.plaintext() > 0
        ? "PLAINTEXT://" + HOST + ":" + ports.plaintext() + "," + secure : secure;
    c.put("listeners", clients + "," + controller);
    c.put("advertised.listeners", clients);
    c.put("listener.security.protocol.map",
        "PLAINTEXT:PLAINTEXT,SASL_SSL:SASL_SSL,CONTROLLER:SASL_PLAINTEXT");
    c.put("inter.broker.listener.name", "SASL_SSL");
    c.putAll(security.brokerConfig(controllerPassword));
    return c;
  }

  /**
   * Formats the storage with a new cluster id unless it is already formatted (meta.properties
   * present), which is what lets a restart on the same directory keep its data.
   */
  static void formatIfNeeded(Path dataDir, Map<String, String> config) {
    formatIfNeeded(dataDir, config, null);
  }

  /**
   * As {@link #formatIfNeeded(Path, Map)}; a non-null {@code scram} (StorageTool's {@code
   * --add-scram} value) writes that credential into the new metadata log.
   */
  static void formatIfNeeded(Path dataDir, Map<String, String> config, String scram) {
    Path logDir = Path.of(config.get("log.dirs").split(",")[0].trim());
    Path meta = logDir.resolve("meta.properties");
    if (Files.exists(meta)) {
      return;
    }
    Path propsFile = dataDir.resolve("server.properties");
    Properties props = new Properties();
    props.putAll(config);
    try (OutputStream out = Files.newOutputStream(propsFile)) {
      props.store(out, "Written by EmbeddedKafka for formatting; regenerated on every format");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + propsFile, e);
    }
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    int rc;
    try (PrintStream ps = new PrintStream(output, true, StandardCharsets.UTF_8)) {
      List<String> args = new ArrayList<>(List.of(
          "format", "--cluster-id", Uuid.randomUuid().toString(), "--config", propsFile.toString(),
          "--ignore-formatted"));
      if (scram != null) {
        args.add("--add-scram");
        args.add(scram);
      }
      rc = StorageTool.execute(args.toArray(String[]::new), ps);
    } catch (RuntimeException e) {
      // The tool reports config errors by throwing, with nothing printed: name the cause here.
      throw new IllegalStateException("cannot format Kafka storage in " + logDir + ": " + e
          + " " + output.toString(StandardCharsets.UTF_8), e);
    }
    if (rc != 0) {
      throw new IllegalStateException("formatting Kafka storage in " + logDir + " failed (" + rc
          + "): " + output.toString(StandardCharsets.UTF_8));
    }
  }

  /**
   * Startup returns before the broker necessarily serves clients; a test that produced right away
   * could race it. An admin round trip that sees this broker proves it does.
   */
  private void awaitReady(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    // A secure broker is ready when its secure listener serves its super user.
    Properties props = security == null ? ClientConfigs.base(bootstrapServers) : adminProperties();
    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Long.toString(timeout.toMillis()));
    props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
    try (Admin admin = Admin.create(props)) {
      Exception last = null;
      while (System.nanoTime() < deadline) {
        long remainingMs = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
        try {
          DescribeClusterOptions options =
              new DescribeClusterOptions().timeoutMs((int) Math.min(remainingMs, 5000));
          boolean registered = admin.describeCluster(options)
              .nodes().get(remainingMs, TimeUnit.MILLISECONDS)
              .stream().anyMatch(n -> n.id() == NODE_ID);
          if (registered) {
            return;
          }
          // Answered, but without this broker yet: poll again shortly rather than spin.
          Thread.sleep(100);
        } catch (ExecutionException | TimeoutException e) {
          last = e;
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(
              "interrupted waiting for Kafka at " + bootstrapServers, e);
        }
      }
      throw new IllegalStateException(
          "Kafka at " + bootstrapServers + " not ready within " + timeout, last);
    }
  }

  /** The client bootstrap address, {@code 127.0.0.1:<port>}. */
  public String bootstrapServers() {
    return bootstrapServers;
  }

  /** The client port: PLAINTEXT, or SASL_SSL on a broker without PLAINTEXT. */
  public int port() {
    return port;
  }

  /** {@code 127.0.0.1:<port>} of the SASL_SSL listener; fails on a broker started insecure. */
  @Override
  public String secureBootstrapServers() {
    requireSecure();
    return secureBootstrapServers;
  }

  /** The security this broker was started with; fails on a broker started insecure. */
  @Override
  public BrokerSecurity security() {
    requireSecure();
    return security;
  }



  private void requireSecure() {
    if (security == null) {
      throw new IllegalStateException("the broker at " + bootstrapServers + " was not started "
          + "with security (use EmbeddedKafka.startSecure)");
    }
  }

  /** The directory holding this broker's storage. */
  public Path dataDir() {
    return dataDir;
  }

  /** Stops the broker (controlled shutdown) and, for {@link #start()}, deletes its data. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    shutdownQuietly();
    if (deleteOnClose) {
      deleteRecursively(dataDir);
    }
    LOG.info("Kafka broker at {} stopped", bootstrapServers);
  }

  private void shutdownQuietly() {
    try {
      server.shutdown();
      server.awaitShutdown();
    } catch (RuntimeException e) {
      LOG.warn("error while stopping Kafka at {}", bootstrapServers, e);
    }
  }

  private static volatile boolean exitGuardInstalled;

  /**
   * Kafka calls {@code Exit.exit/halt} on fatal faults (a failed log directory, a metadata error).
   * In a shared JVM that would kill the test runner or the demo with it, so the request is logged
   * and the calling Kafka thread fails instead. The procedures are JVM-wide statics and are left
   * installed: another broker may still be running when this one closes.
   */
  static void installExitGuard() {
    if (exitGuardInstalled) {
      return;
    }
    synchronized (EmbeddedKafka.class) {
      if (exitGuardInstalled) {
        return;
      }
      Exit.setExitProcedure((code, message) -> {
        LOG.error("Kafka requested exit({}): {}; refused, this JVM hosts an embedded broker",
            code, message);
        throw new IllegalStateException("Kafka requested exit(" + code + "): " + message);
      });
      Exit.setHaltProcedure((code, message) -> {
        LOG.error("Kafka requested halt({}): {}; refused, this JVM hosts an embedded broker",
            code, message);
        throw new IllegalStateException("Kafka requested halt(" + code + "): " + message);
      });
      exitGuardInstalled = true;
    }
  }

  static int freePort() {
    return freePorts(1)[0];
  }

  /**
   * {@code n} distinct free ports. The sockets are held open together while the ports are read:
   * two separate lookups may return the same just-released port, and a broker whose client and
   * controller listeners share a port fails its config check before it ever binds (seen in CI).
   */
  static int[] freePorts(int n) {
    List<ServerSocket> open = new ArrayList<>(n);
    try {
      int[] ports = new int[n];
      for (int i = 0; i < n; i++) {
        ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST));
        open.add(socket);
        ports[i] = socket.getLocalPort();
      }
      return ports;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot find " + n + " free ports on " + HOST, e);
    } finally {
      for (ServerSocket s : open) {
        try {
          s.close();
        } catch (IOException ignored) {
          // Closing a listening socket we opened only fails if it is already closed.
        }
      }
    }
  }

  static int freePortOtherThan(int taken) {
    return freePortOtherThan(new int[] {taken}, 1);
  }

  /** A free port distinct from the first {@code n} of {@code taken}. */
  static int freePortOtherThan(int[] taken, int n) {
    for (int i = 0; i < 16; i++) {
      int p = freePort();
      boolean clash = false;
      for (int j = 0; j < n; j++) {
        clash |= taken[j] == p;
      }
      if (!clash) {
        return p;
      }
    }
    throw new IllegalStateException("no free port other than " + java.util.Arrays.toString(
        java.util.Arrays.copyOf(taken, n)) + " on " + HOST);
  }

  private static boolean isBindFailure(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof BindException) {
        return true;
      }
    }
    return false;
  }

  static void deleteRecursively(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.deleteIfExists(p);
        } catch (IOException e) {
          LOG.warn("cannot delete {}: {}", p, e.toString());
        }
      });
    } catch (IOException e) {
      LOG.warn("cannot delete {}: {}", dir, e.toString());
    }
  }
}
