package io.locus.sim.cli;

import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code locus experiment NAME}: runs a whole experiment matrix of spec §5 and writes its report. */
@Command(name = "experiment", mixinStandardHelpOptions = true,
    description = {
        "Run an experiment of the data-diffusion paper in the simulator and write its results",
        "table (results.md, results.csv), every metric (summary.csv), per-second series and plots.",
        "Experiments:",
        "  dd1-mi, dd2-sw, dd5-stacking, dd6-sched-micro, p2-stages18 (data diffusion)",
        "  x5, x6, x8, x9a, x9b, hps-budget, khanna-all (Online-HPS and its baselines)",
        "  hybrid, hybrid-h3, hybrid-cluster (hybrid CPU/IO co-scheduling)",
        "  cern-load, cern-point, cern-e1 ... cern-e11 (CERN job splitting)",
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
  io.locus.sim.cern.CernOptions cern = new io.locus.sim.cern.CernOptions();

  @Override
  public Integer call() throws Exception {
    var o = spec.commandLine().getOut();
    if (list) {
      o.print(Experiments.describe());
      o.println("Online-HPS and its baselines (hypergraph spec §5; --seeds, default 5):");
      o.println("  x5 (JDPDLL threshold), x6 (load; also X7 transfers), x8 (compute nodes),");
      o.println("  x9a (Lublin arrivals), x9b (sharing level), hps-budget (re-partitioning budget),");
      o.println("  khanna-all (all of them)");
      o.println("Hybrid CPU/IO co-scheduling (hybrid spec §5; --seed is the first seed):");
      o.print(io.locus.sim.hybrid.HybridExperiments.describe());
      o.println("CERN job splitting (cern spec §5, §6.2; --policies, --caches-gb, --jobs, --seeds):");
      o.print(io.locus.sim.cern.CernExperiments.describe());
      o.flush();
      return 0;
    }
    if (name == null) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "missing experiment name; valid: " + String.join(", ", Experiments.names()) + ", "
              + String.join(", ", io.locus.sim.khanna.KhannaExperiments.NAMES) + ", "
              + String.join(", ", io.locus.sim.hybrid.HybridExperiments.NAMES) + ", "
              + String.join(", ", io.locus.sim.cern.CernExperiments.NAMES.keySet()));
    }
    String key = name.toLowerCase(Locale.ROOT);
    if (io.locus.sim.cern.CernExperiments.NAMES.containsKey(key)) {
      Path dir = out != null ? out : Path.of("results", key);
      String cmd = "locus " + String.join(" ",
          spec.commandLine().getParseResult().originalArgs());
      new io.locus.sim.cern.CernExperiments(dir, cern, seeds, !noPlots, o, cmd).run(key);
      return 0;
    }
    if (io.locus.sim.khanna.KhannaExperiments.NAMES.contains(key)) {
      Path dir = out != null ? out : Path.of("results", key);
      new io.locus.sim.khanna.KhannaExperiments(dir, seeds, System.out).run(key);
      return 0;
    }
    if (io.locus.sim.hybrid.HybridExperiments.NAMES.contains(key)) {
      Path dir = out != null ? out : Path.of("results", key);
      new io.locus.sim.hybrid.HybridExperiments(dir, seeds, seed, !noPlots, System.out).run(key);
      return 0;
    }
    if (!Experiments.names().contains(key)) {
      throw new CommandLine.ParameterException(spec.commandLine(), "unknown experiment '" + name
          + "'; valid: " + String.join(", ", Experiments.names()) + ", "
          + String.join(", ", io.locus.sim.khanna.KhannaExperiments.NAMES) + ", "
          + String.join(", ", io.locus.sim.hybrid.HybridExperiments.NAMES) + ", "
          + String.join(", ", io.locus.sim.cern.CernExperiments.NAMES.keySet()));
    }
    Path dir = out != null ? out : Path.of("results", key);
    var rows = new ExperimentRunner(dir, !noPlots, o).run(Experiments.plan(key, seed), seed);
    boolean complete = rows.stream().allMatch(r -> r.run().complete());
    return complete ? 0 : 1;
  }
}
