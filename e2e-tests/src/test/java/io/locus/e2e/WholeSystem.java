package io.locus.e2e;

import io.locus.agent.AgentConfig;
import io.locus.agent.AgentHost;
import io.locus.agent.HostConfig;
import io.locus.agent.sim.SimulatedAgents;
import io.locus.cli.EmbeddedLocus;
import io.locus.cli.LocusCli;
import io.locus.cli.demo.DemoRun;
import io.locus.cli.demo.DemoWorkload;
import io.locus.cli.demo.TaskEventTracker;
import io.locus.testkit.Await;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/** Shared settings for the whole-system tests: fast modelled time, small caches, real everything. */
final class WholeSystem {
  static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());
  static final PrintStream LOUD = System.out;

  private WholeSystem() {}

  /** A run of the command line: its exit code and what it printed. */
  record CliRun(int code, String out, String err) {}

  /** {@code locus control --bootstrap-servers B --timeout PT60S ARGS...}, in this JVM. */
  static CliRun control(String bootstrap, String... args) {
    List<String> all = new ArrayList<>(List.of("control", "--bootstrap-servers", bootstrap,
        "--timeout", "PT60S"));
    all.addAll(List.of(args));
    return cli(all.toArray(new String[0]));
  }

  /** {@code locus ARGS...} in this JVM: its exit code and what it printed. */
  static CliRun cli(String... args) {
    var cl = LocusCli.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int code = cl.execute(args);
    return new CliRun(code, out.toString(), err.toString());
  }

  /**
   * {@code nodes} simulated agents of {@code pool} with {@code slots} slots and 1 GB caches, at
   * the whole-system tests' bandwidths and time scale 0.01, reading decisions uncommitted.
   */
  static AgentHost<?> simulatedAgents(String bootstrap, String pool, int nodes, int slots) {
    AgentConfig template = AgentConfig.builder(pool).slots(slots)
        .cacheCapacityBytes(1_000_000_000L).storageBandwidth(50e6).peerBandwidth(100e6)
        .localBandwidth(400e6).timeScale(0.01).build();
    HostConfig host = HostConfig.builder(bootstrap)
        .nodeIds(HostConfig.nodeIds(pool + "-node-", nodes))
        .readCommitted(false)
        .startFrom(HostConfig.StartFrom.EARLIEST)
        .ensureTopics(false)
        .build();
    return AgentHost.start(host, new SimulatedAgents(template));
  }

  /** Waits until {@code done}, failing with {@code what} after {@code within}. */
  static void await(Duration within, String what, BooleanSupplier done) {
    Await.atMost(within).pollEvery(Duration.ofMillis(50)).until(what, done::getAsBoolean);
  }

  static DemoRun.Config run(String pool, int tasks, int files, int nodes, long seed,
      boolean readCommitted) {
    return new DemoRun.Config(pool, nodes, 2, 1_000_000_000L,
        DemoWorkload.Spec.demo(tasks, files, seed), 400, 0.01, 50e6, 100e6, 400e6, readCommitted,
        Duration.ofSeconds(150));
  }

  static DemoRun.Result go(EmbeddedLocus locus, TaskEventTracker tracker, DemoRun.Config cfg)
      throws InterruptedException {
    DemoRun.Result r = DemoRun.run(locus, tracker, cfg, LOUD);
    LOUD.printf("%s: completed %d/%d, hit ratio %.3f, duplicates %d, refused %d, max on a node %d%n",
        cfg.pool(), r.stats().completed, r.tasks(), r.stats().hitRatio(),
        r.stats().duplicateCompletions, r.stats().refused, r.stats().maxConcurrentOnANode);
    return r;
  }
}
