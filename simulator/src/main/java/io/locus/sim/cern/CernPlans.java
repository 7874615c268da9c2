package io.locus.sim.cern;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The CERN experiments (spec §5) as data: per experiment its kind, title, default policy variants
 * and cache sizes. {@code --policies} and {@code --caches-gb} replace the defaults.
 */
final class CernPlans {
  /** What an experiment does with its variants and caches. */
  enum Kind {
    /** A sustainable-load sweep (§6.2) per variant and cache ({@link LoadSweep}). */
    SWEEP,
    /** One run (seed 1) per variant and cache at {@code --load}. */
    POINT,
    /** E12: master load versus pool size ({@link CernScaling}). */
    SCALING
  }

  /**
   * One experiment.
   *
   * @param variants default policy variants; a variant may hold {@link #LMAX_TABLE}, replaced by
   *     {@code --lmax-table} (which the experiment then requires)
   * @param inclWait waiting reported as W_incl (with the delay) rather than W_excl
   */
  record Experiment(String name, String summary, Kind kind, String title, List<String> variants,
      List<Double> caches, boolean inclWait) {
    boolean needsLmaxTable() {
      return variants.stream().anyMatch(v -> v.contains(LMAX_TABLE));
    }
  }

  static final String LMAX_TABLE = "${lmaxTable}";
  private static final List<Double> ALL_CACHES = List.of(50.0, 100.0, 200.0);
  private static final List<Double> C100 = List.of(100.0);
  private static final List<String> STANDARD = List.of("FARM", "JOB_SPLITTING",
      "CACHE_JOB_SPLITTING", "OUT_OF_ORDER", "OUT_OF_ORDER:replication=true", "DELAYED");

  private static final Map<String, Experiment> EXPERIMENTS = new LinkedHashMap<>();

  static {
    add(new Experiment("cern-load", "sustainable load per policy and cache: Lmax, waiting and "
        + "speedup vs load, waiting histograms near 0.95 Lmax, response percentiles", Kind.SWEEP,
        "Sustainable load per policy and cache (spec §6.2)", STANDARD, ALL_CACHES, false));
    add(new Experiment("cern-point", "one run (one load, seed 1) per policy and cache, with its "
        + "wall time", Kind.POINT, "One run per policy and cache", STANDARD, ALL_CACHES, false));
    add(new Experiment("cern-e1", "E1: FARM, JOB_SPLITTING, CACHE_JOB_SPLITTING x 3 caches",
        Kind.SWEEP, "E1: FARM, JOB_SPLITTING, CACHE_JOB_SPLITTING",
        List.of("FARM", "JOB_SPLITTING", "CACHE_JOB_SPLITTING"), ALL_CACHES, false));
    add(new Experiment("cern-e2", "E2: CACHE_JOB_SPLITTING vs OUT_OF_ORDER x 3 caches, "
        + "histograms", Kind.SWEEP, "E2: CACHE_JOB_SPLITTING vs OUT_OF_ORDER",
        List.of("CACHE_JOB_SPLITTING", "OUT_OF_ORDER"), ALL_CACHES, false));
    add(new Experiment("cern-e3", "E3: OUT_OF_ORDER +/- replication per cache, relative change, "
        + "usage", Kind.SWEEP, "E3: OUT_OF_ORDER with and without replication",
        List.of("OUT_OF_ORDER", "OUT_OF_ORDER:replication=true"), ALL_CACHES, false));
    add(new Experiment("cern-e4", "E4: DELAYED d in {0,6h,12h,1d,2d,4d,1w} + OUT_OF_ORDER, "
        + "100 GB, S=5000 (with --caches-gb 50,100,200 its Lmax table is E6 vs d)", Kind.SWEEP,
        "E4: DELAYED over the period d (S = 5,000) and OUT_OF_ORDER; waiting excludes the "
            + "period delay (W_excl)",
        with(each("DELAYED:period=%s:stripe=5000", "0", "6h", "12h", "1d", "2d", "4d", "1w"),
            "OUT_OF_ORDER"), C100, false));
    add(new Experiment("cern-e5", "E5: DELAYED S in {200..25000}, 100 GB, d=2d (all caches: E6 "
        + "vs S)", Kind.SWEEP, "E5: DELAYED over the stripe size S (d = 2 days); waiting "
            + "excludes the delay",
        each("DELAYED:period=2d:stripe=%s", "200", "500", "1000", "2500", "5000", "10000",
            "25000"), C100, false));
    add(new Experiment("cern-e7", "E7: ADAPTIVE_DELAY (needs --lmax-table from cern-e4) + "
        + "OUT_OF_ORDER", Kind.SWEEP, "E7: ADAPTIVE_DELAY and OUT_OF_ORDER; waiting includes "
            + "the delay (W_incl)",
        List.of("ADAPTIVE_DELAY:stripe=5000:lmaxTable=" + LMAX_TABLE, "OUT_OF_ORDER"), C100,
        true));
    add(new Experiment("cern-e12", "E12: master load (scheduler CPU / simulated time) vs n, "
        + "lambda = 0.1 n, D and the pool scaled with n, 100 GB, DELAYED d = 30 days / n",
        Kind.SCALING, "E12: scheduler cost vs n",
        List.of("FARM", "JOB_SPLITTING", "OUT_OF_ORDER", "DELAYED"), C100, false));
    add(new Experiment("cern-e8", "E8: FARM and JOB_SPLITTING +/- tapePipelining", Kind.SWEEP,
        "E8: FARM and JOB_SPLITTING with and without tape pipelining",
        List.of("FARM", "FARM:tapePipelining=true", "JOB_SPLITTING",
            "JOB_SPLITTING:tapePipelining=true"), C100, false));
    add(new Experiment("cern-e9", "E9: OUT_OF_ORDER +/- tapePipelining per cache", Kind.SWEEP,
        "E9: OUT_OF_ORDER with and without tape pipelining",
        List.of("OUT_OF_ORDER", "OUT_OF_ORDER:tapePipelining=true"), ALL_CACHES, false));
    add(new Experiment("cern-e11", "E11: OUT_OF_ORDER none / tape / tape+disk pipelining per "
        + "cache", Kind.SWEEP, "E11: OUT_OF_ORDER: no pipelining, tape, tape + disk",
        List.of("OUT_OF_ORDER", "OUT_OF_ORDER:tapePipelining=true",
            "OUT_OF_ORDER:tapePipelining=true:diskPipelining=true"), ALL_CACHES, false));
  }

  private CernPlans() {}

  private static void add(Experiment e) {
    EXPERIMENTS.put(e.name(), e);
  }

  private static List<String> each(String format, String... values) {
    List<String> out = new ArrayList<>();
    for (String v : values) {
      out.add(String.format(Locale.ROOT, format, v));
    }
    return out;
  }

  private static List<String> with(List<String> list, String last) {
    List<String> out = new ArrayList<>(list);
    out.add(last);
    return out;
  }

  /** Experiment names (lower case) with a one-line summary, in listing order. */
  static Map<String, String> summaries() {
    Map<String, String> m = new LinkedHashMap<>();
    EXPERIMENTS.values().forEach(e -> m.put(e.name(), e.summary()));
    return m;
  }

  static Experiment get(String name) {
    Experiment e = EXPERIMENTS.get(name.toLowerCase(Locale.ROOT));
    if (e == null) {
      throw new IllegalArgumentException("unknown CERN experiment '" + name + "'; valid: "
          + String.join(", ", EXPERIMENTS.keySet()));
    }
    return e;
  }
}
