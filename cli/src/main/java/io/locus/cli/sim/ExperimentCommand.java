package io.locus.cli.sim;

import io.locus.sim.cern.CernExperiments;
import io.locus.sim.cern.CernOptions;
import io.locus.sim.hybrid.HybridExperiments;
import io.locus.sim.khanna.KhannaExperiments;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code locus experiment NAME}: runs a whole experiment matrix of spec §5 and writes its report. */
@Command(name = "experiment", mixinStandardHelpOptions = true,
    description = {
        "Run an experiment of the data-diffusion paper in the simulator and write its results"
            + " table (results.md, results.csv), every metric (summary.csv), per-second series"
            + " and plots.",
        "Experiments:",
        "  dd1-mi, dd2-sw, dd5-stacking, dd6-sched-micro, p2-stages18 (data diffusion)",
        "  x5, x6, x8, x9a, x9b, hps-budget, khanna-all (Online-HPS and its baselines)",
        "  hybrid, hybrid-h3, hybrid-cluster (hybrid CPU/IO co-scheduling)",
        "  cern-load, cern-point, cern-e1 ... cern-e11 (CERN job splitting)",
        "  wfcommons (every file policy on recorded workflows: --trace DIR|FILE...)",
        "  leaderboard (every workload x every policy, ratio to the best seed policy; --quick)",
        "  fairness (queues: FIFO vs fair share without and with locality, and with preemption;"
            + " --swf FILE, --quick)",
        "'locus experiment --list' describes them."})
public final class ExperimentCommand implements Callable<Integer> {
  @Spec CommandLine.Model.CommandSpec spec;

  @Parameters(index = "0", arity = "0..1", paramLabel = "NAME", description = "Experiment name.")
  String name;

  @Option(names = "--list", description = "List the experiments and exit.")
  boolean list;

  @Option(names = "--seed", defaultValue = "1", description = "Seed of workloads and model. Default: ${DEFAULT-VALUE}.")
  long seed;

  @Option(names = "--out", description = "Output directory. Default: results/NAME.")
  Path out;

  @Option(names = "--no-plots", description = "Write tables and CSV only.")
  boolean noPlots;

  @Option(names = "--seeds", defaultValue = "5",
      description = "Khanna and CERN experiments: seeds per point (at least 5 in the specs); "
          + "hybrid: seeds per load of the cluster-mode run (H3 uses the spec's 5 and 20). "
          + "Default: ${DEFAULT-VALUE}.")
  int seeds;

  @CommandLine.Mixin
  CernOptions cern = new CernOptions();

  @CommandLine.Mixin
  WfCommonsOptions wf = new WfCommonsOptions();

  @Option(names = "--swf", arity = "1..*", paramLabel = "FILE",
      description = "fairness: SWF logs whose users are the tenants (each also runs, beside the"
          + " tenants workload).")
  List<Path> swf = new ArrayList<>();

  /** Runs one experiment of a family into a directory; returns the exit code. */
  @FunctionalInterface
  private interface Runner {
    int run(String name, Path dir) throws Exception;
  }

  /** A family of experiments: its names, its heading and lines in --list, and its runner. */
  private record Family(Collection<String> names, String heading, String listing,
      Runner runner) {}

  /** The experiment families, in the order --list shows them. */
  private List<Family> families() {
    var o = spec.commandLine().getOut();
    return List.of(
        new Family(Experiments.names(), null, Experiments.describe(), (key, dir) -> {
          var rows = new ExperimentRunner(dir, !noPlots, o).run(Experiments.plan(key, seed),
              seed);
          return rows.stream().allMatch(r -> r.run().complete()) ? 0 : 1;
        }),
        new Family(KhannaExperiments.NAMES,
            "Online-HPS and its baselines (hypergraph spec §5; --seeds, default 5):",
            KhannaExperiments.describe(), (key, dir) -> {
              new KhannaExperiments(dir, seeds, System.out).run(key);
              return 0;
            }),
        new Family(HybridExperiments.NAMES,
            "Hybrid CPU/IO co-scheduling (hybrid spec §5; --seed is the first seed):",
            HybridExperiments.describe(), (key, dir) -> {
              new HybridExperiments(dir, seeds, seed, !noPlots, System.out).run(key);
              return 0;
            }),
        new Family(CernExperiments.NAMES.keySet(),
            "CERN job splitting (cern spec §5, §6.2; --policies, --caches-gb, --jobs, --seeds):",
            CernExperiments.describe(), (key, dir) -> {
              String cmd = "locus " + String.join(" ",
                  spec.commandLine().getParseResult().originalArgs());
              new CernExperiments(dir, cern, seeds, !noPlots, o, cmd).run(key);
              return 0;
            }),
        new Family(List.of(WfCommonsExperiment.NAME),
            "Workflows (--trace DIR|FILE..., --format, --nodes, --slots, --cache-gb, --policies,"
                + " --quick):",
            "  " + WfCommonsExperiment.NAME + ": every file policy on each workflow instance "
                + "(DAG release, outputs cached where created): makespan and bytes moved\n",
            (key, dir) -> wfcommons(dir)),
        new Family(List.of(LEADERBOARD), "Leaderboard (issue 16; --quick, --seeds, --seed):",
            "  " + LEADERBOARD + ": every workload x every policy (the family's seed policies "
                + "and EFT): primary metric, best seed policy, ratio\n",
            (key, dir) -> leaderboard(dir)),
        new Family(List.of(FairnessExperiment.NAME),
            "Sharing a pool (issue 24; --policies, --swf FILE..., --quick, --seed):",
            "  " + FairnessExperiment.NAME + ": per data-aware policy (MCH, EFT), FIFO vs fair share"
                + " without locality (FA) vs fair share without and with the locality wait, and"
                + " with preemption (FS-P+preempt, grace 30 s), on"
                + " the tenants workload and SWF logs: Jain, share error, time to guarantee,"
                + " responses, byte sources\n",
            (key, dir) -> fairness(dir)));
  }

