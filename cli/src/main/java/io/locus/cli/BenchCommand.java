package io.locus.cli;

import io.locus.kafka.cli.EntryPoints;
import io.locus.jobs.options.PolicyParameters;
import io.locus.connectors.DeliveryMode;
import io.locus.core.policy.Policies;
import io.locus.core.policy.PolicyRegistry;
import io.locus.cli.bench.BenchConfig;
import io.locus.cli.bench.BenchReport;
import io.locus.cli.bench.BenchRun;
import io.locus.cli.bench.RealAgentsBench;
import io.locus.operators.SchedulerConfig;
import io.locus.operators.SplitPoolParams;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code locus bench}: end-to-end throughput and latency on this machine. */
@Command(name = "bench", mixinStandardHelpOptions = true,
    // One string per paragraph: picocli wraps them; a list element is a hard line break.
    description = {
        "Measure Locus's throughput and latency end to end on this machine.",
        "It runs the embedded Kafka broker and the scheduler job in this JVM, simulated agents"
            + " in a separate process per pool, and a rising arrival rate in steps; per step: placements/s, completions/s and the arrival →"
            + " decision-visible latency (p50/p99/max) read by the bench's own consumer; rates are"
            + " measured over the last 4/5 of each step. A step is kept up when placements/s ≥ 95"
            + " %% of the offered rate and the backlog (published − placed) stays under"
            + " --backlog-cap. One run per combination of --policy, --delivery, --state-backend,"
            + " --workload and --pool-count. Writes a table, DIR/bench.csv and DIR/bench.png. With"
            + " --real-agents: 4 real agent processes x 4 slots run --tasks tasks of a /bin/true"
            + " (or sha256sum) template; reports tasks/s end to end. With --overload: steps at"
            + " multiples of the sustained rate, to see whether a scheduler offered more than it"
            + " can place keeps placing at its capacity.",
        "Exit code 0 if every configuration ran."})
public final class BenchCommand implements Callable<Integer> {
  static final List<Double> RATES = List.of(1000.0, 2000.0, 5000.0, 10000.0, 20000.0, 40000.0);
  static final List<Double> QUICK_RATES = List.of(500.0, 1000.0, 2000.0);
  static final int REAL_AGENTS = 4;
  static final int REAL_SLOTS = 4;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Option(names = "--policy", split = ",", defaultValue = "FA,MCH,GCC",
      paramLabel = "POLICY[,POLICY...]",
      completionCandidates = PolicyRegistry.FileNames.class,
      description = "File policies to measure, of ${COMPLETION-CANDIDATES} (any case), or all"
          + " for every one of them (split policies are refused: the bench measures file pools)."
          + " Default: ${DEFAULT-VALUE} (--real-agents: FA).")
  List<String> policies;

  @Option(names = "--delivery", split = ",", defaultValue = "at-least-once",
      paramLabel = "MODE[,MODE...]",
      description = "at-least-once and/or exactly-once. Default: ${DEFAULT-VALUE} (locus run's"
          + " default is exactly-once, whose decisions wait for a checkpoint).")
  List<String> deliveries;

  @Option(names = "--state-backend", split = ",", defaultValue = "rocksdb",
      paramLabel = "BACKEND[,BACKEND...]",
      description = "rocksdb and/or hashmap. Default: ${DEFAULT-VALUE}.")
  List<String> backends;

  @Option(names = "--workload", split = ",", defaultValue = "zipf", paramLabel = "W[,W...]",
      description = "zipf (the demo's: 1–3 inputs of Zipf popularity over --files files) and/or "
          + "no-idle (one input out of --files files that every node preloads). "
          + "Default: ${DEFAULT-VALUE}.")
  List<String> workloads;

  // Not --pools: locus run and replay name pools with it; here it is how many.
  @Option(names = "--pool-count", split = ",", defaultValue = "1", paramLabel = "K[,K...]",
      description = "Pools (each with its own agents process, --nodes split over them); the job "
          + "runs at parallelism K on K task slots. Default: ${DEFAULT-VALUE}.")
  List<Integer> poolCounts;

