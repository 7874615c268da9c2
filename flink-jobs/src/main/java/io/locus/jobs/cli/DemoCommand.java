package io.locus.jobs.cli;

import io.locus.connectors.DeliveryMode;
import io.locus.jobs.EmbeddedLocus;
import io.locus.jobs.demo.DemoRun;
import io.locus.jobs.demo.DemoWorkload;
import io.locus.jobs.demo.TaskEventTracker;
import io.locus.operators.SchedulerConfig;
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
        "Run Locus end to end on embedded defaults: a Kafka broker and the scheduler job on a",
        "Flink MiniCluster (RocksDB, checkpoints) in this JVM, simulated node agents, and a",
        "generated workload with file sharing. Prints progress and a summary per policy.",
        "Exit code 0 only if every task completed."})
public final class DemoCommand implements Callable<Integer> {
  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Option(names = "--policy", split = ",", defaultValue = "FA,MCH", paramLabel = "POLICY[,POLICY...]",
      description = "Policies to run, one pool each, one after the other (FA, FCA, MCU, MCH, GCC). Default: ${DEFAULT-VALUE}.")
  List<String> policies;

  @Option(names = "--tasks", defaultValue = "3000", description = "Tasks per policy. Default: ${DEFAULT-VALUE}.")
  int tasks;

  @Option(names = "--files", defaultValue = "300", description = "Distinct input files. Default: ${DEFAULT-VALUE}.")
  int files;

  @Option(names = "--nodes", defaultValue = "16", description = "Simulated agents per policy. Default: ${DEFAULT-VALUE}.")
  int nodes;

  @Option(names = "--slots", defaultValue = "2", description = "Task slots per node. Default: ${DEFAULT-VALUE}.")
  int slots;

  @Option(names = "--seed", defaultValue = "42", description = "Workload seed. Default: ${DEFAULT-VALUE}.")
  long seed;

  @Option(names = "--rate", defaultValue = "150", description = "Arrivals per second (real time). Default: ${DEFAULT-VALUE}.")
  double rate;

  @Option(names = "--cache-gb", description = "Cache per node, GB. Default: 2 (simulated), 0.02 (real agents).")
  Double cacheGb;

  @Option(names = "--real-agents",
      description = "Real agents: stage real files (16 KB – 1 MB each) from a generated storage directory and from each other over HTTP, keep real cache directories, and run sha256sum over each task's inputs.")
  boolean realAgents;

  @Option(names = "--time-scale", defaultValue = "0.02",
      description = "Real seconds per modelled second of staging and compute. Default: ${DEFAULT-VALUE}.")
  double timeScale;

  @Option(names = "--delivery", defaultValue = "at-least-once",
      description = "exactly-once or at-least-once. Default: ${DEFAULT-VALUE}.")
  String delivery;

  @Option(names = "--timeout", defaultValue = "PT3M", description = "Give up on a run after this long. Default: ${DEFAULT-VALUE}.")
  Duration timeout;

  @Mixin PolicyOptions policyOptions;