  /** {@code experiment fairness}: the tenants workload, then each --swf log. */
  private int fairness(Path dir) throws Exception {
    var cl = spec.commandLine();
    List<String> policies;
    try {
      policies = FairnessExperiment.policies(cern.policies);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, "--policies: " + e.getMessage());
    }
    List<FairnessExperiment.Setup> setups = new ArrayList<>();
    setups.add(FairnessExperiment.tenants(wf.quick, seed));
    for (Path f : swf) {
      String why = io.locus.cli.WorkloadSource.unreadable(f);
      if (why != null) {
        throw new CommandLine.ParameterException(cl, "--swf: " + f + " " + why);
      }
      try {
        setups.add(FairnessExperiment.swf(f, seed));
      } catch (io.locus.workloads.TraceFormatException | IllegalArgumentException e) {
        throw new CommandLine.ParameterException(cl, "--swf: " + e.getMessage(), e);
      }
    }
    var runs = new FairnessExperiment(dir, policies, !noPlots, cl.getOut()).run(setups);
    return runs.stream().allMatch(r -> r.result().complete()) ? 0 : 1;
  }

  static final String LEADERBOARD = "leaderboard";

  /**
   * {@code experiment leaderboard}: the paper sizes, or with --quick reduced sizes and 2 seeds
   * (unless --seeds is given).
   */
  private int leaderboard(Path dir) throws Exception {
    var cl = spec.commandLine();
    boolean seedsGiven = cl.getParseResult().hasMatchedOption("--seeds");
    int n = seedsGiven ? seeds : wf.quick ? 2 : seeds;
    if (n < 1) {
      throw new CommandLine.ParameterException(cl, "--seeds must be >= 1");
    }
    LeaderboardPlans.Sizes sizes = wf.quick ? LeaderboardPlans.Sizes.quick(n)
        : LeaderboardPlans.Sizes.full(n);
    String cmd = "locus " + String.join(" ", cl.getParseResult().originalArgs());
    String header = "`" + cmd + "` (" + (wf.quick ? "quick: " : "full: ") + sizes.describe()
        + "). Lower is better; ratio = value / best seed policy's value.";
    var rows = new Leaderboard(dir, cl.getOut()).run(LeaderboardPlans.entries(sizes, seed),
        header);
    return rows.isEmpty() ? 1 : 0;
  }

  /** {@code experiment wfcommons}: the instances, the policies and the cluster overrides. */
  private int wfcommons(Path dir) throws Exception {
    var cl = spec.commandLine();
    var parsed = cl.getParseResult();
    List<String> policies;
    try {
      policies = WfCommonsExperiment.policies(cern.policies, wf.quick);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(cl, "--policies: " + e.getMessage());
    }
    Integer nodes = parsed.hasMatchedOption("--nodes") ? cern.nodes : null;
    if (nodes != null && nodes < 1) {
      throw new CommandLine.ParameterException(cl, "--nodes must be >= 1");
    }
    var instances = wf.instances(cl, seed);
    try {
      var rows = new WfCommonsExperiment(dir, policies,
          new WfCommonsExperiment.Overrides(nodes, wf.slots, wf.cacheGb, wf.eviction), seed, !noPlots,
          cl.getOut()).run(instances);
      return rows.stream().allMatch(r -> r.run().complete()) ? 0 : 1;
    } catch (io.locus.workloads.TraceFormatException e) { // trace files are read as they run
      throw new CommandLine.ParameterException(cl, "--trace: " + e.getMessage(), e);
    }
  }

  @Override
  public Integer call() throws Exception {
    var o = spec.commandLine().getOut();
    List<Family> families = families();
    if (list) {
      for (Family f : families) {
        if (f.heading() != null) {
          o.println(f.heading());
        }
        o.print(f.listing());
      }
      o.flush();
      return 0;
    }
    List<String> all = new ArrayList<>();
    families.forEach(f -> all.addAll(f.names()));
    if (name == null) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "missing experiment name; valid: " + String.join(", ", all));
    }
    String key = name.toLowerCase(Locale.ROOT);
    for (Family f : families) {
      if (f.names().contains(key)) {
        return f.runner().run(key, out != null ? out : Path.of("results", key));
      }
    }
    throw new CommandLine.ParameterException(spec.commandLine(), "unknown experiment '" + name
        + "'; valid: " + String.join(", ", all));
  }
}
