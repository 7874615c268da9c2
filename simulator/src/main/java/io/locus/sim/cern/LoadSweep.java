package io.locus.sim.cern;

import io.locus.core.split.EventCosts;
import io.locus.core.split.SplitParams;
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

  /** One grid point. */
  public record Point(double load, List<CernSimulation.Result> runs, int overloaded,
      boolean sustainable, RunStats stats) {}

  /** One variant and cache size over the grid, up to the first unsustainable load. */
  public record Curve(Variant variant, double cacheGb, List<Point> points, double lmax,
      double wallSeconds) {
    /** Points up to Lmax ("cut when the system leaves the steady state"). */
    public List<Point> sustainable() {
      return points.stream().filter(p -> p.load() <= lmax + 1e-9).toList();
    }

    /** The sustainable grid point closest to 0.95 · Lmax (at or below it when possible). */
    public Point nearLmax() {
      Point best = null;
      for (Point p : sustainable()) {
        if (p.load() <= 0.95 * lmax + 1e-9) {
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

  public Curve sweep(Variant v, double cacheGb) throws InterruptedException {
    long t0 = System.nanoTime();
    List<Point> points = new ArrayList<>();
    double lmax = 0;
    for (int k = 1; k * settings.step() <= settings.maxLoad() + 1e-9; k++) {
      double load = round(k * settings.step());
      Point p = point(v, cacheGb, load);
      points.add(p);
      log.printf(Locale.ROOT, "    %-28s %5.0f GB  lambda %5.2f/h: %d/%d overloaded -> %s"
              + "  (wait %.2f h, speedup %.2f, h %.3f)%n", v.label(), cacheGb, load,
          p.overloaded(), p.runs().size(), p.sustainable() ? "sustainable" : "UNSUSTAINABLE",
          p.stats().waitExcl() / 3600, p.stats().speedup(), p.stats().hitRatio());
      log.flush();
      if (!p.sustainable()) {
        break;
      }
      lmax = load;
    }
    return new Curve(v, cacheGb, points, lmax, (System.nanoTime() - t0) / 1e9);
  }

  static double round(double x) {
    return Math.round(x * 1e6) / 1e6;
  }

  /** Runs the seeds of one grid point (in waves of the pool's width) until the verdict is settled. */
  public Point point(Variant v, double cacheGb, double load) throws InterruptedException {
    int need = settings.seeds() / 2 + 1; // a majority
    List<CernSimulation.Result> runs = new ArrayList<>();
    int over = 0;
    int ok = 0;
    int next = 1;
    while (next <= settings.seeds()) {
      if (!settings.allSeeds() && (ok >= need || over >= need)) {
        break;
      }
      int wave = settings.allSeeds() ? settings.seeds() - next + 1
          : Math.min(settings.seeds() - next + 1, Math.max(1, need - Math.max(ok, over)));
      List<Future<CernSimulation.Result>> fs = new ArrayList<>();
      for (int i = 0; i < wave; i++) {
        int seed = next++;
        fs.add(pool.submit(() -> runOne(v, cacheGb, load, seed)));
      }
      for (Future<CernSimulation.Result> f : fs) {
        CernSimulation.Result r;
        try {
          r = f.get();
        } catch (ExecutionException e) {
          throw new IllegalStateException(v.label() + " at " + load + " jobs/h: "
              + e.getCause().getMessage(), e.getCause());
        }
        runs.add(r);
        if (r.overloaded()) {
          over++;
        } else {
          ok++;
        }
      }
    }
    return new Point(load, runs, over, ok >= need, RunStats.of(runs));
  }

  /** One seed at one load. */
  public CernSimulation.Result runOne(Variant v, double cacheGb, double load, int seed) {
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
