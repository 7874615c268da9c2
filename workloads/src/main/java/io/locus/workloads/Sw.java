package io.locus.workloads;

import io.locus.core.model.InputFile;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * {@code SW}, sine-wave arrivals (data-diffusion spec §4.2, D15).
 *
 * <p>In second sec, A(sec) = ⌊(sin(√(m + 0.11) · 2.859678) + 1) · (m + 0.11) · 5.705⌋ tasks arrive
 * (m = sec / 60), evenly spaced in [sec, sec + 1). This is the spec's corrected bracketing; the
 * printed one gives neither the stated total nor the stated maximum. Generation stops at 2,000,000
 * tasks, which is exactly the end of second 6503. Each task reads one 10 MB file drawn uniformly,
 * with replacement, from 100,000 (1 TB), then computes for 10 ms.
 */
public final class Sw {
  public static final int TASKS = 2_000_000;
  public static final int FILES = 100_000;
  public static final long FILE_BYTES = 10 * Units.MB;
  public static final double COMPUTE_SECONDS = 0.010;

  private Sw() {}

  /** A(sec): tasks arriving in second sec. */
  public static int rate(long sec) {
    double m = sec / 60.0 + 0.11;
    return (int) Math.floor((Math.sin(Math.sqrt(m) * 2.859678) + 1) * m * 5.705);
  }

  public static Workload workload(long seed) {
    return new Workload("sw",
        "SW (data-diffusion §4.2): 2,000,000 tasks, 1 of 100,000 x 10 MB files each, "
            + "10 ms compute; sine-wave rate peaking at 1000/s; seed " + seed,
        TASKS, () -> new Iter(seed));
  }

  private static final class Iter extends CountingIterator {
    private final SplittableRandom rng;
    private long sec = -1;
    private int rate;
    private int inSec;

    Iter(long seed) {
      super(TASKS);
      rng = new SplittableRandom(seed);
    }

    @Override
    TraceJob make(long k) {
      while (inSec == rate) { // also skips the troughs, where A(sec) = 0
        sec++;
        rate = rate(sec);
        inSec = 0;
      }
      double arrival = sec + (double) inSec / rate;
      inSec++;
      InputFile in = new InputFile("sw-f" + rng.nextInt(FILES), FILE_BYTES, 0.0, null, null);
      return new TraceJob("sw-" + k, null, arrival, List.of(in), COMPUTE_SECONDS, 0, Map.of());
    }
  }
}
