package io.locus.cli.sim;

import io.locus.core.policy.PolicyDescriptor.Family;
import io.locus.core.policy.PolicyRegistry;
import io.locus.sim.Simulation;
import io.locus.sim.SimulationConfig;
import io.locus.sim.SimulationConfig.Provisioning;
import io.locus.sim.engine.RunResult;
import io.locus.sim.hybrid.ClusterExperiment;
import io.locus.sim.khanna.KhannaExperiments;
import io.locus.sim.metrics.DiffusionMetrics;
import io.locus.workloads.Stacking;
import io.locus.workloads.Workload;
import io.locus.workloads.Workloads;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * The leaderboard's workloads as data, built on the existing experiments: the data-diffusion
 * clusters of DD1, DD2 and DD5 ({@link Experiments}), the Online-HPS points of X6, X8, X9a and X9b
 * ({@link KhannaExperiments#responsePoints}), the hybrid cluster mode ({@link ClusterExperiment})
 * and the synthetic WfCommons instances ({@link WfCommonsExperiment}). No simulation code here:
 * only which runs, and which number of each.
 */
final class LeaderboardPlans {
  /** The data-diffusion seed policies (spec §2.1; the registry's family); also WfCommons'. */
  static final List<String> DD_SEEDS = PolicyRegistry.family(Family.DATA_DIFFUSION);
  /** The hybrid cluster mode's schedulers (its ablation variants left out). */
  static final List<String> HYBRID_SEEDS = List.of("GREEDY_SORT_MERGE", "FIFO_HEAD", "FIRST_FIT",
      "SLOTS-2 (profile-blind)");

  /**
   * How large the runs are. Full: the paper sizes. Quick: each data-diffusion workload cut to its
   * first tasks (arrivals unchanged), fewer stacking localities, fewer hybrid jobs, fewer seeds.
   *
   * @param miTasks MI tasks run (0 = all 250,000)
   * @param swTasks SW tasks run (0 = all 2,000,000)
   * @param stackingTasks STACKING tasks run per locality (0 = all)
   * @param localities STACKING localities (rows of the §4.4 table), GZ format
   * @param seeds seeds per Online-HPS point and per hybrid load
   * @param hybridJobs jobs per hybrid run
   */
  record Sizes(int miTasks, int swTasks, int stackingTasks, List<String> localities, int seeds,
      int hybridJobs) {
    static Sizes full(int seeds) {
      return new Sizes(0, 0, 0, Stacking.TABLE.stream().map(Stacking.Row::locality).toList(),
          seeds, ClusterExperiment.JOBS);
    }

    static Sizes quick(int seeds) {
      // MI to the 643/s step and SW through its 580/s peak: both past the file system's rate,
      // where the caches decide (the first 25,000 MI tasks ran at most 200/s: all policies tied)
      return new Sizes(150_000, 600_000, 0, List.of("1", "5", "30"), seeds, 300);
    }

    /** The reductions, for the header of leaderboard.md. */
    String describe() {
      return String.format(Locale.ROOT, "MI: %s; SW: %s (SRP, 100 nodes, 50 GB); STACKING "
              + "(GZ, SRP, 64 nodes, 50 GB): localities %s, %s; Online-HPS: %d seeds per point; "
              + "hybrid cluster mode: %d jobs, %d seeds per load; data-diffusion and WfCommons "
              + "rows: one run (seed --seed)",
          tasks(miTasks, "250,000"), tasks(swTasks, "2,000,000"), String.join(", ", localities),
          tasks(stackingTasks, "all"), seeds, hybridJobs, seeds);
    }

    private static String tasks(int n, String all) {
      return n == 0 ? all + " tasks" : "the first " + String.format(Locale.ROOT, "%,d", n)
          + " tasks";
    }
  }

  private LeaderboardPlans() {}

  /** Every workload of the leaderboard, in table order. */
  static List<Leaderboard.Entry> entries(Sizes z, long seed) {
    List<Leaderboard.Entry> out = new ArrayList<>();
    out.addAll(dataDiffusion(z, seed));
    for (String x : List.of("x6", "x8", "x9a", "x9b")) {
      out.addAll(khanna(x, z.seeds()));
    }
    out.addAll(hybrid(z, seed));
    out.addAll(wfcommons(seed));
    return out;
  }

  private static List<String> withOwn(List<String> seeds) {
    List<String> all = new ArrayList<>(seeds);
    all.add(Leaderboard.OWN);
    return all;
  }

  /** Completion time of a data-diffusion run; NaN when it did not complete every task. */
  static double completion(RunResult<DiffusionMetrics> r) {
    boolean done = r.complete() && r.detail().tasks().dropped() == 0;
    return done ? r.detail().times().completionTime() : Double.NaN;
  }

  private static Leaderboard.Entry dd(String name, LongFunction<SimulationConfig.Builder> base,
      long seed, Workload w) {
    return new Leaderboard.Entry(name, "completion time s", DD_SEEDS, withOwn(DD_SEEDS), Map.of(),
        p -> completion(Simulation.run(base.apply(seed).policy(p).label(p + "@" + name).build(),
            w)));
  }

  static List<Leaderboard.Entry> dataDiffusion(Sizes z, long seed) {
    List<Leaderboard.Entry> out = new ArrayList<>();
    Workload mi = first(Workloads.create("mi", Map.of(), seed), z.miTasks());
    for (double gb : new double[] {1, 1.5, 2, 4}) {
      String g = gb == Math.rint(gb) ? Integer.toString((int) gb) : Double.toString(gb);
      out.add(dd("MI " + g + " GB", s -> Experiments.dd1Base(s).cacheGb(gb), seed, mi));
    }
    out.add(dd("SW", s -> Experiments.dd2Base(s).provisioning(Provisioning.SRP), seed,
        first(Workloads.create("sw", Map.of(), seed), z.swTasks())));
    for (String l : z.localities()) {
      out.add(dd("STACKING L=" + l, Experiments::dd5Base, seed, first(Workloads.create(
          "stacking", Map.of("locality", l, "format", "gz"), seed), z.stackingTasks())));
    }
    return out;
  }

  /** One workload per point (table and x) of an Online-HPS experiment: mean response. */
  static List<Leaderboard.Entry> khanna(String experiment, int seeds) {
    Map<String, Map<String, KhannaExperiments.ResponsePoint>> byPoint = new LinkedHashMap<>();
    for (KhannaExperiments.ResponsePoint p : KhannaExperiments.responsePoints(experiment)) {
      if (!p.params().isEmpty()) {
        continue; // a parameter variant, not the policy as registered
      }
      String axis = p.xLabel().split(" ")[0];
      String name = p.table().replace("-response", "") + " " + axis + "=" + p.x();
      byPoint.computeIfAbsent(name, k -> new LinkedHashMap<>()).put(p.policy(), p);
    }
    List<Leaderboard.Entry> out = new ArrayList<>();
    byPoint.forEach((name, points) -> {
      List<String> seedPolicies = points.keySet().stream()
          .filter(p -> !p.equals(Leaderboard.OWN)).toList();
      out.add(new Leaderboard.Entry(name, "mean response s", seedPolicies,
          List.copyOf(points.keySet()), Map.of(), p -> {
            double sum = 0;
            for (long s = 1; s <= seeds; s++) {
              sum += points.get(p).response().applyAsDouble(s);
            }
            return sum / seeds;
          }));
    });
    return out;
  }

  /** The hybrid cluster mode at each offered load: mean response over the seeds. */
  static List<Leaderboard.Entry> hybrid(Sizes z, long seed) {
    Map<String, ClusterExperiment.SchedulerVariant> variants = new LinkedHashMap<>();
    ClusterExperiment.policies().forEach(v -> variants.put(v.label(), v));
    variants.put(Leaderboard.OWN, ClusterExperiment.EFT_FLUID);
    List<Leaderboard.Entry> out = new ArrayList<>();
    for (double load : ClusterExperiment.LOADS) {
      out.add(new Leaderboard.Entry("hybrid-cluster rho=" + load, "mean response s",
          HYBRID_SEEDS, withOwn(HYBRID_SEEDS), Map.of(), p ->
          ClusterExperiment.run(z.hybridJobs(), z.seeds(), seed, new double[] {load},
              List.of(variants.get(p))).stream()
              .mapToDouble(r -> r.metrics().meanResponse()).average().orElse(Double.NaN)));
    }
    return out;
  }

  /** The built-in synthetic WfCommons instances, sized as {@code experiment wfcommons} does. */
  static List<Leaderboard.Entry> wfcommons(long seed) {
    List<Leaderboard.Entry> out = new ArrayList<>();
    for (Workload w : WfCommonsOptions.syntheticInstances(1.0)) {
      out.add(new Leaderboard.Entry("wfcommons " + w.name(), "makespan s", DD_SEEDS,
          withOwn(DD_SEEDS), Map.of(), p -> completion(WfCommonsExperiment.simulate(w, p,
              new WfCommonsExperiment.Overrides(null, null, null), seed))));
    }
    return out;
  }

  /** The workload's first {@code n} jobs (all when n is 0): arrivals and files unchanged. */
  static Workload first(Workload w, int n) {
    if (n <= 0 || n >= w.size()) {
      return w;
    }
    return new Workload(w.name(), w.description() + " (first " + n + " tasks)", n,
        () -> w.stream().limit(n).iterator());
  }
}
