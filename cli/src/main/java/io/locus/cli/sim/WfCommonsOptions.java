package io.locus.cli.sim;

import io.locus.workloads.TraceFiles;
import io.locus.workloads.wf.SyntheticWorkflows;
import io.locus.workloads.wf.WfJobs;
import io.locus.workloads.Workload;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * Options of {@code locus experiment wfcommons}, mixed into the command. {@code --nodes} and
 * {@code --policies} are shared with the CERN experiments ({@link io.locus.sim.cern.CernOptions}).
 */
public final class WfCommonsOptions {
  @Option(names = "--trace", arity = "1..*", paramLabel = "DIR|FILE",
      description = "wfcommons: instance files, or directories of them (*.json, *.json.gz for "
          + "wfcommons); each file is one instance. Default: the built-in synthetic instances.")
  public List<Path> traces = new ArrayList<>();

  @Option(names = "--format", defaultValue = "wfcommons", paramLabel = "FORMAT",
      description = "wfcommons: format of the --trace files (wfcommons, locus, swf). "
          + "Default: ${DEFAULT-VALUE}.")
  public String format;

  @Option(names = "--time-scale", defaultValue = "1", paramLabel = "X",
      description = "wfcommons: multiply the instances' runtimes (and arrivals) by X. "
          + "Default: ${DEFAULT-VALUE}.")
  public double timeScale;

  @Option(names = "--slots", paramLabel = "S",
      description = "wfcommons: slots per node. Default: 2.")
  public Integer slots;

  @Option(names = "--cache-gb", paramLabel = "G",
      description = "wfcommons: cache per node, GB. Default: per instance, the largest file + "
          + "the other files' bytes / (2 x nodes).")
  public Double cacheGb;

  @Option(names = "--eviction", defaultValue = "lru", paramLabel = "E",
      description = "wfcommons: node cache eviction (LRU, FIFO, LFU, RANDOM, VALUE, DEMAND). "
          + "Default: ${DEFAULT-VALUE}.")
  public String eviction;

  @Option(names = "--quick", description = "wfcommons: only FA, MCH and GCC (unless --policies); "
      + "leaderboard: reduced sizes and 2 seeds; fairness: a small tenants workload on 4 nodes.")
  public boolean quick;

  @Option(names = "--synthetic",
      description = "wfcommons: the built-in synthetic instances (also without --trace).")
  public boolean synthetic;

  /** The instances to run, one workload each; a mistake is a ParameterException (exit 2). */
  List<Workload> instances(CommandLine cmd, long seed) throws IOException {
    List<String> problems = new ArrayList<>();
    TraceFiles.Format f = null;
    try {
      f = TraceFiles.Format.parse(format.toLowerCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      problems.add("--format: " + e.getMessage());
    }
    if (!(timeScale > 0) || Double.isInfinite(timeScale)) {
      problems.add("--time-scale must be > 0");
    }
    if (slots != null && slots < 1) {
      problems.add("--slots must be >= 1");
    }
    if (cacheGb != null && (!(cacheGb >= 0) || Double.isInfinite(cacheGb))) {
      problems.add("--cache-gb must be >= 0");
    }
    if (!io.locus.sim.SimulationConfig.EVICTIONS.contains(eviction.toUpperCase(Locale.ROOT))) {
      problems.add("--eviction: unknown eviction policy '" + eviction + "'; valid: "
          + String.join(", ", io.locus.sim.SimulationConfig.EVICTIONS));
    }
    if (synthetic && !traces.isEmpty()) {
      problems.add("give --trace or --synthetic, not both");
    }
    List<Path> files = new ArrayList<>();
    for (Path t : traces) {
      if (Files.isDirectory(t)) {
        List<Path> in = list(t, f);
        if (in.isEmpty()) {
          problems.add("--trace: no instance files in " + t);
        }
        files.addAll(in);
      } else if (io.locus.cli.WorkloadSource.unreadable(t) != null) {
        problems.add("--trace: " + t + " " + io.locus.cli.WorkloadSource.unreadable(t));
      } else {
        files.add(t);
      }
    }
    if (!problems.isEmpty()) {
      throw new CommandLine.ParameterException(cmd, String.join("; ", problems));
    }
    if (files.isEmpty()) {
      return synthetic(cmd, seed);
    }
    TraceFiles.Options options = new TraceFiles.Options(timeScale, List.of(), true, seed);
    List<Workload> out = new ArrayList<>();
    for (Path p : files) {
      out.add(SimulateCommand.traceWorkload(cmd.getCommandSpec(), List.of(p), f, options));
    }
    return out;
  }

  /**
   * The built-in synthetic instances (the workloads module's {@code SyntheticWorkflows}): a
   * BLAST-like run of 40 tasks sharing one 5 GB database (the shape of the published BLAST
   * instances the issue cites) and a two-chromosome 1000Genome-like one (10 individuals tasks per
   * chromosome, 3 populations). Deterministic: they take no seed.
   */
  List<Workload> synthetic(CommandLine cmd, long seed) {
    return syntheticInstances(timeScale);
  }

  /** The built-in synthetic instances with runtimes scaled by {@code timeScale}. */
  static List<Workload> syntheticInstances(double timeScale) {
    return List.of(
        Workload.of("blast", "synthetic BLAST-like workflow: 40 tasks, one 5 GB database",
            WfJobs.jobs(SyntheticWorkflows.blast(40, 5_000_000_000L), "blast", timeScale)),
        Workload.of("genome", "synthetic 1000Genome-like workflow: 2 chromosomes, 10 individuals"
            + " tasks each, 3 populations",
            WfJobs.jobs(SyntheticWorkflows.genome(2, 10, 3), "genome", timeScale)));
  }

  /** A directory's instance files, sorted by name (hidden files skipped). */
  private static List<Path> list(Path dir, TraceFiles.Format f) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(Files::isRegularFile)
          .filter(p -> !p.getFileName().toString().startsWith("."))
          .filter(p -> f != TraceFiles.Format.WFCOMMONS || isJson(p))
          .sorted().toList();
    }
  }

  private static boolean isJson(Path p) {
    String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
    return n.endsWith(".json") || n.endsWith(".json.gz");
  }
}