  @Option(names = "--parallelism", paramLabel = "P",
      description = "The job's parallelism and task slots. Default: the --pool-count value.")
  Integer parallelism;

  @Option(names = "--nodes", defaultValue = "1000",
      description = "Simulated nodes in all. Default: ${DEFAULT-VALUE} (100 with --quick).")
  int nodes;

  @Option(names = "--slots", defaultValue = "4", description = "Slots per node. Default: ${DEFAULT-VALUE}"
      + " (the setup docs/performance.md measures; the other commands' nodes have 2).")
  int slots;

  @Option(names = "--queue-depth", defaultValue = "0",
      description = "Local queue positions per agent beyond its slots (passed as --queue-depth "
          + "when > 0; --real-agents: tasks.queue-depth). Default: ${DEFAULT-VALUE}; with "
          + "--real-agents: " + REAL_SLOTS + ", the slots per agent.")
  int queueDepth;

  @Option(names = "--time-scale", defaultValue = "0.001",
      description = "Real seconds per modelled second of the agents' staging and compute. "
          + "Default: ${DEFAULT-VALUE}.")
  double timeScale;

  @Option(names = "--checkpoint-interval", paramLabel = "DURATION",
      description = "Flink checkpoint interval (ISO-8601). Default: PT0.5S exactly-once, PT5S "
          + "at-least-once.")
  Duration checkpointInterval;

  @Option(names = "--rates", split = ",", paramLabel = "R[,R...]",
      description = "Offered tasks/s, one step each, rising. Default: 1000,2000,5000,10000,20000,"
          + "40000 (500,1000,2000 with --quick).")
  List<Double> rates;

  @Option(names = "--warmup", paramLabel = "DURATION",
      description = "Offer the first rate this long before the first measured step, unreported: "
          + "the JIT, RocksDB and Kafka warm up (a fresh JVM spends a third of its CPU compiling "
          + "in its first half minute). Default: PT30S (PT5S with --quick); PT0S for none.")
  Duration warmup;

  @Option(names = "--step", paramLabel = "DURATION",
      description = "Length of each step (ISO-8601). Default: PT10S (PT3S with --quick).")
  Duration step;

  @Option(names = "--overload", split = ",", paramLabel = "F[,F...]",
      description = "After the rising steps, one step at each F × the sustained rate (the highest"
          + " kept-up step of --rates), from a drained pool and with no backlog cap, e.g. 2,4;"
          + " reported as placed/s, %% of the sustained rate and whether placed/s ≥ 90 %% of"
          + " it (issue 25's target: no congestion collapse). Default: none.")
  List<Double> overload;

  @Option(names = "--backlog-cap", defaultValue = "50000",
      description = "Stop raising the rate once published − placed exceeds this at a step's end. "
          + "Default: ${DEFAULT-VALUE}.")
  long backlogCap;

  @Option(names = "--drain", defaultValue = "PT15S",
      description = "After the last step, wait this long at most for the decisions of the jobs "
          + "still unplaced. Default: ${DEFAULT-VALUE}.")
  Duration drain;

  @Option(names = "--files", defaultValue = "300",
      description = "zipf: distinct input files; no-idle: files preloaded on every node. "
          + "Default: ${DEFAULT-VALUE}.")
  int files;

  @Option(names = "--file-bytes", defaultValue = "5000000", paramLabel = "SIZE",
      converter = EntryPoints.Bytes.class,
      description = "no-idle: size of each preloaded file, bytes or with a unit (5MB; files ×"
          + " size must fit the agents' 2 GB cache). Default: ${DEFAULT-VALUE}.")
  long fileBytes;

  @Mixin PolicyParameters parameters;

  @Option(names = "--seed", defaultValue = "42", description = "Workload seed. Default: ${DEFAULT-VALUE}.")
  long seed;

  @Option(names = "--out", defaultValue = "bench-out", paramLabel = "DIR",
      description = "Where bench.csv, bench.png and the agents' logs go. Default: ${DEFAULT-VALUE}.")
  Path out;

