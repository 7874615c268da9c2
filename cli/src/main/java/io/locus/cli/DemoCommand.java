package io.locus.cli;

import io.locus.connectors.DeliveryMode;
import io.locus.dashboard.Dashboard;
import io.locus.kafka.ClientConfigs;
import io.locus.core.split.SplitParams;
import io.locus.jobs.options.PolicyOptions;
import io.locus.cli.EmbeddedLocus;
import io.locus.cli.demo.DemoRun;
import io.locus.cli.demo.DemoWorkload;
import io.locus.cli.demo.SplitDemoRun;
import io.locus.cli.demo.SplitDemoWorkload;
import io.locus.cli.demo.TaskEventTracker;
import io.locus.operators.SchedulerConfig;
import io.locus.operators.SplitPoolParams;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code locus demo}: the whole system on one machine, with a generated workload. */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = {
        "Run Locus end to end on embedded defaults, with a generated workload.",
        "It runs a Kafka broker and the scheduler job on a Flink MiniCluster (RocksDB,"
            + " checkpoints) in this JVM, simulated node agents, and a generated workload. File policies run jobs that share input files; split policies"
            + " run event-range jobs (the CERN spec's jobs, event counts / 100) and check that"
            + " every event of every job was processed exactly once. Prints progress and a"
            + " summary per policy.",
        "Exit code 0 only if every task (file policies) or job (split policies) completed and,"
            + " for split policies, every event was processed exactly once."})
public final class DemoCommand implements Callable<Integer> {
  static final int FILE_NODES = 16;
  static final int SPLIT_NODES = 10;
  static final double FILE_RATE = 150;
  static final double SPLIT_RATE = 2;
  /** Options that only file policies use: rejected if given while every policy is a split one. */
  private static final List<String> FILE_ONLY = List.of("--tasks", "--files", "--slots",
      "--queue-depth",
      "--cache-gb", "--window", "--theta");

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Option(names = "--policy", split = ",", defaultValue = "FA,MCH", paramLabel = "POLICY[,POLICY...]",
      completionCandidates = io.locus.core.policy.PolicyRegistry.AllNames.class,
      description = "Policies to run, one pool each, one after the other, of ${COMPLETION-CANDIDATES}"
          + " (any case): file policies, then from FARM on split policies (event-range jobs). "
          + "Default: ${DEFAULT-VALUE}.")
  List<String> policies;

  @Option(names = "--tasks", defaultValue = "3000", description = "Tasks per file policy. Default: ${DEFAULT-VALUE}.")
  int tasks;

  @Option(names = "--files", defaultValue = "300", description = "Distinct input files (file policies). Default: ${DEFAULT-VALUE}.")
  int files;

  @Option(names = "--jobs", defaultValue = "40",
      description = "Event-range jobs per split policy (mean 400 events each). Default: ${DEFAULT-VALUE}.")
  int jobs;

  @Option(names = "--nodes",
      description = "Simulated agents per policy. Default: " + FILE_NODES + " (file policies), "
          + SPLIT_NODES + " (split policies).")
  Integer nodes;

  @Option(names = "--slots", defaultValue = "2",
      description = "Task slots per node (file policies; a split pool runs one subjob per node). Default: ${DEFAULT-VALUE}.")
  int slots;

  @Option(names = "--queue-depth",
      description = "Placements each agent holds beyond its slots and starts as slots free "
          + "(late binding: no scheduler round trip between a task and the next); 0 turns it "
          + "off. Default: the --slots value.")
  Integer queueDepth;

  @Option(names = "--seed", defaultValue = "42", description = "Workload seed. Default: ${DEFAULT-VALUE}.")
  long seed;

  @Option(names = "--rate",
      description = "Arrivals per second (real time). Default: 150 tasks/s, evenly spaced (file "
          + "policies); 2 jobs/s, Poisson (split policies).")
  Double rate;

  @Option(names = "--cache-gb", description = "Cache per node, GB (file policies; split policies: --split-param cacheEvents=N). Default: 2 (simulated), 0.02 (real agents).")
  Double cacheGb;

  @Option(names = "--real-agents",
      description = "Real agents (file policies only): stage real files (16 KB – 1 MB each) from a generated storage directory and from each other over HTTP, keep real cache directories, and run sha256sum over each task's inputs.")
  boolean realAgents;

  @Option(names = "--time-scale", defaultValue = "0.02",
      description = "Real seconds per modelled second of staging and compute (split policies: "
          + "also the pool's timeScale). Default: ${DEFAULT-VALUE}.")
  double timeScale;

