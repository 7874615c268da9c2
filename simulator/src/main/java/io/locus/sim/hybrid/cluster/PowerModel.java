package io.locus.sim.hybrid.cluster;

import java.util.List;

/**
 * Energy per §1.6 and §6 (D13). Power is a function of the number of powered nodes x; the
 * thesis's chassis fits (12 → 4 blades) are {@link #LINEAR} (116 x + 572 W, the default: 116 W per
 * node plus 572 W of chassis and cooling) and {@link #QUADRATIC}. Energies are compared over
 * equal windows: a schedule shorter than the window is padded with idle power.
 */
public record PowerModel(double a2, double a1, double a0) {
  public static final PowerModel LINEAR = new PowerModel(0, 116, 572);
  public static final PowerModel QUADRATIC = new PowerModel(7.2, 4.2, 965);
  /** §1.6: 1 W = 3.412 BTU/h. */
  public static final double BTU_PER_HOUR_PER_WATT = 3.412;

  /** Chassis power in W with x powered nodes. */
  public double watts(double x) {
    return a2 * x * x + a1 * x + a0;
  }

  public static double thermalBtuPerHour(double watts) {
    return watts * BTU_PER_HOUR_PER_WATT;
  }

  /** A stretch of a schedule at constant power. */
  public record Segment(double duration, double watts) {
    public Segment {
      if (!(duration >= 0) || !(watts >= 0)) {
        throw new IllegalArgumentException("duration and power must be >= 0");
      }
    }
  }

  /** Length of a schedule. */
  public static double length(List<Segment> schedule) {
    return schedule.stream().mapToDouble(Segment::duration).sum();
  }

  /**
   * E = Σ P · Δt over {@code window}, the schedule padded with {@code idleWatts} after its end
   * (D13). Units: watts × the duration's unit (W·min for minutes).
   *
   * @throws IllegalArgumentException if the schedule is longer than the window
   */
  public static double energy(List<Segment> schedule, double window, double idleWatts) {
    double len = length(schedule);
    if (len > window + 1e-9) {
      throw new IllegalArgumentException("schedule of length " + len + " exceeds the window "
          + window + "; compare over the longer schedule's length");
    }
    double e = 0;
    for (Segment s : schedule) {
      e += s.duration() * s.watts();
    }
    return e + (window - len) * idleWatts;
  }
}
