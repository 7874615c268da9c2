package io.locus.kafka.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.common.utils.Exit;

/**
 * Runs {@link EmbeddedKafka} as its own process, so a test or the demo can kill the broker
 * without killing itself (see {@link KafkaProcess}).
 *
 * <p>Usage: {@code EmbeddedKafkaMain --data-dir <dir> [--port <n>] [--secure-dir <dir>
 * [--with-plaintext] [--secure-port <n>]]}. With {@code --secure-dir} the broker is secured by
 * {@link BrokerSecurity#open} of that directory (the parent opens it first and so knows the
 * passwords); {@code --port} is then the PLAINTEXT port with {@code --with-plaintext}, else the
 * SASL_SSL one. When the broker serves clients it prints exactly one line {@code
 * LOCUS-KAFKA-READY <bootstrapServers> [<secureBootstrapServers>]} on stdout. It
 * stops cleanly on SIGTERM or when stdin reaches end of file: the parent holds stdin open, so the
 * broker also goes away if its parent dies, even by {@code kill -9}.
 */
public final class EmbeddedKafkaMain {
  /** Prefix of the single line printed when the broker is ready. */
  public static final String READY_PREFIX = "LOCUS-KAFKA-READY ";

  /**
   * After a kill, the restarted broker cannot register until the controller has expired the dead
   * incarnation's session (default 9 s, then a registration retry). A dedicated, lightly loaded
   * process can afford a short session, which makes a kill-and-restart take a few seconds less.
   * Not used in-JVM, where a GC pause of a busy test JVM could fence a healthy broker.
   */
  static final Map<String, String> FAST_RECOVERY = Map.of(
      "broker.heartbeat.interval.ms", "500",
      "broker.session.timeout.ms", "3000");

  private EmbeddedKafkaMain() {}

  public static void main(String[] args) {
    Path dataDir = null;
    Path secureDir = null;
    boolean withPlaintext = false;
    int port = 0;
    int securePort = 0;
    try {
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--data-dir" -> dataDir = Path.of(args[++i]);
          case "--port" -> port = Integer.parseInt(args[++i]);
          case "--secure-dir" -> secureDir = Path.of(args[++i]);
          case "--with-plaintext" -> withPlaintext = true;
          case "--secure-port" -> securePort = Integer.parseInt(args[++i]);
          default -> throw new IllegalArgumentException("unknown argument " + args[i]);
        }
      }
      if (dataDir == null) {
        throw new IllegalArgumentException("--data-dir is required");
      }
      if (secureDir == null && (withPlaintext || securePort != 0)) {
        throw new IllegalArgumentException("--with-plaintext and --secure-port need --secure-dir");
      }
    } catch (RuntimeException e) {
      System.err.println("error: " + e.getMessage());
      System.err.println("usage: EmbeddedKafkaMain --data-dir <dir> [--port <n>] "
          + "[--secure-dir <dir> [--with-plaintext] [--secure-port <n>]]");
      System.exit(2);
      return;
    }

    EmbeddedKafka kafka;
    try {
      if (secureDir == null) {
        kafka = EmbeddedKafka.start(dataDir, port, FAST_RECOVERY);
      } else {
        BrokerSecurity security = BrokerSecurity.open(secureDir, withPlaintext);
        kafka = withPlaintext
            ? EmbeddedKafka.startSecure(dataDir, port, securePort, security, FAST_RECOVERY)
            : EmbeddedKafka.startSecure(dataDir, 0, port, security, FAST_RECOVERY);
      }
    } catch (RuntimeException e) {
      System.err.println("Kafka failed to start: " + e);
      e.printStackTrace();
      System.exit(1);
      return;
    }
    // This process exists only for the broker: a fatal broker fault must end it, so that the
    // parent sees a dead broker rather than a live process with a broken one. halt, not exit:
    // exit would run the shutdown hook, which waits for the very Kafka thread calling us.
    Exit.setExitProcedure((code, message) -> Runtime.getRuntime().halt(code));
    Exit.setHaltProcedure((code, message) -> Runtime.getRuntime().halt(code));

    // SIGTERM and System.exit both run this hook; close() is idempotent.
    Runtime.getRuntime().addShutdownHook(new Thread(kafka::close, "kafka-shutdown"));

    System.out.println(READY_PREFIX + kafka.bootstrapServers()
        + (secureDir == null ? "" : " " + kafka.secureBootstrapServers()));
    System.out.flush();

    CountDownLatch stdinClosed = new CountDownLatch(1);
    Thread watcher = new Thread(() -> {
      drain(System.in);
      stdinClosed.countDown();
    }, "stdin-watcher");
    watcher.setDaemon(true);
    watcher.start();
    try {
      stdinClosed.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    System.exit(0);
  }

  /** Reads until end of file (or an error, which means the parent is gone just the same). */
  private static void drain(InputStream in) {
    byte[] buf = new byte[256];
    try {
      while (in.read(buf) >= 0) {
        // The parent has nothing to say; only the end of the stream matters.
      }
    } catch (IOException e) {
      // Treated as end of file.
    }
  }
}