  @Option(names = "--delivery", defaultValue = "at-least-once",
      description = "exactly-once or at-least-once. Default: ${DEFAULT-VALUE} (decisions reach the"
          + " agents at once rather than at each checkpoint; locus run's default is exactly-once).")
  String delivery;

  @Option(names = "--timeout", defaultValue = "PT3M", description = "Give up on a run after this long. Default: ${DEFAULT-VALUE}.")
  Duration timeout;

  @Option(names = "--metrics-port", paramLabel = "PORT|off",
      description = "Serve the scheduler's Flink metrics in Prometheus format on "
          + "http://localhost:PORT/metrics while the demo runs (the URL is printed); off: none. "
          + "Default: the first free port from 9249 to 9299 (locus run's default is 9249 alone;"
          + " a demo starts even where that port is taken).")
  String metricsPort;

  @Option(names = "--no-dashboard",
      description = "Do not serve the live dashboard. By default the demo serves it on a free port"
          + " of 127.0.0.1 while it runs and prints its URL (dashboard: http://...).")
  boolean noDashboard;

  @Mixin PolicyOptions policyOptions;

  @Override
  public Integer call() throws Exception {
    if (cacheGb == null) {
      cacheGb = realAgents ? 0.02 : 2.0;
    }
    Map<String, SchedulerConfig.PolicySpec> pools = validate();
    PrintStream out = spec.commandLine().getOut() == null ? System.out
        : new PrintStream(System.out, true);
    DeliveryMode mode = DeliveryMode.parse(delivery);
    SchedulerConfig.PolicySpec fallback = null;
    for (String p : policies) {
      if (!SplitPoolParams.isSplitPolicy(p)) {
        fallback = pools.get(poolOf(p));
        break;
      }
    }
    if (fallback == null) {
      fallback = policyOptions.spec("MCH"); // every pool here is named: only a default
    }
    SchedulerConfig cfg = new SchedulerConfig(fallback, pools,
        policyOptions.metricsIntervalMs, policyOptions.maxRetries)
        .withRetryBackoff(policyOptions.retryBackoff());
    cfg = policyOptions.queues.apply(cfg);
    out.printf(Locale.ROOT, "Starting Locus: embedded Kafka, Flink MiniCluster (RocksDB, %s delivery), %s agents...%n",
        mode.cliName(), realAgents ? "real" : "simulated");
    java.nio.file.Path storage = null;
    if (realAgents) {
      storage = java.nio.file.Files.createTempDirectory("locus-demo-").resolve("storage");
      DemoWorkload.writeStorage(storage, DemoWorkload.Spec.real(tasks, files, seed));
      out.println("Storage: " + files + " files written to " + storage);
    }
    List<DemoRun.Result> results = new ArrayList<>();
    List<SplitDemoRun.Result> splitResults = new ArrayList<>();
    Duration checkpoints = mode == DeliveryMode.EXACTLY_ONCE ? Duration.ofMillis(500)
        : Duration.ofSeconds(5);
    int port = metricsPort();
    Dashboard dashboard = null;
    try (EmbeddedLocus locus = EmbeddedLocus.start(cfg, mode, checkpoints, "rocksdb", 1, 4, port);
        TaskEventTracker tracker = new TaskEventTracker(locus.bootstrapServers())) {
      out.println("Kafka at " + locus.bootstrapServers() + "; scheduler job running.");
      if (locus.metricsUrl() != null) {
        out.println("metrics: " + locus.metricsUrl());
      }
      dashboard = startDashboard(locus, out);
      for (String p : policies) {
        if (SplitPoolParams.isSplitPolicy(p)) {
          splitResults.add(runSplit(locus, tracker, p, pools.get(poolOf(p)), out));
          continue;
        }
        int n = nodes == null ? FILE_NODES : nodes;
        out.printf(Locale.ROOT, "%n== %s: %d tasks over %d files, %d nodes x %d slots, %.2f GB cache each ==%n",
            p.toUpperCase(Locale.ROOT), tasks, files, n, slots, cacheGb);
        DemoRun.Config rc = new DemoRun.Config(poolOf(p), n, slots, (long) (cacheGb * 1e9),
            realAgents ? DemoWorkload.Spec.real(tasks, files, seed)
                : DemoWorkload.Spec.demo(tasks, files, seed),
            rate == null ? FILE_RATE : rate, timeScale, 50e6, 100e6, 400e6, true, timeout,
            storage, queueDepth == null ? slots : queueDepth);
        results.add(DemoRun.run(locus, tracker, rc, out));
      }
      if (dashboard != null) {
        dashboard.close(); // here, while the broker it reads from is still up
      }
    } finally {
      if (dashboard != null) {
        dashboard.close(); // after a failure (a no-op when closed above)
      }
    }
    if (!results.isEmpty()) {
      printSummary(out, results);
    }
    if (!splitResults.isEmpty()) {
      printSplitSummary(out, splitResults);
    }
    boolean ok = results.stream().allMatch(DemoRun.Result::allCompleted)
        && splitResults.stream().allMatch(SplitDemoRun.Result::ok);
    out.println(ok ? (splitResults.isEmpty() ? "All tasks completed."
        : "All tasks and jobs completed; every event of every job processed exactly once.")
        : "NOT every task or job completed exactly once: exit code 1.");
    if (storage != null) {
      deleteTree(storage.getParent());
    }
    return ok ? 0 : 1;
  }