  @Option(names = "--quick", description = "A short run: 100 nodes (unless --nodes), rates "
      + "500,1000,2000, steps of 3 s (unless given).")
  boolean quick;

  @Option(names = "--real-agents",
      description = "Instead: 4 real agent processes x 4 slots, --tasks tasks each run.")
  boolean realAgents;

  @Option(names = "--tasks", split = ",", defaultValue = "1000,10000", paramLabel = "N[,N...]",
      description = "--real-agents: tasks per run. Default: ${DEFAULT-VALUE}.")
  List<Integer> tasks;

  @Option(names = "--template", defaultValue = "true",
      description = "--real-agents: true (/bin/true, inputs cached on every node), sha256 "
          + "(sha256sum over inputs staged from a generated storage) or sleep (sleep "
          + "--task-seconds; the table then shows the slots' busy share). Default: "
          + "${DEFAULT-VALUE}.")
  String template;

  @Option(names = "--task-seconds", defaultValue = "1", paramLabel = "S",
      description = "--real-agents --template sleep: how long each task sleeps. Default: "
          + "${DEFAULT-VALUE}.")
  double taskSeconds;

  @Option(names = "--product-defaults",
      description = "--real-agents: the agents' queue depth and the scheduler's checkpoint "
          + "interval are those of locus agent real and locus run with no flags (instead of "
          + "the bench's: queue depth 4, checkpoints every 0.5 s exactly-once, 5 s "
          + "at-least-once); --queue-depth still overrides the depth.")
  boolean productDefaults;

  @Option(names = "--timeout", defaultValue = "PT5M",
      description = "--real-agents: give up on a run after this long. Default: ${DEFAULT-VALUE}.")
  Duration timeout;

  /** Draws bench.png; a test stands in for a host that cannot draw. */
  BenchReport.Plotter plotter = BenchReport::plot;

  @Override
  public Integer call() throws Exception {
    List<BenchConfig> configs = validate();
    PrintStream o = System.out;
    Files.createDirectories(out);
    if (realAgents) {
      return RealAgentsBench.run(realConfig(), out, o) ? 0 : 1;
    }
    List<BenchRun.Result> results = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    for (BenchConfig c : configs) {
      try {
        results.add(BenchRun.run(c, out.resolve("logs"), o));
      } catch (RuntimeException e) {
        String m = String.valueOf(e.getMessage());
        failures.add(c.label() + ": " + m.lines().findFirst().orElse(m) + " (details above)");
        o.println("   FAILED: " + e.getMessage());
      }
    }
    return report(results, failures, o, System.err);
  }

  /**
   * The table, bench.csv and bench.png where it can be drawn (a warning on {@code warn} where it
   * cannot: the exit code does not depend on it); the exit code.
   */
  int report(List<BenchRun.Result> results, List<String> failures, PrintStream o,
      PrintStream warn) throws java.io.IOException {
    BenchReport.table(o, results);
    Path csv = BenchReport.csv(out.resolve("bench.csv"), results);
    Path png = BenchReport.plotOrWarn(plotter, out.resolve("bench.png"), results, warn);
    o.println("Wrote " + csv + (png == null ? "" : " and " + png));
    for (String f : failures) {
      o.println("FAILED " + f);
    }
    return failures.isEmpty() ? 0 : 1;
  }

  RealAgentsBench.Config realConfig() {
    var parsed = spec.commandLine().getParseResult();
    boolean depthGiven = parsed != null && parsed.hasMatchedOption("--queue-depth");
    DeliveryMode mode = DeliveryMode.parse(deliveries.get(0));
    // Without a local queue every slot waits a scheduler round trip for its next task.
    Integer depth = depthGiven ? Integer.valueOf(queueDepth)
        : productDefaults ? null : Integer.valueOf(REAL_SLOTS);
    return new RealAgentsBench.Config(policies.get(0).toUpperCase(Locale.ROOT), mode, tasks,
        template, REAL_AGENTS, REAL_SLOTS, depth, seed, timeout,
        productDefaults ? io.locus.jobs.run.RunCommand.defaultCheckpointInterval(mode) : null,
        taskSeconds);
  }

