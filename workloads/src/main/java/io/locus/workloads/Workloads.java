package io.locus.workloads;

import io.locus.workloads.DdThroughput.Locality;
import io.locus.workloads.DdThroughput.Mode;
import io.locus.workloads.KhannaImageTrace.Arrivals;
import io.locus.workloads.KhannaImageTrace.TraceCosts;
import io.locus.workloads.KhannaImageTrace.Options;
import io.locus.workloads.KhannaImageTrace.Ordering;
import io.locus.workloads.KhannaImageTrace.Overlap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Every generator by name, with string parameters, for command lines and experiment files:
 * {@code Workloads.create("khanna", Map.of("n", "1200", "arrivals", "lublin"), 7)}. Unknown names,
 * unknown parameters and bad values fail with an {@link IllegalArgumentException} that lists what
 * is valid. Parameters left out take the spec's defaults.
 */
public final class Workloads {
  private record Entry(String summary, List<Params.Spec> params, Function<Params, Workload> make) {}

  private static final Map<String, Entry> ENTRIES = new LinkedHashMap<>();

  static {
    ENTRIES.put("mi", new Entry("MI, 250,000 tasks with rising arrival rate", List.of(),
        p -> Mi.workload(p.seed)));
    ENTRIES.put("sw", new Entry("SW, 2,000,000 tasks with sine-wave arrival rate", List.of(),
        p -> Sw.workload(p.seed)));
    ENTRIES.put("ap", new Entry("AP, all pairs of N x N items", List.of(
        spec("n", "500", "items per side (500 in DD3, 1000 in DD4)"),
        spec("compute", "1.0", "compute seconds per task (DD3: 1 or 0.1; DD4: 4)")),
        p -> AllPairs.workload(p.integer("n"), p.number("compute"))));
    ENTRIES.put("stacking", new Entry("STACKING, image stacking at a locality of the table",
        List.of(
            spec("locality", null, "a row of the table: " + Stacking.TABLE.stream()
                .map(Stacking.Row::locality).collect(Collectors.joining("|"))),
            spec("format", "gz", "gz (2 MB) | fit (6 MB)"),
            spec("compute", Double.toString(Stacking.DEFAULT_C_STACK),
                "c_stack, stacking seconds per task"),
            spec("decompress", "0", "extra seconds per GZ task")),
        p -> Stacking.workload(p.string("locality"),
            p.choice("format", Map.of("gz", Stacking.Format.GZ, "fit", Stacking.Format.FIT)),
            p.number("compute"), p.number("decompress"), p.seed)));
    ENTRIES.put("sched-micro", new Entry("SCHED_MICRO, 250,000 tasks over 10,000 files of 1 B",
        List.of(spec("io", "true", "false = the 'FA without I/O' variant: tasks read nothing")),
        p -> SchedMicro.workload(p.bool("io"), p.seed)));
    ENTRIES.put("dd-throughput", new Entry(
        "DD_THROUGHPUT, 20 tasks per slot at 0 or 100 % locality",
        List.of(
            spec("nodes", "1", "executors (grid 1|2|4|8|16|32|64)"),
            spec("slots", "2", "slots per executor"),
            spec("fileBytes", Long.toString(DdThroughput.DEFAULT_FILE_BYTES),
                "file size: bytes, or with a unit (10MB, 1.5GiB; grid 1 B … 1 GB, decimal)"),
            spec("locality", "0", "0 | 100 (percent)"),
            spec("mode", "read", "read | read+write"),
            spec("tasksPerSlot", Integer.toString(DdThroughput.TASKS_PER_SLOT), "tasks per slot")),
        p -> DdThroughput.workload(p.integer("nodes"), p.integer("slots"),
            p.bytes("fileBytes"),
            p.choice("locality", Map.of("0", Locality.ZERO, "100", Locality.FULL)),
            p.choice("mode", Map.of("read", Mode.READ, "read+write", Mode.READ_WRITE)),
            p.integer("tasksPerSlot"))));
    ENTRIES.put("stages18", new Entry("STAGES18, 1,000 sleep tasks in 18 dependent stages",
        List.of(), p -> Stages18.workload()));
    ENTRIES.put("khanna", new Entry("KhannaImageTrace, medical-image jobs with file sharing",
        List.of(
            spec("n", "800", "jobs, a multiple of 20"),
            spec("overlap", "high", "high (rho 0.85) | medium (0.42) | low (0.15)"),
            spec("order", "clustered", "clustered | random"),
            spec("arrivals", "poisson", "poisson | lublin"),
            spec("tlArrival", "600", "last arrival, seconds (ignored when load is given)"),
            spec("load", "", "target Load; sets TLarrival = N*AvgExecTime/(P*load) (Eq. 11)"),
            spec("m", "4", "storage nodes"),
            spec("p", "4", "compute nodes, for the load calibration"),
            spec("rbw", "117", "storage-to-compute bandwidth, MiB/s"),
            spec("lbw", "150", "local-disk read bandwidth, MiB/s"),
            spec("c", "0.001", "compute cost, s/MiB")),
        Workloads::khanna));
    for (HybridMix.Kind kind : HybridMix.Kind.values()) {
      List<Params.Spec> specs = new java.util.ArrayList<>(List.of(
          spec("n", "1000", "jobs")));
      if (kind != HybridMix.Kind.RANDOM) {
        specs.add(spec("fracCpu", "0.5", "share of CPU jobs, in [0, 1]"));
      }
      specs.add(spec("rate", "0", "Poisson arrivals, jobs/s; 0 = all at t = 0"));
      specs.add(spec("duration", "600", "job duration, seconds (mean if exponential)"));
      specs.add(spec("durations", "fixed", "fixed | exp"));
      ENTRIES.put(kind.workloadName(), new Entry(kind.name() + "_MIX, hybrid co-scheduling jobs "
          + "with resource profiles (cpu, mem, disk attributes)", specs,
          p -> HybridMix.workload(new HybridMix.Options(kind, p.integer("n"),
              kind == HybridMix.Kind.RANDOM ? 0.5 : p.number("fracCpu"), p.number("rate"),
              p.number("duration"), p.choice("durations", Map.of("fixed", false, "exp", true))),
              p.seed)));
    }
    ENTRIES.put("cern", new Entry("CernEventJobs, splittable event-range analysis jobs (CERN)",
        List.of(
            spec("n", "20000", "jobs"),
            spec("load", "1.0", "arrival rate lambda, jobs per hour (Poisson)"),
            spec("space", Long.toString(CernEventJobs.DEFAULT_SPACE), "D, events in the data space"),
            spec("hotspots", "true", "false = uniform starts (no hot regions)")),
        p -> CernEventJobs.workload(new CernEventJobs.Options(p.integer("n"), p.number("load"),
            p.longValue("space"), p.bool("hotspots")), p.seed)));
  }