  /**
   * The live dashboard on a free port of loopback, reading the embedded broker; null with
   * --no-dashboard. A dashboard that cannot start is reported and the demo goes on without it.
   */
  private Dashboard startDashboard(EmbeddedLocus locus, PrintStream out) {
    if (noDashboard) {
      return null;
    }
    try {
      Dashboard d = Dashboard.start(ClientConfigs.base(locus.bootstrapServers()),
          Dashboard.Options.defaults());
      out.println("dashboard: " + d.url());
      return d;
    } catch (RuntimeException e) {
      out.println("dashboard: not started (" + e.getMessage() + "); the demo runs without it");
      return null;
    }
  }

  /** --metrics-port as a port, -1 for off; unset: the first free port from 9249 to 9299. */
  private int metricsPort() {
    if (metricsPort == null) {
      return EmbeddedLocus.freePort(9249, 9299);
    }
    if (metricsPort.trim().equalsIgnoreCase("off")) {
      return -1;
    }
    try {
      int p = Integer.parseInt(metricsPort.trim());
      if (p >= 1 && p <= 65535) {
        return p;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new picocli.CommandLine.ParameterException(spec.commandLine(),
        "--metrics-port must be a port (1-65535) or off, got '" + metricsPort + "'");
  }

  private SplitDemoRun.Result runSplit(EmbeddedLocus locus, TaskEventTracker tracker, String p,
      SchedulerConfig.PolicySpec ps, PrintStream out) throws InterruptedException {
    int n = nodes == null ? SPLIT_NODES : nodes;
    double r = rate == null ? SPLIT_RATE : rate;
    SplitDemoWorkload.Spec w = new SplitDemoWorkload.Spec(jobs, seed, SplitDemoRun.SCALE, r,
        ps.params().get("dataset"));
    long events = SplitDemoWorkload.events(SplitDemoWorkload.generate(poolOf(p), w));
    out.printf(Locale.ROOT, "%n== %s: %d event-range jobs, %d events (CernEventJobs, event counts "
            + "/ %d), %d nodes x 1 subjob, %s, %.2g jobs/s ==%n",
        ps.name(), jobs, events, SplitDemoRun.SCALE, n, cache(ps), r);
    out.println("   split parameters: " + new java.util.TreeMap<>(ps.params()));
    SplitDemoRun.Config rc = new SplitDemoRun.Config(poolOf(p), n, w, timeScale, true, timeout);
    return SplitDemoRun.run(locus, tracker, rc, out);
  }

  private static String cache(SchedulerConfig.PolicySpec ps) {
    Map<String, String> core = new LinkedHashMap<>(ps.params());
    SplitPoolParams.DRIVER_DOC.keySet().forEach(core::remove);
    SplitParams sp = SplitParams.parse(ps.name(), core);
    return sp.caching() ? "cache " + sp.cacheEvents() + " events each" : "no cache (" + ps.name()
        + " reads every event from tape)";
  }

  /**
   * The demo's split policy spec: {@link SplitDemoRun#defaultParams} under the user's {@code
   * --split-param}s (global, then {@code demo-<policy>:KEY=VALUE}). The pool's timeScale is
   * --time-scale, the agents' own: a different {@code timeScale} split parameter is an error.
   */
  static SchedulerConfig.PolicySpec splitSpec(PolicyOptions options, String policy,
      double timeScale) {
    String name = SplitPoolParams.canonical(policy);
    Map<String, String> user = options.splitParams(poolOf(policy));
    Map<String, String> merged = SplitDemoRun.defaultParams(name, timeScale);
    Map<String, String> defaults = new java.util.TreeMap<>(merged);
    String ts = user.get("timeScale");
    if (ts != null) {
      double v;
      try {
        v = Double.parseDouble(ts.trim());
      } catch (NumberFormatException e) {
        v = Double.NaN;
      }
      if (v != timeScale) {
        throw new IllegalArgumentException("--split-param timeScale=" + ts + ": the demo sets "
            + "the pool's timeScale from --time-scale (" + timeScale + "), the simulated "
            + "agents' time scale, so that the scheduler's progress model matches them; use "
            + "--time-scale " + ts + " instead");
      }
    }
    if (user.containsKey("cacheGb")) {
      merged.remove("cacheEvents"); // the user's cacheGb, not the demo's cacheEvents, sizes it
    }
    merged.putAll(user);
    try {
      return new SchedulerConfig.PolicySpec(name, merged);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--split-param (" + name + "): " + e.getMessage()
          + " (the demo's defaults for " + name + ": " + defaults + ")", e);
    }
  }

  /** Checks every argument; returns the pools (name → policy) the demo will run. */
  private Map<String, SchedulerConfig.PolicySpec> validate() {
    List<String> problems = new ArrayList<>();
    if (tasks < 1) {
      problems.add("--tasks must be ≥ 1");
    }
    if (files < 1) {
      problems.add("--files must be ≥ 1");
    }
    if (jobs < 1 || jobs > 10_000) {
      problems.add("--jobs must be between 1 and 10000");
    }
    if (nodes != null && (nodes < 1 || nodes > 1000)) {
      problems.add("--nodes must be between 1 and 1000");
    }
    if (slots < 1) {
      problems.add("--slots must be ≥ 1");
    }
    if (queueDepth != null && (queueDepth < 0 || queueDepth > 1024)) {
      problems.add("--queue-depth must be between 0 and 1024");
    }
    if (rate != null && !(rate > 0 && Double.isFinite(rate))) {
      problems.add("--rate must be > 0");
    }
    if (!(cacheGb >= 0)) {
      problems.add("--cache-gb must be ≥ 0");
    }
    if (!(timeScale > 0)) {
      problems.add("--time-scale must be > 0");
    }
    if (policies.stream().map(p -> p.toUpperCase(Locale.ROOT).replace('-', '_')).distinct()
        .count() != policies.size()) {
      problems.add("--policy lists a policy twice");
    }
    List<String> split = policies.stream().filter(SplitPoolParams::isSplitPolicy).toList();
    boolean anyFile = split.size() < policies.size();
    var parsed = spec.commandLine().getParseResult();
    if (!split.isEmpty() && realAgents) {
      problems.add("--real-agents runs file policies only, and --policy has split policies ("
          + String.join(", ", split) + "): drop --real-agents to run them on simulated agents; "
          + "for event-range jobs on real agents, run 'locus run --pool-policy POOL="
          + split.get(0).toUpperCase(Locale.ROOT) + "' with node agents whose templates "
          + "process event batches (tasks.event-batch, node-agent/README.md)");
    }
    if (!anyFile) {
      for (String o : FILE_ONLY) {
        if (parsed != null && parsed.hasMatchedOption(o)) {
          problems.add(o + " applies to file policies only, and every --policy here is a split "
              + "policy: drop it (split pools take --jobs, --nodes, --rate and --split-param, "
              + "e.g. --split-param cacheEvents=2000)");
        }
      }
    }
    if (split.isEmpty() && parsed != null && parsed.hasMatchedOption("--jobs")) {
      problems.add("--jobs applies to split policies only (FARM, JOB_SPLITTING, "
          + "CACHE_JOB_SPLITTING, OUT_OF_ORDER, DELAYED, ADAPTIVE_DELAY); file policies take "
          + "--tasks");
    }
    Map<String, SchedulerConfig.PolicySpec> pools = new LinkedHashMap<>();
    for (String p : policies) {
      try {
        pools.put(poolOf(p), SplitPoolParams.isSplitPolicy(p) ? splitSpec(policyOptions, p,
            timeScale) : policyOptions.spec(p));
      } catch (IllegalArgumentException e) {
        String m = e.getMessage();
        problems.add((m.startsWith("--") ? "" : "--policy: ") + m);
      }
    }
    // A POOL: prefix naming no split pool of this run would be ignored silently: refuse it.
    for (String k : policyOptions.splitParams.keySet()) {
      int colon = k.indexOf(':');
      if (colon < 0) {
        continue;
      }
      String prefix = k.substring(0, colon);
      boolean known = policies.stream().anyMatch(
          p -> SplitPoolParams.isSplitPolicy(p) && poolOf(p).equals(prefix));
      if (!known) {
        problems.add("--split-param " + k + ": no split pool named '" + prefix + "' in this demo; "
            + "its split pools are " + policies.stream().filter(SplitPoolParams::isSplitPolicy)
                .map(DemoCommand::poolOf).toList()
            + " (or drop the prefix to set it for every split pool)");
      }
    }
    try {
      DeliveryMode.parse(delivery);
    } catch (IllegalArgumentException e) {
      problems.add("--delivery: " + e.getMessage());
    }
    if (metricsPort != null) {
      try {
        metricsPort();
      } catch (picocli.CommandLine.ParameterException e) {
        problems.add(e.getMessage());
      }
    }
    if (!problems.isEmpty()) {
      throw new picocli.CommandLine.ParameterException(spec.commandLine(),
          String.join("; ", problems));
    }
    return pools;
  }

  private static void deleteTree(java.nio.file.Path dir) {
    try (var s = java.nio.file.Files.walk(dir)) {
      s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (java.io.IOException e) {
      // a temporary directory: best effort
    }
  }

  static String poolOf(String policy) {
    return "demo-" + policy.toLowerCase(Locale.ROOT).replace('-', '_');
  }

  static void printSummary(PrintStream out, List<DemoRun.Result> results) {
    long most = results.stream().mapToLong(r -> r.stats().bytesLocal + r.stats().bytesPeer
        + r.stats().bytesStorage).max().orElse(0);
    boolean gb = most >= 10e9; // small real-agent files read better in MB
    String unit = gb ? "GB" : "MB";
    double div = gb ? 1e9 : 1e6;
    out.println();
    out.println("== Summary ==");
    out.printf(Locale.ROOT, "%-10s %11s %9s %10s %10s %10s %10s %9s %13s%n", "policy", "completed",
        "mean resp", "local " + unit, "peer " + unit, "storage " + unit, "hit ratio", "wall s",
        "placements/s");
    for (DemoRun.Result r : results) {
      TaskEventTracker.Stats s = r.stats();
      out.printf(Locale.ROOT, "%-10s %5d/%-5d %8.2fs %10.1f %10.1f %10.1f %9.1f%% %9.1f %13.1f%n",
          r.policy(), s.completed, r.tasks(), s.meanResponseSeconds(), s.bytesLocal / div,
          s.bytesPeer / div, s.bytesStorage / div, 100 * s.hitRatio(), r.wallSeconds(),
          r.placementsPerSecond());
      if (s.duplicateCompletions > 0 || s.refused > 0 || s.failed > 0) {
        out.printf(Locale.ROOT, "           duplicates %d, refused %d, failed %d%n",
            s.duplicateCompletions, s.refused, s.failed);
      }
      if (s.withdrawn > 0 || s.withdrawsRefused > 0) {
        out.printf(Locale.ROOT, "           late binding: %d withdrawn from a local queue for a "
            + "free slot, %d withdraws came too late (already started)%n", s.withdrawn,
            s.withdrawsRefused);
      }
    }
  }

  static void printSplitSummary(PrintStream out, List<SplitDemoRun.Result> results) {
    out.println();
    out.println("== Summary: split policies (event-range jobs) ==");
    out.printf(Locale.ROOT, "%-20s %9s %15s %12s %8s %8s %8s %10s %9s %7s%n", "policy", "jobs",
        "events", "exactly once", "subjobs", "shrinks", "suspends", "hit ratio", "mean resp",
        "wall s");
    for (SplitDemoRun.Result r : results) {
      var c = r.check();
      var n = r.counts();
      out.printf(Locale.ROOT, "%-20s %4d/%-4d %7d/%-7d %12s %8d %8d %8d %9.1f%% %8.2fs %7.1f%n",
          r.policy(), c.completedJobs(), c.jobs(), c.processedEvents(), c.expectedEvents(),
          c.exactlyOnce() ? "yes" : "NO", n.placements(), n.shrinks(), n.suspends(),
          100 * n.hitRatio(), c.meanResponseSeconds(), r.wallSeconds());
      for (String p : c.problems()) {
        out.println("    " + p);
      }
      if (c.problemCount() > c.problems().size()) {
        out.printf(Locale.ROOT, "    ... %d problems in all%n", c.problemCount());
      }
      if (r.failed() > 0 || r.refused() > 0) {
        out.printf(Locale.ROOT, "    failed attempts %d, refused placements %d%n", r.failed(),
            r.refused());
      }
      if (!r.settled()) {
        out.println("    the scheduler did not report the pool idle within 20 s of the last "
            + "event");
      }
    }
    out.println("(events: processed/expected, from the ranges the agents reported; hit ratio: "
        + "processed events read from the node's own cache, as placed)");
  }
}