  @Override
  public Integer call() throws Exception {
    if (cacheGb == null) {
      cacheGb = realAgents ? 0.02 : 2.0;
    }
    validate();
    PrintStream out = spec.commandLine().getOut() == null ? System.out
        : new PrintStream(System.out, true);
    DeliveryMode mode = DeliveryMode.parse(delivery);
    Map<String, SchedulerConfig.PolicySpec> pools = new LinkedHashMap<>();
    for (String p : policies) {
      pools.put(poolOf(p), policyOptions.spec(p));
    }
    SchedulerConfig cfg = new SchedulerConfig(policyOptions.spec(policies.get(0)), pools,
        policyOptions.metricsIntervalMs, policyOptions.maxRetries);
    out.printf(Locale.ROOT, "Starting Locus: embedded Kafka, Flink MiniCluster (RocksDB, %s delivery), %s agents...%n",
        mode.cliName(), realAgents ? "real" : "simulated");
    java.nio.file.Path storage = null;
    if (realAgents) {
      storage = java.nio.file.Files.createTempDirectory("locus-demo-").resolve("storage");
      DemoWorkload.writeStorage(storage, DemoWorkload.Spec.real(tasks, files, seed));
      out.println("Storage: " + files + " files written to " + storage);
    }
    List<DemoRun.Result> results = new ArrayList<>();
    Duration checkpoints = mode == DeliveryMode.EXACTLY_ONCE ? Duration.ofMillis(500)
        : Duration.ofSeconds(5);
    try (EmbeddedLocus locus = EmbeddedLocus.start(cfg, mode, checkpoints);
        TaskEventTracker tracker = new TaskEventTracker(locus.bootstrapServers())) {
      out.println("Kafka at " + locus.bootstrapServers() + "; scheduler job running.");
      for (String p : policies) {
        out.printf(Locale.ROOT, "%n== %s: %d tasks over %d files, %d nodes x %d slots, %.2f GB cache each ==%n",
            p.toUpperCase(Locale.ROOT), tasks, files, nodes, slots, cacheGb);
        DemoRun.Config rc = new DemoRun.Config(poolOf(p), nodes, slots, (long) (cacheGb * 1e9),
            realAgents ? DemoWorkload.Spec.real(tasks, files, seed)
                : DemoWorkload.Spec.demo(tasks, files, seed),
            rate, timeScale, 50e6, 100e6, 400e6, true, timeout, storage);
        results.add(DemoRun.run(locus, tracker, rc, out));
      }
    }
    printSummary(out, results);
    boolean ok = results.stream().allMatch(DemoRun.Result::allCompleted);
    out.println(ok ? "All tasks completed." : "NOT every task completed: exit code 1.");
    if (storage != null) {
      deleteTree(storage.getParent());
    }
    return ok ? 0 : 1;
  }

  private void validate() {
    List<String> problems = new ArrayList<>();
    if (tasks < 1) {
      problems.add("--tasks must be ≥ 1");
    }
    if (files < 1) {
      problems.add("--files must be ≥ 1");
    }
    if (nodes < 1 || nodes > 1000) {
      problems.add("--nodes must be between 1 and 1000");
    }
    if (slots < 1) {
      problems.add("--slots must be ≥ 1");
    }
    if (!(rate > 0)) {
      problems.add("--rate must be > 0");
    }
    if (!(cacheGb >= 0)) {
      problems.add("--cache-gb must be ≥ 0");
    }
    if (!(timeScale > 0)) {
      problems.add("--time-scale must be > 0");
    }
    if (policies.stream().map(p -> p.toUpperCase(Locale.ROOT)).distinct().count() != policies.size()) {
      problems.add("--policy lists a policy twice");
    }
    for (String p : policies) {
      if (io.locus.operators.SplitPoolDriver.isSplitPolicy(p)) {
        problems.add("--policy " + p + ": the demo's workload is file jobs; split policies run "
            + "event-range jobs (locus run --pool-policy POOL=" + p.toUpperCase(Locale.ROOT)
            + ", docs/operations.md)");
        continue;
      }
      try {
        policyOptions.spec(p);
      } catch (IllegalArgumentException e) {
        problems.add("--policy: " + e.getMessage());
      }
    }
    try {
      DeliveryMode.parse(delivery);
    } catch (IllegalArgumentException e) {
      problems.add("--delivery: " + e.getMessage());
    }
    if (!problems.isEmpty()) {
      throw new picocli.CommandLine.ParameterException(spec.commandLine(),
          String.join("; ", problems));
    }
  }

  private static void deleteTree(java.nio.file.Path dir) {
    try (var s = java.nio.file.Files.walk(dir)) {
      s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (java.io.IOException e) {
      // a temporary directory: best effort
    }
  }

  static String poolOf(String policy) {
    return "demo-" + policy.toLowerCase(Locale.ROOT);
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
    }
  }

}
