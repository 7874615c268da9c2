package io.locus.cli;

import io.locus.kafka.testkit.EmbeddedKafka;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.Topics;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code locus broker}: the embedded single-node KRaft broker ({@link EmbeddedKafka}) as a
 * long-running command, so several processes (run, agents, replay, status) can try Locus out on
 * one or a few machines. One replica of everything: not for production (docs/operations.md,
 * "Brokers").
 */
@Command(name = "broker", mixinStandardHelpOptions = true,
    description = "Run a single-node Kafka broker (KRaft, embedded) for trying Locus out, until"
        + " stopped (SIGTERM or Ctrl-C); creates the Locus topics. Not for production: it keeps one"
        + " replica of everything (use a real Kafka cluster, see docs/operations.md).")
public final class BrokerCommand implements Callable<Integer> {
  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Option(names = "--port", defaultValue = "9092", paramLabel = "PORT",
      description = "Client port (PLAINTEXT); 0 = any free port. Default: ${DEFAULT-VALUE}.")
  int port;

  @Option(names = "--data-dir", defaultValue = "locus-kafka-data", paramLabel = "DIR",
      description = "Where the broker keeps its data; a restart on the same directory keeps the"
          + " topics and their records. Default: ${DEFAULT-VALUE}.")
  Path dataDir;

  @Option(names = "--host", defaultValue = "127.0.0.1", paramLabel = "HOST",
      description = "The address clients are told to use. 127.0.0.1 (the default) listens on"
          + " this machine only; any other host name or address listens on every interface and"
          + " advertises HOST:PORT, for agents on other machines.")
  String host;

  @Option(names = "--create-topics", defaultValue = "true", fallbackValue = "true",
      negatable = true, description = "Create the Locus topics (replication factor 1)."
          + " Default: ${DEFAULT-VALUE}.")
  boolean createTopics;

  private final CountDownLatch stop = new CountDownLatch(1);
  private volatile EmbeddedKafka running;

  @Override
  public Integer call() throws Exception {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("--port must be 0 (any free port) or 1..65535, got " + port);
    }
    if (host.isBlank()) {
      throw new IllegalArgumentException("--host must not be blank");
    }
    PrintWriter out = spec.commandLine().getOut();
    Path dir = dataDir.toAbsolutePath();
    EmbeddedKafka kafka;
    try {
      kafka = start(dir);
    } catch (RuntimeException e) {
      spec.commandLine().getErr().println("locus broker: cannot start a broker on port "
          + (port == 0 ? "(any free)" : port) + " with data in " + dir + ": " + rootMessage(e)
          + (port != 0 ? " (another process on the port? --port 0 picks a free one)" : ""));
      spec.commandLine().getErr().flush();
      return 1;
    }
    running = kafka;
    String address = advertised() ? host + ":" + kafka.port() : kafka.bootstrapServers();
    Thread hook = new Thread(() -> shutdown(out, address, dir), "locus-broker-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      if (createTopics) {
        TopicAdmin.ensureTopics(kafka.bootstrapServers(), Topics.ALL);
      }
      out.printf("locus broker: Kafka at %s (KRaft, one node), data in %s; %s. For trying things"
          + " out only (one replica): production uses a real Kafka cluster. Ctrl-C stops it.%n",
          address, dir, createTopics ? Topics.ALL.size() + " Locus topics present"
              : "topics not created (--no-create-topics)");
      out.flush();
      stop.await();
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
        shutdown(out, address, dir);
      } catch (IllegalStateException alreadyStopping) {
        // The JVM is shutting down: the hook does it.
      }
    }
    return 0;
  }

  /** Stops a running {@code call()} (tests; a signal goes through the shutdown hook). */
  void stop() {
    stop.countDown();
  }

  /** The broker this command runs, once started (tests). */
  EmbeddedKafka broker() {
    return running;
  }

  private synchronized void shutdown(PrintWriter out, String address, Path dir) {
    EmbeddedKafka kafka = running;
    if (kafka == null) {
      return;
    }
    running = null;
    out.printf("locus broker: stopping Kafka at %s%n", address);
    out.flush();
    kafka.close();
    out.printf("locus broker: stopped; data kept in %s%n", dir);
    out.flush();
    stop.countDown();
  }

  private boolean advertised() {
    return !host.equals("127.0.0.1") && !host.equals("localhost");
  }

  private EmbeddedKafka start(Path dir) {
    if (!advertised()) {
      return EmbeddedKafka.start(dir, port, Map.of());
    }
    // Listen on every interface and tell clients HOST:PORT. The controller listener stays on
    // the loopback; both its port and the client port are chosen here because the listener
    // settings name them.
    int[] ports = freePorts(port);
    Map<String, String> overrides = new LinkedHashMap<>();
    overrides.put("listeners", "PLAINTEXT://0.0.0.0:" + ports[0]
        + ",CONTROLLER://127.0.0.1:" + ports[1]);
    overrides.put("advertised.listeners", "PLAINTEXT://" + host + ":" + ports[0]);
    overrides.put("controller.quorum.voters", "1@127.0.0.1:" + ports[1]);
    return EmbeddedKafka.start(dir, ports[0], overrides);
  }

  /** {@code wanted} (or a free port when 0) and a distinct free port for the controller. */
  private static int[] freePorts(int wanted) {
    try (ServerSocket a = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        ServerSocket b = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int client = wanted == 0 ? a.getLocalPort() : wanted;
      int controller = b.getLocalPort() != client ? b.getLocalPort() : a.getLocalPort();
      return new int[] {client, controller};
    } catch (IOException e) {
      throw new UncheckedIOException("cannot find free ports", e);
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    return t == e ? m : e.getMessage() + ": " + m;
  }
}