  static {
    Tenants.Options d = Tenants.Options.defaults();
    ENTRIES.put("tenants", new Entry("several tenants' WfCommons-shaped workflows, one flooding"
        + " the pool first; each job's queue is its tenant (issue 24)",
        List.of(
            spec("tenants", Integer.toString(d.tenants()), "tenants (queues tenant-1 ...), >= 2;"
                + " tenant-1 floods"),
            spec("workflows", Integer.toString(d.workflows()), "workflows of each other tenant"),
            spec("flood", Integer.toString(d.flood()), "tenant-1 submits flood x workflows"
                + " workflows, all at t = 0"),
            spec("shape", "mix", "blast | genome | mix (each workflow drawn, even odds)"),
            spec("width", Integer.toString(d.width()), "blastall or individuals tasks per"
                + " workflow"),
            spec("database", "1GB", "BLAST's shared database: bytes, or with a unit"),
            spec("rate", Double.toString(d.rate()), "each other tenant's workflows/s (Poisson);"
                + " 0 = all at start"),
            spec("start", "60", "seconds when the other tenants start submitting"),
            spec("overlap", "0", "probability that a workflow reads the data all tenants share"
                + " instead of its tenant's, in [0, 1]")),
        p -> Tenants.workload(new Tenants.Options(p.integer("tenants"), p.integer("workflows"),
            p.integer("flood"), p.choice("shape", Map.of("blast", Tenants.Shape.BLAST,
                "genome", Tenants.Shape.GENOME, "mix", Tenants.Shape.MIX)), p.integer("width"),
            p.bytes("database"), p.number("rate"), p.number("start"), p.number("overlap")),
            p.seed)));
  }

  private Workloads() {}

  /** Registered names, in a stable order. */
  public static List<String> names() {
    return List.copyOf(ENTRIES.keySet());
  }

  /**
   * Creates workload {@code name} with {@code params} (missing ones take their defaults) and
   * {@code seed} (unused by the generators that draw nothing: ap, dd-throughput, stages18).
   */
  public static Workload create(String name, Map<String, String> params, long seed) {
    Entry e = name == null ? null : ENTRIES.get(name);
    if (e == null) {
      throw new IllegalArgumentException("unknown workload '" + name + "'. Valid:\n" + usage());
    }
    Params p = new Params(name, params, e.params(), seed);
    try {
      return e.make().apply(p);
    } catch (Params.Invalid already) {
      throw already;
    } catch (IllegalArgumentException bad) {
      throw p.fail(bad.getMessage());
    }
  }

  /** Every workload with its parameters and defaults, one line per parameter. */
  public static String usage() {
    StringBuilder sb = new StringBuilder();
    ENTRIES.forEach((name, e) -> {
      sb.append(name).append(": ").append(e.summary()).append('\n');
      for (Params.Spec s : e.params()) {
        sb.append("    ").append(s).append('\n');
      }
    });
    return sb.toString();
  }

  private static Workload khanna(Params p) {
    TraceCosts cost = new TraceCosts(p.number("rbw"), p.number("lbw"), p.number("c"),
        p.integer("p"));
    Options o = new Options(p.integer("n"),
        p.choice("overlap", Map.of("high", Overlap.HIGH, "medium", Overlap.MEDIUM,
            "low", Overlap.LOW)),
        p.choice("order", Map.of("clustered", Ordering.CLUSTERED, "random", Ordering.RANDOM)),
        p.choice("arrivals", Map.of("poisson", Arrivals.POISSON, "lublin", Arrivals.LUBLIN)),
        p.integer("m"), cost);
    if (p.has("load") && !p.string("load").isEmpty()) {
      if (p.has("tlArrival")) {
        throw p.fail("give tlArrival or load, not both");
      }
      return KhannaImageTrace.workloadAtLoad(o, p.number("load"), p.seed);
    }
    return KhannaImageTrace.workload(o, p.number("tlArrival"), p.seed);
  }

  private static Params.Spec spec(String name, String defaultValue, String doc) {
    return new Params.Spec(name, defaultValue, doc);
  }
}
