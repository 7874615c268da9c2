package io.locus.sim.cern;

import io.locus.core.split.EventCosts;
import io.locus.core.split.SplitParams;
import io.locus.sim.engine.RunResult;
import io.locus.workloads.TraceJob;
import io.locus.workloads.Workloads;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * The sustainable-load procedure of CERN spec §6.2 (D24): for λ = step, 2·step, … (0.05 jobs/h),
 * each seed simulates {@code jobs} arrivals with empty caches, measures the jobs arriving after the
 * warm-up (max(2 × cache fill time, 5 periods)) and before the last 10 % of the arrival span, runs
 * until they have all finished, and applies the quarter-based overload test. λ is sustainable when
 * a majority of the seeds (3 of 5) is not overloaded; the scan stops at the first unsustainable λ
 * and Lmax is the last sustainable one (0 when the first grid value already fails).
 *
 * <p>Two shortcuts that never change a verdict: a grid point stops running seeds once its majority
 * is settled (unless {@code allSeeds}), and an overloaded run stops once its overload test can no
 * longer come out otherwise. The seed of run k is k (1-based), the same for every policy and load
 * (common random numbers across configurations).
 */
public final class LoadSweep {
  /** A policy configuration under test; {@code params} excludes the cache size. */
  public record Variant(String label, String policy, Map<String, String> params) {
    public Variant {
      params = Map.copyOf(params);
    }
  }

  /** Protocol settings. */
  public record Settings(int nodes, int jobs, int seeds, boolean allSeeds, double step,
      double maxLoad, long space, boolean hotSpots, boolean measureCpu) {
    public Settings {
      if (seeds < 1 || jobs < 100 || nodes < 1 || !(step > 0) || !(maxLoad >= step)) {
        throw new IllegalArgumentException("need seeds >= 1, jobs >= 100, nodes >= 1, step > 0 "
            + "and max load >= step");
      }
    }

    /** The spec's protocol: n = 10, 20,000 jobs, 5 seeds, steps of 0.05 jobs/h. */
    public static Settings spec() {
      return new Settings(10, 20_000, 5, false, 0.05, 20, 3_333_333L, true, false);
    }
  }

  /**
   * One grid point: the spec's verdict ({@code overloaded} runs, {@code sustainable}) and the
   * companion backlog test's ({@code backlogOverloaded}, {@code backlogSustainable}).
   */
  public record Point(double load, List<RunResult<CernSimulation.Metrics>> runs, int overloaded,
      boolean sustainable, RunStats stats, int backlogOverloaded, boolean backlogSustainable) {}

  /**
   * One variant and cache size over the grid, up to the first load unsustainable by both tests.
   * {@code lmax} is the spec's (§6.2); {@code lmaxBacklog} the companion backlog test's.
   */
  public record Curve(Variant variant, double cacheGb, List<Point> points, double lmax,
      double wallSeconds, double lmaxBacklog, boolean lmaxOpen, boolean lmaxBacklogOpen,
      String stop, double lmaxChecked) {
    /** "1.25", or "≥ 2.60" when the scan ended before this test failed. */
    public String lmaxText() {
      return (lmaxOpen ? ">= " : "") + String.format(Locale.ROOT, "%.2f", lmax);
    }

    /** The checked Lmax, with "≥" when the scan ended before any check failed. */
    public String checkedText() {
      boolean open = !points.isEmpty()
          && Math.abs(points.get(points.size() - 1).load() - lmaxChecked) < 1e-9;
      return (open ? ">= " : "") + String.format(Locale.ROOT, "%.2f", lmaxChecked);
    }

    public String lmaxBacklogText() {
      return (lmaxBacklogOpen ? ">= " : "") + String.format(Locale.ROOT, "%.2f", lmaxBacklog);
    }

    /**
     * The load the curves are cut at ("cut when the system leaves the steady state"): the largest
     * grid load such that it and every smaller one pass both tests and lie at or below their
     * measured capacity λ_cap(h) (spec §1.4 with the measured hit ratios).
     */
    public double reportLmax() {
      return lmaxChecked;
    }

    /** Points up to {@link #reportLmax()}. */
    public List<Point> sustainable() {
      return points.stream().filter(p -> p.load() <= reportLmax() + 1e-9).toList();
    }

    /** Points up to the backlog test's Lmax. */
    public List<Point> backlogSustainable() {
      return points.stream().filter(p -> p.load() <= lmaxBacklog + 1e-9).toList();
    }

    /** The sustainable grid point closest to 0.95 · Lmax (at or below it when possible). */
    public Point nearLmax() {
      Point best = null;
      for (Point p : sustainable()) {
        if (p.load() <= 0.95 * reportLmax() + 1e-9) {
          best = p;
        }
      }
      if (best == null && !sustainable().isEmpty()) {
        best = sustainable().get(0);
      }
      return best;
    }
  }

