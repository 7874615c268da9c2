package io.locus.cli;

import io.locus.dashboard.Dashboard;
import io.locus.kafka.KafkaClientOptions;
import io.locus.kafka.KafkaReachability;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code locus dashboard}: serves the live dashboard (module {@code dashboard}) for a cluster's
 * topics until Ctrl-C. Read-only; binds to loopback unless told otherwise.
 */
@Command(name = "dashboard", mixinStandardHelpOptions = true,
    description = {"Serve a live web dashboard of the cluster's topics: per-node slots in use and"
        + " cache fill, queue length per pool, placements/s, local / peer / storage hit ratios,"
        + " bytes moved, lost nodes, dead letters by reason and the latest placements with why"
        + " they went where they did.",
        "It reads decisions, task-events, node-reports, scheduler-metrics and dead-letters from"
            + " their earliest offsets (no consumer group), so a restarted dashboard shows the"
            + " same numbers. Read-only. Prints its URL and runs until Ctrl-C."})
public final class DashboardCommand implements Callable<Integer> {
  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Mixin KafkaClientOptions kafka;

  @Option(names = "--port", defaultValue = "8088", paramLabel = "PORT",
      description = "HTTP port; 0 picks a free one. Default: ${DEFAULT-VALUE}.")
  int port;

  @Option(names = "--host", defaultValue = Dashboard.DEFAULT_HOST, paramLabel = "HOST",
      description = "Address to listen on. Default: ${DEFAULT-VALUE} (this machine only); "
          + "0.0.0.0 serves every interface (the page has no login: put it behind your proxy).")
  String host;

  @Option(names = "--placements", defaultValue = "" + Dashboard.DEFAULT_PLACEMENTS,
      paramLabel = "N", description = "Latest placements listed. Default: ${DEFAULT-VALUE}.")
  int placements;

  private final CountDownLatch stop = new CountDownLatch(1);
  private volatile Dashboard running;

  /** Stops a running {@code call()} (tests; a signal goes through the shutdown hook). */
  void stop() {
    stop.countDown();
  }

  /** The dashboard this command serves, once started (tests). */
  Dashboard dashboard() {
    return running;
  }

  @Override
  public Integer call() throws Exception {
    if (placements < 1 || placements > 10_000) {
      throw new IllegalArgumentException("--placements must be between 1 and 10000, got "
          + placements);
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("--port must be 0-65535 (0: a free one), got " + port);
    }
    if (host.isBlank()) {
      throw new IllegalArgumentException("--host must not be blank");
    }
    var props = kafka.clientProperties();
    KafkaReachability.check(props, KafkaReachability.DEFAULT_TIMEOUT);
    PrintWriter out = spec.commandLine().getOut();
    Dashboard dashboard;
    try {
      dashboard = Dashboard.start(props, new Dashboard.Options(host, port, placements));
    } catch (IllegalStateException e) {
      spec.commandLine().getErr().println("locus dashboard: " + e.getMessage()
          + (port != 0 ? " (another process on the port? --port 0 picks a free one)" : ""));
      spec.commandLine().getErr().flush();
      return 1;
    }
    Thread hook = new Thread(() -> {
      out.println("locus dashboard: stopping");
      out.flush();
      dashboard.close();
    }, "locus-dashboard-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    running = dashboard;
    out.printf("locus dashboard: %s (topics of %s; read-only). Ctrl-C stops it.%n",
        dashboard.url(), kafka.bootstrap);
    out.flush();
    try {
      stop.await();
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
        dashboard.close();
        out.println("locus dashboard: stopped");
        out.flush();
      } catch (IllegalStateException alreadyStopping) {
        // The JVM is shutting down: the hook does it.
      }
    }
    return 0;
  }
}
