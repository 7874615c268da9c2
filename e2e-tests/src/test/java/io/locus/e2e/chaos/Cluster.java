package io.locus.e2e.chaos;

import io.locus.connectors.DeliveryMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The command lines the failure tests run as child processes: `locus run` and simulated agents. */
final class Cluster {
  private Cluster() {}

  /**
   * {@code locus run} with its state in {@code stateDir}: 1 s checkpoints, metrics every 500 ms,
   * a fixed transactional-id prefix (so a restart aborts the killed run's open transactions);
   * {@code extra} flags (e.g. {@code --node-timeout}) are appended.
   */
  static List<String> runArgs(String bootstrap, Path stateDir, DeliveryMode mode, int parallelism,
      int restPort, String... extra) {
    List<String> a = new ArrayList<>(List.of("run",
        "--bootstrap-servers", bootstrap,
        "--state-dir", stateDir.toString(),
        "--delivery", mode == DeliveryMode.EXACTLY_ONCE ? "exactly-once" : "at-least-once",
        "--checkpoint-interval", "PT1S",
        "--metrics-interval-ms", "500",
        "--parallelism", Integer.toString(parallelism),
        "--rest-port", Integer.toString(restPort),
        "--restart-attempts", "3",
        "--transactional-id-prefix", "chaos-" + Integer.toHexString(stateDir.hashCode()),
        "--no-create-topics"));
    a.addAll(List.of(extra));
    return a;
  }

  static ChildJvm scheduler(List<String> runArgs) {
    return ChildJvm.start("locus-run", 700, "io.locus.cli.LocusCli", runArgs);
  }

  /**
   * Simulated agents of {@code pool} named {@code nodes}, fast modelled time, read_committed; each
   * node keeps its instance id and epochs in {@code stateDir}, so a restarted process is the same
   * agent instance to the scheduler (its REGISTER is accepted at once).
   */
  static ChildJvm agents(String bootstrap, String pool, List<String> nodes, Path stateDir) {
    List<String> a = new ArrayList<>(List.of("sim",
        "--state-dir", stateDir.toString(),
        "--bootstrap-servers", bootstrap,
        "--pool", pool,
        "--slots", "2",
        "--time-scale", "0.01",
        "--heartbeat-ms", "500",
        "--isolation", "read_committed",
        "--from", "latest",
        "--no-create-topics",
        "--stats-interval", "PT0S"));
    for (String n : nodes) {
      a.add("--node");
      a.add(n);
    }
    return ChildJvm.start("agents-" + pool + "-" + nodes.get(0), 256,
        "io.locus.agent.AgentCli", a);
  }

  static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
