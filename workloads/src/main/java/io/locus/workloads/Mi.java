package io.locus.workloads;

import io.locus.core.model.InputFile;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * {@code MI}, monotonically increasing arrivals (data-diffusion spec §4.1, D14).
 *
 * <p>Rates A_0 = 1, A_i = min(⌈1.3 · A_{i−1}⌉, 1000), each held for 60 s. The j-th task (0-based)
 * of step i arrives at 60·i + j / A_i, evenly spaced. Generation stops after 250,000 tasks, part-way
 * through the 1000/s step. Each task reads one 10 MB file drawn uniformly, with replacement, from
 * 10,000, then computes for 10 ms. Files live on the shared file system (location null).
 */
public final class Mi {
  public static final int TASKS = 250_000;
  public static final int FILES = 10_000;
  public static final long FILE_BYTES = 10 * Units.MB;
  public static final double COMPUTE_SECONDS = 0.010;
  public static final int STEP_SECONDS = 60;
  public static final int MAX_RATE = 1000;
  /** Steps A_0 … A_23 of the published rate list; the last one is the first at MAX_RATE. */
  public static final int STEPS = 24;

  private Mi() {}

  /** A_i for any step i ≥ 0 (it stays at MAX_RATE after step 23). */
  public static int rate(int step) {
    int a = 1;
    for (int i = 1; i <= step && a < MAX_RATE; i++) {
      // ⌈1.3·a⌉ in integers: in doubles 1.3·20 = 26.000000000000004, whose ceiling 27 is not
      // the spec's 26.
      a = Math.min((13 * a + 9) / 10, MAX_RATE);
    }
    return a;
  }

  /** The published rate list A_0 … A_23. */
  public static int[] rates() {
    int[] r = new int[STEPS];
    for (int i = 0; i < STEPS; i++) {
      r[i] = rate(i);
    }
    return r;
  }

  public static Workload workload(long seed) {
    return new Workload("mi",
        "MI (data-diffusion §4.1): 250,000 tasks, 1 of 10,000 x 10 MB files each, 10 ms compute; "
            + "60 s steps, rate x1.3 up to 1000/s; seed " + seed,
        TASKS, () -> new Iter(seed));
  }

  private static final class Iter extends CountingIterator {
    private final SplittableRandom rng;
    private int step;
    private int rate = rate(0);
    private long inStep;

    Iter(long seed) {
      super(TASKS);
      rng = new SplittableRandom(seed);
    }

    @Override
    TraceJob make(long k) {
      if (inStep == (long) STEP_SECONDS * rate) {
        step++;
        rate = rate(step);
        inStep = 0;
      }
      double arrival = (double) STEP_SECONDS * step + (double) inStep / rate;
      inStep++;
      int file = rng.nextInt(FILES);
      InputFile in = new InputFile("mi-f" + file, FILE_BYTES, 0.0, null, null);
      return new TraceJob("mi-" + k, null, arrival, List.of(in), COMPUTE_SECONDS, 0,
          Map.of("step", Integer.toString(step)));
    }
  }
}
