package io.locus.cli.chaos;

import io.locus.connectors.DeliveryMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command lines that the failure tests and {@code locus chaos} run as child processes:
 * {@code locus run} and simulated agents.
 */
public final class Cluster {
  private Cluster() {}

  /**
   * {@code locus run} with its state in {@code stateDir}: 1 s checkpoints, metrics every 500 ms,
   * a fixed transactional-id prefix (so a restart aborts the killed run's open transactions);
   * {@code extra} flags (e.g. {@code --node-timeout}) are appended.
   */
  public static List<String> runArgs(String bootstrap, Path stateDir, DeliveryMode mode, int parallelism,
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

  public static ChildJvm scheduler(List<String> runArgs) {
    return ChildJvm.start("locus-run", 700, "io.locus.cli.LocusCli", runArgs);
  }

  /**
   * Simulated agents of {@code pool} named {@code nodes}, fast modelled time, read_committed; each
   * node keeps its instance id and epochs in {@code stateDir}, so a restarted process is the same
   * agent instance to the scheduler (its REGISTER is accepted at once).
   */
  public static ChildJvm agents(String bootstrap, String pool, List<String> nodes,
      Path stateDir) {
    return ChildJvm.start("agents-" + pool + "-" + nodes.get(0), 256, "io.locus.agent.AgentCli",
        agentArgs(bootstrap, pool, nodes, stateDir, 2, 0.01));
  }

  /**
   * The arguments of {@code locus agent sim} (without "agent") for {@code nodes} of {@code pool}
   * with {@code slots} each and modelled time {@code timeScale}; {@code extra} appended.
   */
  public static List<String> agentArgs(String bootstrap, String pool, List<String> nodes,
      Path stateDir, int slots, double timeScale, String... extra) {
    List<String> a = new ArrayList<>(List.of("sim",
        "--state-dir", stateDir.toString(),
        "--bootstrap-servers", bootstrap,
        "--pool", pool,
        "--slots", Integer.toString(slots),
        "--time-scale", Double.toString(timeScale),
        "--heartbeat-ms", "500",
        "--isolation", "read_committed",
        "--from", "latest",
        "--no-create-topics",
        "--stats-interval", "PT0S"));
    for (String n : nodes) {
      a.add("--node");
      a.add(n);
    }
    a.addAll(List.of(extra));
    return a;
  }

  public static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