  private final Settings settings;
  private final ExecutorService pool;
  private final PrintWriter log;

  public LoadSweep(Settings settings, ExecutorService pool, PrintWriter log) {
    this.settings = settings;
    this.pool = pool;
    this.log = log;
  }

  /** Warm-up of §6.2: max(2 × cache fill time, 5 periods); fill time = cap_ev · 0.6 s. */
  public static double warmup(Variant v, double cacheGb) {
    Map<String, String> p = new HashMap<>(v.params());
    p.put("cacheGb", Double.toString(cacheGb));
    SplitParams sp = SplitParams.parse(v.policy(), p);
    long capEv = EventCosts.capacityEvents(cacheGb * 1e9, sp.eventBytes());
    double fill = capEv * sp.eventBytes() / 1e6; // n · cap · size / (n · 1 MB/s)
    return Math.max(2 * fill, 5 * maxPeriod(sp));
  }

  static double maxPeriod(SplitParams sp) {
    return switch (sp.policy()) {
      case "DELAYED" -> sp.periodSeconds();
      case "ADAPTIVE_DELAY" -> sp.lmaxTable().lastKey();
      default -> 0;
    };
  }

  /**
   * The largest load at which the quarter rule can still see an overload: queues grow linearly
   * from t = 0 when overloaded, so Q4's mean exceeds twice Q2's only if the warm-up is shorter than
   * an eighth of the measured window (t0 + 3.5 q > 2 (t0 + 1.5 q) ⟺ t0 < q / 2). With the
   * expected last arrival at jobs / λ hours that means λ < 0.1 · jobs · 3600 / warm-up.
   */
  public double detectableLoad(Variant v, double cacheGb) {
    return 0.1 * settings.jobs() * 3600 / warmup(v, cacheGb);
  }

  /**
   * The maximal theoretical load of spec §1.4 for the variant's cost model: n · 3600 / (N̄ ·
   * c_hit), N̄ = 40,000 (3.46 jobs/h for n = 10, serial costs).
   */
  public double maximalLoad(Variant v) {
    EventCosts c = costs(v);
    return EventCosts.capacity(settings.nodes(), 40_000, Math.min(c.cHit(), c.cRemote()));
  }

  static EventCosts costs(Variant v) {
    Map<String, String> p = new HashMap<>(v.params());
    p.put("cacheGb", "100");
    return SplitParams.parse(v.policy(), p).costs();
  }

  /**
   * Scans λ = step, 2·step, …: the spec's Lmax is the last load before its test's first
   * unsustainable point; the backlog test's likewise. The scan goes on while either test is still
   * sustainable, and stops at --max-load, above the maximal theoretical load ({@link
   * #maximalLoad}: no test is needed to know that nothing is sustainable there), or where an
   * overload could no longer be seen ({@link #detectableLoad}); a test that had not failed by then
   * has an open Lmax ("≥").
   */
  public Curve sweep(Variant v, double cacheGb) throws InterruptedException {
    long t0 = System.nanoTime();
    List<Point> points = new ArrayList<>();
    double lmax = 0;
    double lmaxB = 0;
    boolean specOk = true;
    boolean backlogOk = true;
    double limit = detectableLoad(v, cacheGb);
    double physical = maximalLoad(v);
    String stop = "both tests failed";
    for (int k = 1; ; k++) {
      double load = round(k * settings.step());
      if (load > settings.maxLoad() + 1e-9) {
        stop = "--max-load " + settings.maxLoad() + " reached";
        break;
      }
      if (load > physical) {
        stop = String.format(Locale.ROOT, "above %.2f jobs/h, the maximal theoretical load (every"
            + " event from the cache at c_hit, every CPU busy), nothing is sustainable", physical);
        break;
      }
      if (load > limit) {
        stop = String.format(Locale.ROOT, "beyond %.2f jobs/h the quarter rule cannot see an "
            + "overload with %d jobs and a %.0f h warm-up", limit, settings.jobs(),
            warmup(v, cacheGb) / 3600);
        break;
      }
      Point p = point(v, cacheGb, load);
      points.add(p);
      log.printf(Locale.ROOT, "    %-28s %5.0f GB  lambda %5.2f/h: %d/%d overloaded -> %s;"
              + " backlog test %d/%d -> %s  (wait %.2f h, speedup %.2f, h %.3f)%n", v.label(),
          cacheGb, load, p.overloaded(), p.runs().size(),
          p.sustainable() ? "sustainable" : "UNSUSTAINABLE", p.backlogOverloaded(),
          p.runs().size(), p.backlogSustainable() ? "sustainable" : "UNSUSTAINABLE",
          p.stats().waitExcl() / 3600, p.stats().speedup(), p.stats().hitRatio());
      log.flush();
      specOk &= p.sustainable();
      backlogOk &= p.backlogSustainable();
      if (specOk) {
        lmax = load;
      }
      if (backlogOk) {
        lmaxB = load;
      }
      if (!specOk && !backlogOk) {
        break;
      }
    }
    double checked = 0;
    io.locus.core.split.EventCosts costs = costs(v);
    for (Point p : points) {
      if (!p.sustainable() || !p.backlogSustainable()
          || p.load() > p.stats().capacityLoad(settings.nodes(), costs) + 1e-9) {
        break;
      }
      checked = p.load();
    }
    return new Curve(v, cacheGb, points, lmax, (System.nanoTime() - t0) / 1e9, lmaxB, specOk,
        backlogOk, stop, checked);
  }

