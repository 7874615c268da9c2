package io.locus.cli.chaos;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Which failure comes when: a pure function of (count, kinds, seed), so that a run can be
 * repeated. Each kind is used in turn (in an order shuffled by the seed) until {@code count}
 * failures are planned, so every kind given occurs when {@code count >= kinds}; the failures are
 * spread evenly over 10 %..85 % of the run's progress (the fraction of tasks completed when each
 * is injected), each moved by up to a quarter of the spacing or 5 points, whichever is less.
 * Progress rather than wall time: a run's speed depends on the machine, its position in the work
 * should not.
 */
public final class FailureSchedule {
  static final double FIRST = 0.10;
  static final double LAST = 0.85;

  /** One planned failure: its kind and the fraction of tasks completed that triggers it. */
  public record Planned(FailureKind kind, double at) {}

  private FailureSchedule() {}

  public static List<Planned> plan(int count, List<FailureKind> kinds, long seed) {
    if (count < 0) {
      throw new IllegalArgumentException("--failures must be >= 0, not " + count);
    }
    if (count > 0 && kinds.isEmpty()) {
      throw new IllegalArgumentException("--kinds is empty");
    }
    SplittableRandom rnd = new SplittableRandom(seed);
    List<FailureKind> order = new ArrayList<>(kinds);
    // Fisher-Yates with the seeded generator (Collections.shuffle wants a java.util.Random)
    for (int i = order.size() - 1; i > 0; i--) {
      Collections.swap(order, i, rnd.nextInt(i + 1));
    }
    List<Planned> out = new ArrayList<>(count);
    double spacing = count <= 1 ? 0 : (LAST - FIRST) / (count - 1);
    for (int i = 0; i < count; i++) {
      double base = count == 1 ? (FIRST + LAST) / 2 : FIRST + i * spacing;
      double jitter = (rnd.nextDouble() - 0.5) * Math.min(spacing / 2, 0.10);
      out.add(new Planned(order.get(i % order.size()), base + jitter));
    }
    return out;
  }
}
