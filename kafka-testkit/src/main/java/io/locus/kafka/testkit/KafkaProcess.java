package io.locus.kafka.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link EmbeddedKafka} broker in a child JVM ({@link EmbeddedKafkaMain}), for tests that need
 * the broker to die (kill, restart) and for the demo. The child runs on this JVM's classpath with
 * {@code java} from {@code java.home}; its output is kept (last lines) for error messages and
 * logged at DEBUG under {@code io.locus.kafka.testkit.KafkaProcess.child}.
 *
 * <p>{@link #startSecure} runs a secured broker ({@link BrokerSecurity}) whose certificates and
 * broker password live in a directory the parent and the child both open.
 *
 * <p>Not thread-safe: one owner drives start / stop / kill / restart.
 */
public final class KafkaProcess implements AutoCloseable, SecuredBroker {
  private static final Logger LOG = LoggerFactory.getLogger(KafkaProcess.class);
  private static final Logger CHILD_LOG =
      LoggerFactory.getLogger(KafkaProcess.class.getName() + ".child");
  /** JVM start plus broker start; generous because CI machines with 2 cores are slow. */
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
  private static final int TAIL_LINES = 60;
  /** A broker needs little heap; keep the child small next to Flink in the parent. */
  private static final List<String> CHILD_JVM_ARGS =
      List.of("-Xms64m", "-Xmx512m", "-XX:+UseSerialGC");
  /** Parent settings worth forwarding, so the child logs the way the parent was told to. */
  private static final List<String> FORWARDED_PROPERTIES = List.of(
      "log4j2.configurationFile", "log4j.configurationFile", "java.io.tmpdir");

  private final Path dataDir;
  /** Null for a PLAINTEXT broker. */
  private final Path secureDir;
  private final BrokerSecurity security;
  private Process process;
  private String bootstrapServers;
  private String secureBootstrapServers;
  private int port;
  private int securePort;
  private Integer lastExitCode;
  /** Last lines of the current child's output; new per launch so an old child cannot mix in. */
  private volatile Deque<String> tail = new ArrayDeque<>();

  private KafkaProcess(Path dataDir, Path secureDir, BrokerSecurity security) {
    this.dataDir = dataDir.toAbsolutePath();
    this.secureDir = secureDir == null ? null : secureDir.toAbsolutePath();
    this.security = security;
  }

  /** Starts a broker keeping its data in {@code dataDir} on a free port; returns when ready. */
  public static KafkaProcess start(Path dataDir) {
    KafkaProcess kafka = new KafkaProcess(dataDir, null, null);
    kafka.launch(0, 0);
    return kafka;
  }

  /**
   * Starts a secured broker ({@link BrokerSecurity#open} of {@code secureDir}, with a PLAINTEXT
   * listener too if {@code plaintextListener}) keeping its data in {@code dataDir}.
   */
  public static KafkaProcess startSecure(Path dataDir, Path secureDir, boolean plaintextListener) {
    BrokerSecurity security = BrokerSecurity.open(secureDir, plaintextListener);
    KafkaProcess kafka = new KafkaProcess(dataDir, secureDir, security);
    kafka.launch(0, 0);
    return kafka;
  }

  /** The SASL_SSL listener's address; fails for a broker started insecure. */
  @Override
  public String secureBootstrapServers() {
    requireSecure();
    return secureBootstrapServers;
  }

  /** The security of a broker started with {@link #startSecure}. */
  @Override
  public BrokerSecurity security() {
    requireSecure();
    return security;
  }



  private void requireSecure() {
    if (security == null) {
      throw new IllegalStateException("this Kafka child was not started with security");
    }
  }

  /** {@code 127.0.0.1:<port>} of the running broker (the latest one after a restart). */
  public String bootstrapServers() {
    return bootstrapServers;
  }

  public Path dataDir() {
    return dataDir;
  }

  public boolean isAlive() {
    return process != null && process.isAlive();
  }

  /** Stops the broker gracefully (closes its stdin, then SIGTERM, then kill if it hangs). */
  public void stop() {
    if (process == null) {
      return;
    }
    Process p = process;
    try {
      p.getOutputStream().close();
    } catch (IOException e) {
      // Already closed: the child is going away anyway.
    }
    if (!waitFor(p, STOP_TIMEOUT)) {
      LOG.warn("Kafka child {} did not stop after stdin closed; sending SIGTERM", p.pid());
      p.destroy();
      if (!waitFor(p, STOP_TIMEOUT)) {
        LOG.warn("Kafka child {} ignored SIGTERM; killing it", p.pid());
        p.destroyForcibly();
        waitFor(p, STOP_TIMEOUT);
      }
    }
    lastExitCode = p.isAlive() ? null : p.exitValue();
    process = null;
  }

  /** Kills the broker at once (SIGKILL): no controlled shutdown, as in a machine failure. */
  public void kill() {
    if (process == null) {
      return;
    }
    Process p = process;
    p.destroyForcibly();
    if (!waitFor(p, STOP_TIMEOUT)) {
      throw new IllegalStateException("Kafka child " + p.pid() + " survived SIGKILL");
    }
    lastExitCode = p.exitValue();
    process = null;
  }

  /** Exit code of the last child that ended: 0 after a clean {@link #stop()}; null if none yet. */
  public Integer lastExitCode() {
    return lastExitCode;
  }

  /**
   * Starts the broker again on the same data directory (stopping it first if it runs), on the
   * previous port so that existing clients reconnect; on a fresh free port if that one fails.
   */
  public void restart() {
    stop();
    try {
      launch(port, securePort);
    } catch (RuntimeException samePort) {
      LOG.warn("Kafka could not restart on port {}; trying a free port", port);
      try {
        launch(0, 0);
      } catch (RuntimeException freePort) {
        freePort.addSuppressed(samePort);
        throw freePort;
      }
    }
  }

  @Override
  public void close() {
    stop();
  }

  private void launch(int requestedPort, int requestedSecurePort) {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = new ArrayList<>();
    command.add(java);
    command.addAll(CHILD_JVM_ARGS);
    for (String name : FORWARDED_PROPERTIES) {
      String value = System.getProperty(name);
      if (value != null) {
        command.add("-D" + name + "=" + value);
      }
    }
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(EmbeddedKafkaMain.class.getName());
    command.add("--data-dir");
    command.add(dataDir.toString());
    command.add("--port");
    command.add(Integer.toString(requestedPort));
    if (secureDir != null) {
      command.add("--secure-dir");
      command.add(secureDir.toString());
      if (security.plaintextListener()) {
        command.add("--with-plaintext");
        command.add("--secure-port");
        command.add(Integer.toString(requestedSecurePort));
      }
    }

    Deque<String> output = new ArrayDeque<>();
    tail = output;
    Process p;
    try {
      p = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + java, e);
    }
    CompletableFuture<String> ready = new CompletableFuture<>();
    Thread reader = new Thread(() -> pump(p, output, ready), "kafka-child-" + p.pid());
    reader.setDaemon(true);
    reader.start();

    String bootstrap;
    try {
      bootstrap = ready.get(READY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException | ExecutionException e) {
      p.destroyForcibly();
      waitFor(p, STOP_TIMEOUT);
      String why = e instanceof TimeoutException
          ? "not ready within " + READY_TIMEOUT : e.getCause().getMessage();
      throw new IllegalStateException("Kafka child process (data " + dataDir + ") failed: " + why
          + "\n--- last output ---\n" + tailText(), e);
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while starting Kafka", e);
    }
    process = p;
    String[] addresses = bootstrap.split("\\s+");
    bootstrapServers = addresses[0];
    port = portOf(addresses[0]);
    if (addresses.length > 1) {
      secureBootstrapServers = addresses[1];
      securePort = portOf(addresses[1]);
    }
    LOG.info("Kafka child {} ready at {}", p.pid(), bootstrap);
  }

  /**
   * Reads the child's output until it ends: finds the ready line, keeps the tail for errors and
   * keeps the pipe drained so a chatty broker never blocks on a full pipe.
   */
  private static void pump(Process p, Deque<String> output, CompletableFuture<String> ready) {
    try (BufferedReader in = new BufferedReader(
        new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        CHILD_LOG.debug("[{}] {}", p.pid(), line);
        synchronized (output) {
          output.addLast(line);
          if (output.size() > TAIL_LINES) {
            output.removeFirst();
          }
        }
        if (!ready.isDone() && line.startsWith(EmbeddedKafkaMain.READY_PREFIX)) {
          ready.complete(line.substring(EmbeddedKafkaMain.READY_PREFIX.length()).trim());
        }
      }
    } catch (IOException e) {
      // The pipe breaks when the child is killed; the exit below tells the rest.
    }
    if (!ready.isDone()) {
      waitFor(p, Duration.ofSeconds(5));
      String code = p.isAlive() ? "still running" : "exit code " + p.exitValue();
      ready.completeExceptionally(
          new IllegalStateException("exited before it was ready (" + code + ")"));
    }
  }

  private static int portOf(String address) {
    return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
  }

  private String tailText() {
    Deque<String> output = tail;
    synchronized (output) {
      return String.join(System.lineSeparator(), output);
    }
  }

  private static boolean waitFor(Process p, Duration timeout) {
    try {
      return p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return !p.isAlive();
    }
  }
}