  static double round(double x) {
    return Math.round(x * 1e6) / 1e6;
  }

  /**
   * Runs the seeds of one grid point (in waves of the pool's width) until both verdicts are
   * settled: a majority of seeds agreeing for the spec's test and for the backlog test.
   */
  public Point point(Variant v, double cacheGb, double load) throws InterruptedException {
    int need = settings.seeds() / 2 + 1; // a majority
    List<RunResult<CernSimulation.Metrics>> runs = new ArrayList<>();
    int over = 0;
    int ok = 0;
    int overB = 0;
    int okB = 0;
    int next = 1;
    while (next <= settings.seeds()) {
      boolean settled = (ok >= need || over >= need) && (okB >= need || overB >= need);
      if (!settings.allSeeds() && settled) {
        break;
      }
      int m1 = ok >= need || over >= need ? 0 : need - Math.max(ok, over);
      int m2 = okB >= need || overB >= need ? 0 : need - Math.max(okB, overB);
      int missing = Math.max(1, Math.max(m1, m2));
      int wave = settings.allSeeds() ? settings.seeds() - next + 1
          : Math.min(settings.seeds() - next + 1, missing);
      List<Future<RunResult<CernSimulation.Metrics>>> fs = new ArrayList<>();
      for (int i = 0; i < wave; i++) {
        int seed = next++;
        fs.add(pool.submit(() -> runOne(v, cacheGb, load, seed)));
      }
      for (Future<RunResult<CernSimulation.Metrics>> f : fs) {
        RunResult<CernSimulation.Metrics> r;
        try {
          r = f.get();
        } catch (ExecutionException e) {
          throw new IllegalStateException(v.label() + " at " + load + " jobs/h: "
              + e.getCause().getMessage(), e.getCause());
        }
        runs.add(r);
        if (r.detail().overloaded()) {
          over++;
        } else {
          ok++;
        }
        if (r.detail().backlogOverloaded()) {
          overB++;
        } else {
          okB++;
        }
      }
    }
    return new Point(load, runs, over, ok >= need, RunStats.of(runs), overB, okB >= need);
  }

  /** One seed at one load. */
  public RunResult<CernSimulation.Metrics> runOne(Variant v, double cacheGb, double load,
      int seed) {
    Map<String, String> wp = new LinkedHashMap<>();
    wp.put("n", Integer.toString(settings.jobs()));
    wp.put("load", Double.toString(load));
    wp.put("space", Long.toString(settings.space()));
    wp.put("hotspots", Boolean.toString(settings.hotSpots()));
    List<TraceJob> jobs = Workloads.create("cern", wp, seed).toList();
    double last = jobs.get(jobs.size() - 1).arrival();
    double warm = warmup(v, cacheGb);
    if (warm >= 0.9 * last) {
      throw new IllegalArgumentException(String.format(Locale.ROOT, "%d jobs at %.2f jobs/h "
          + "arrive over %.0f s, less than the warm-up of %.0f s plus 10 %%: use more jobs",
          settings.jobs(), load, last, warm));
    }
    Map<String, String> params = new HashMap<>(v.params());
    params.put("cacheGb", Double.toString(cacheGb));
    SplitParams sp = SplitParams.parse(v.policy(), params);
    CernSimulation.Config c = new CernSimulation.Config(v.policy(), params, settings.nodes(),
        settings.measureCpu());
    return CernSimulation.run(c, jobs, new CernSimulation.Window(warm, 0.9 * last, true,
        maxPeriod(sp)));
  }
}
