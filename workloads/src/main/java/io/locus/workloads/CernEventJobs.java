package io.locus.workloads;

import io.locus.core.split.EventSpan;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * {@code CernEventJobs} (CERN spec §4, D1–D4): splittable analysis jobs over a data space of D
 * events of 600 KB. Each job is one contiguous segment [s, s + N):
 * <ul>
 *   <li>N = max(MIN, round(Gamma(shape 4, scale 10,000))): Erlang-4, mean 40,000 events, CV 0.5;
 *   <li>s: 25 % uniform in H1 = [0.20 D, 0.25 D), 25 % uniform in H2 = [0.60 D, 0.65 D), 50 %
 *       uniform over the other 90 % of D (hot spots off: uniform over D); floored, then clamped to
 *       ≤ D − N (jobs never wrap);
 *   <li>arrivals: Poisson, exponential gaps with mean 3600 / λ seconds.
 * </ul>
 * Jobs are trace jobs with an {@link TraceJob#events() event range}, no file inputs, and their CPU
 * time (N · 0.2 s) as compute; attribute {@code region} is h1, h2 or cold.
 */
public final class CernEventJobs {
  public static final long DEFAULT_SPACE = 3_333_333L;
  public static final long MIN = 10;
  public static final double SHAPE = 4;
  public static final double SCALE = 10_000;
  public static final double EVENT_BYTES = 600_000;
  public static final double CPU_SECONDS_PER_EVENT = 0.2;

  /** Generator settings. */
  public record Options(int jobs, double jobsPerHour, long space, boolean hotSpots) {
    public Options {
      if (jobs < 0) {
        throw new IllegalArgumentException("jobs must be >= 0, got " + jobs);
      }
      if (!(jobsPerHour > 0) || !Double.isFinite(jobsPerHour)) {
        throw new IllegalArgumentException("load must be a rate > 0 jobs/h, got " + jobsPerHour);
      }
      if (space < 20 * (long) SCALE) {
        throw new IllegalArgumentException("space must be >= " + 20 * (long) SCALE
            + " events, got " + space);
      }
    }
  }

  /** One drawn job: its segment and the region its start came from (0 cold, 1 H1, 2 H2). */
  public record Draw(EventSpan events, int region) {}

  private CernEventJobs() {}

  /** NEXT_JOB(rng) of §4. */
  public static Draw next(SplittableRandom rng, long space, boolean hotSpots) {
    double u = rng.nextDouble();
    double s;
    int region;
    if (!hotSpots) {
      s = rng.nextDouble() * space;
      region = 0;
    } else if (u < 0.25) {
      s = space * (0.20 + 0.05 * rng.nextDouble());
      region = 1;
    } else if (u < 0.50) {
      s = space * (0.60 + 0.05 * rng.nextDouble());
      region = 2;
    } else {
      double x = rng.nextDouble() * 0.90 * space;
      if (x >= 0.20 * space) {
        x += 0.05 * space;
      }
      if (x >= 0.60 * space) {
        x += 0.05 * space;
      }
      s = x;
      region = 0;
    }
    long n = Math.max(MIN, Math.round(GammaMath.sampleGamma(rng, SHAPE, SCALE)));
    long start = Math.min((long) Math.floor(s), space - n);
    return new Draw(new EventSpan(start, start + n), region);
  }

  public static Workload workload(Options o, long seed) {
    return new Workload("cern",
        String.format(java.util.Locale.ROOT, "CernEventJobs (CERN spec §4): %d jobs, %.4g jobs/h"
            + " Poisson, D = %d events of 600 KB, Erlang-4 lengths (mean 40,000), hot spots %s;"
            + " seed %d", o.jobs(), o.jobsPerHour(), o.space(), o.hotSpots() ? "on" : "off", seed),
        o.jobs(), () -> new Iter(o, seed));
  }

  private static final class Iter extends CountingIterator {
    private static final String[] REGION = {"cold", "h1", "h2"};
    private final Options o;
    private final SplittableRandom rng;
    private double t;

    Iter(Options o, long seed) {
      super(o.jobs());
      this.o = o;
      this.rng = new SplittableRandom(seed);
    }

    @Override
    TraceJob make(long k) {
      t += -Math.log(1 - rng.nextDouble()) * 3600 / o.jobsPerHour();
      Draw d = CernEventJobs.next(rng, o.space(), o.hotSpots());
      return new TraceJob("cern-" + k, null, t, List.of(),
          d.events().length() * CPU_SECONDS_PER_EVENT, 0, Map.of("region", REGION[d.region()]),
          d.events());
    }
  }
}
