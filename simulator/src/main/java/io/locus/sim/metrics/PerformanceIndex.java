package io.locus.sim.metrics;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Performance index PI (spec §6, D17): SP / CPU_T of each configuration, divided by the largest
 * SP / CPU_T of the experiment set, so the best configuration scores 1.
 */
public final class PerformanceIndex {
  /** One configuration's speedup and CPU hours. */
  public record Input(double speedup, double cpuHours) {
    public double raw() {
      return speedup / cpuHours;
    }
  }

  private PerformanceIndex() {}

  /** PI per configuration, in the input's order. */
  public static Map<String, Double> normalise(Map<String, Input> set) {
    double max = 0;
    for (Input in : set.values()) {
      if (!(in.cpuHours() > 0)) {
        throw new IllegalArgumentException("CPU hours must be > 0: " + in);
      }
      max = Math.max(max, in.raw());
    }
    Map<String, Double> out = new LinkedHashMap<>();
    for (Map.Entry<String, Input> e : set.entrySet()) {
      out.put(e.getKey(), max > 0 ? e.getValue().raw() / max : Double.NaN);
    }
    return out;
  }
}
