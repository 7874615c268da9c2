package io.locus.sim.hybrid;

import io.locus.workloads.HybridMix;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code locus experiment hybrid}: H3 (the epoch-model scheduler simulation) and the cluster-mode
 * run, into one directory: {@code results.md}, CSV files and PNG plots. {@code hybrid-h3} and
 * {@code hybrid-cluster} run one part. H1, H2 and H4 are measurements on the thesis's hardware and
 * are not simulated.
 */
public final class HybridExperiments {
  /** The parts of the hybrid experiments. */
  private enum Part {
    H3,
    CLUSTER
  }

  /** Each experiment name and the parts it runs, in order. */
  private static final Map<String, List<Part>> PARTS = new LinkedHashMap<>();

  static {
    PARTS.put("hybrid", List.of(Part.H3, Part.CLUSTER));
    PARTS.put("hybrid-h3", List.of(Part.H3));
    PARTS.put("hybrid-cluster", List.of(Part.CLUSTER));
  }

  public static final List<String> NAMES = List.copyOf(PARTS.keySet());

  private final Path out;
  private final int clusterSeeds;
  private final long firstSeed;
  private final boolean plots;
  private final PrintStream log;

  /**
   * @param clusterSeeds seeds per load of the cluster-mode run (H3 uses the spec's 5 and 20)
   * @param firstSeed the first seed; seeds are firstSeed, firstSeed + 1, …
   */
  public HybridExperiments(Path out, int clusterSeeds, long firstSeed, boolean plots,
      PrintStream log) {
    if (clusterSeeds < 2) {
      throw new IllegalArgumentException("--seeds must be >= 2 for a standard deviation, got "
          + clusterSeeds);
    }
    this.out = out;
    this.clusterSeeds = clusterSeeds;
    this.firstSeed = firstSeed;
    this.plots = plots;
    this.log = log;
  }

  public static String describe() {
    return "  hybrid: H3 (1000 jobs, epoch model; IDEAL_MIX 5 seeds, RANDOM_MIX 20 seeds; "
        + "GREEDY_SORT_MERGE vs SINGLE_SORTED_CPU/DISK and the §2.3 variants) and cluster mode "
        + "(online GSM, FIFO_HEAD, FIRST_FIT, profile-blind slots on 12 nodes, NOISY_MIX, "
        + "fluid model, energy)\n"
        + "  hybrid-h3, hybrid-cluster: one part of it\n";
  }

  public void run(String name) throws IOException {
    if (!NAMES.contains(name)) {
      throw new IllegalArgumentException("unknown hybrid experiment '" + name + "'; valid: "
          + String.join(", ", NAMES));
    }
    Files.createDirectories(out);
    StringBuilder md = new StringBuilder();
    for (Part p : PARTS.get(name)) {
      md.append(p == Part.H3 ? h3() : cluster());
    }
    Files.writeString(out.resolve("results.md"), md.toString());
    log.print(md);
    log.flush();
  }

  private String h3() throws IOException {
    log.println("H3: IDEAL_MIX x " + EpochExperiment.IDEAL_SEEDS + " seeds, RANDOM_MIX x "
        + EpochExperiment.RANDOM_SEEDS + " seeds ...");
    List<EpochExperiment.Table> tables = List.of(
        EpochExperiment.run(HybridMix.Kind.IDEAL, EpochExperiment.JOBS,
            EpochExperiment.IDEAL_SEEDS, firstSeed),
        EpochExperiment.run(HybridMix.Kind.RANDOM, EpochExperiment.JOBS,
            EpochExperiment.RANDOM_SEEDS, firstSeed));
    EpochExperiment.csv(out, tables);
    if (plots) {
      EpochExperiment.plot(out.resolve("h3-makespan.png"), tables);
    }
    return "### H3: makespan in epochs (1 epoch = 10 min), 1000 jobs, CAP = ⟨100, 100, 100⟩, "
        + "R = [CPU, MEM, DISK]\n\nSeeds " + firstSeed + " … (" + EpochExperiment.IDEAL_SEEDS
        + " for IDEAL_MIX, " + EpochExperiment.RANDOM_SEEDS + " for RANDOM_MIX). Bold: the "
        + "thesis's schedulers; the others are the §2.3 variants, reported separately; the lower "
        + "bound is ⌈max_r Σ j[r] / 100⌉.\n\n" + EpochExperiment.markdown(tables) + "\n";
  }

  private String cluster() throws IOException {
    log.println("cluster mode: loads " + java.util.Arrays.toString(ClusterExperiment.LOADS)
        + " x " + clusterSeeds + " seeds x " + ClusterExperiment.policies().size()
        + " policies ...");
    List<ClusterExperiment.Run> runs = ClusterExperiment.run(ClusterExperiment.JOBS,
        clusterSeeds, firstSeed, ClusterExperiment.LOADS, ClusterExperiment.policies());
    ClusterExperiment.csv(out, runs);
    if (plots) {
      ClusterExperiment.plots(out, runs, ClusterExperiment.LOADS);
    }
    return "### Cluster mode: online schedulers, 12 nodes, 1000 NOISY_MIX jobs, Poisson "
        + "arrivals, exponential durations (mean 600 s), fluid model\n"
        + ClusterExperiment.markdown(runs, ClusterExperiment.LOADS) + "\n";
  }
}