  /** Every argument checked at once; the configurations to run, in order. */
  List<BenchConfig> validate() {
    List<String> problems = new ArrayList<>();
    var parsed = spec.commandLine().getParseResult();
    if (realAgents && (parsed == null || !parsed.hasMatchedOption("--policy"))) {
      // A real-agents run measures one policy: without this default the bare command is refused.
      policies = List.of("FA");
    }
    boolean nodesGiven = parsed != null && parsed.hasMatchedOption("--nodes");
    int n = quick && !nodesGiven ? 100 : nodes;
    List<Double> r = rates != null ? rates : quick ? QUICK_RATES : RATES;
    Duration st = step != null ? step : quick ? Duration.ofSeconds(3) : Duration.ofSeconds(10);
    Duration wu = warmup != null ? warmup : quick ? Duration.ofSeconds(5) : Duration.ofSeconds(30);
    if (n < 1 || n > 100_000) {
      problems.add("--nodes must be between 1 and 100000");
    }
    if (slots < 1 || slots > 1024) {
      problems.add("--slots must be between 1 and 1024");
    }
    if (queueDepth < 0) {
      problems.add("--queue-depth must be ≥ 0");
    }
    if (!(timeScale > 0) || !Double.isFinite(timeScale)) {
      problems.add("--time-scale must be > 0");
    }
    if (checkpointInterval != null && (checkpointInterval.toMillis() < 10)) {
      problems.add("--checkpoint-interval must be ≥ 10 ms");
    }
    for (int i = 0; i < r.size(); i++) {
      double v = r.get(i);
      if (!(v > 0) || !Double.isFinite(v) || v > 10_000_000) {
        problems.add("--rates: " + v + " is not a rate in (0, 10000000] tasks/s");
      } else if (i > 0 && v <= r.get(i - 1)) {
        problems.add("--rates must rise: " + v + " after " + r.get(i - 1));
      }
    }
    if (st.isNegative() || st.toMillis() < 500) {
      problems.add("--step must be ≥ 0.5 s (PT0.5S)");
    }
    if (drain.isNegative()) {
      problems.add("--drain must be ≥ 0");
    }
    if (wu.isNegative()) {
      problems.add("--warmup must be ≥ 0");
    }
    for (double f : overload == null ? List.<Double>of() : overload) {
      if (!(f >= 1) || !Double.isFinite(f) || f > 100) {
        problems.add("--overload: " + f + " is not a factor in [1, 100] of the sustained rate");
      }
    }
    if (realAgents && overload != null) {
      problems.add("--overload applies to the simulated agents' rising steps, not --real-agents");
    }
        if (backlogCap < 1) {
      problems.add("--backlog-cap must be ≥ 1");
    }
    if (files < 1) {
      problems.add("--files must be ≥ 1");
    }
    if (fileBytes < 1) {
      problems.add("--file-bytes must be ≥ 1");
    }
    if (workloads.stream().anyMatch(w -> w.trim().equalsIgnoreCase("no-idle"))
        && (double) files * fileBytes > 2e9) {
      problems.add("--files × --file-bytes (" + (long) ((double) files * fileBytes) + " bytes) "
          + "must fit the agents' 2 GB cache for the no-idle workload, which preloads every file "
          + "on every node");
    }
    for (int k : poolCounts) {
      if (k < 1 || k > 64) {
        problems.add("--pool-count: " + k + " is not between 1 and 64");
      } else if (k > n) {
        problems.add("--pool-count " + k + " is more than --nodes " + n + " (each pool needs a node)");
      }
    }
    if (parallelism != null && (parallelism < 1 || parallelism > 64)) {
      problems.add("--parallelism must be between 1 and 64");
    }
    List<String> canon = new ArrayList<>();
    List<String> asked = new ArrayList<>();
    for (String p : policies) {
      if (p.trim().equalsIgnoreCase("all")) {
        asked.addAll(PolicyRegistry.fileNames()); // the registry's list: a new policy is in it
      } else {
        asked.add(p);
      }
    }
    for (String p : asked) {
      String u = p.trim().toUpperCase(Locale.ROOT);
      if (SplitPoolParams.isSplitPolicy(u)) {
        problems.add("--policy " + p + " is a split policy (event-range jobs): the bench "
            + "measures file policies (" + String.join(", ", Policies.NAMES) + ")");
        continue;
      }
      try {
        new SchedulerConfig.PolicySpec(u, BenchRun.policyParams(u, parameters.window, parameters.theta));
        // the registry's own name for an alias (EARLIEST_FINISH is EFT): a twice is seen
        canon.add(PolicyRegistry.find(u).map(d -> d.name()).orElse(u));
      } catch (IllegalArgumentException e) {
        problems.add("--policy: " + e.getMessage());
      }
    }
    if (canon.stream().distinct().count() != canon.size()) {
      problems.add("--policy lists a policy twice");
    }
    List<DeliveryMode> modes = new ArrayList<>();
    for (String d : deliveries) {
      try {
        modes.add(DeliveryMode.parse(d));
      } catch (IllegalArgumentException e) {
        problems.add("--delivery: " + e.getMessage());
      }
    }
    for (String b : backends) {
      if (!b.equals("rocksdb") && !b.equals("hashmap")) {
        problems.add("--state-backend must be rocksdb or hashmap, not '" + b + "'");
      }
    }
    List<BenchConfig.Workload> ws = new ArrayList<>();
    for (String w : workloads) {
      try {
        ws.add(BenchConfig.Workload.parse(w));
      } catch (IllegalArgumentException e) {
        problems.add("--workload: " + e.getMessage());
      }
    }
    if (!realAgents) {
      for (String o : List.of("--tasks", "--template", "--timeout", "--task-seconds",
          "--product-defaults")) {
        if (parsed != null && parsed.hasMatchedOption(o)) {
          problems.add(o + " applies to --real-agents only");
        }
      }
    } else {
      for (int t : tasks) {
        if (t < 1 || t > 1_000_000) {
          problems.add("--tasks: " + t + " is not between 1 and 1000000");
        }
      }
      if (queueDepth > io.locus.agent.AgentConfig.MAX_QUEUE_DEPTH) {
        problems.add("--queue-depth must be at most " + io.locus.agent.AgentConfig.MAX_QUEUE_DEPTH
            + " with --real-agents (tasks.queue-depth)");
      }
      if (!List.of("true", "sha256", "sleep").contains(template)) {
        problems.add("--template must be true, sha256 or sleep, not '" + template + "'");
      }
      if (!(taskSeconds > 0 && taskSeconds <= 3600)) {
        problems.add("--task-seconds must be > 0 and at most 3600, got " + taskSeconds);
      } else if (!template.equals("sleep") && parsed != null
          && parsed.hasMatchedOption("--task-seconds")) {
        problems.add("--task-seconds applies to --template sleep only");
      }
      if (canon.size() > 1 || modes.size() > 1) {
        problems.add("--real-agents runs one --policy and one --delivery at a time");
      }
    }
    if (!problems.isEmpty()) {
      throw new picocli.CommandLine.ParameterException(spec.commandLine(),
          String.join("; ", problems));
    }
    List<BenchConfig> configs = new ArrayList<>();
    for (int k : poolCounts) {
      for (BenchConfig.Workload w : ws) {
        for (String b : backends) {
          for (DeliveryMode m : modes) {
            for (String p : canon) {
              Duration cp = checkpointInterval != null ? checkpointInterval
                  : m == DeliveryMode.EXACTLY_ONCE ? Duration.ofMillis(500) : Duration.ofSeconds(5);
              configs.add(new BenchConfig(p, m, b, w, k, parallelism == null ? k : parallelism,
                  n, slots, queueDepth, timeScale, cp, r, st, backlogCap, drain, files, fileBytes,
                  seed, parameters.window, parameters.theta, wu,
                  overload == null ? List.of() : overload));
            }
          }
        }
      }
    }
    return configs;
  }
}
