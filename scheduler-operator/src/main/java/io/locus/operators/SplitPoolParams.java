package io.locus.operators;

import io.locus.core.split.SplitParams;
import io.locus.core.split.SplitPolicies;
import io.locus.core.split.SplitPolicy;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The names and parameters of a split pool: which names are split policies, their canonical
 * spelling, and the parameters the {@link SplitPoolDriver} takes itself ({@code dataset},
 * {@code timeScale}) beside the core's ({@link SplitParams}). The CLI, the configuration and
 * {@link PoolDrivers} ask here, so a bad parameter is refused before a pool is built.
 */
public final class SplitPoolParams {
  /** Parameters the driver takes itself, with defaults and meaning; the rest go to SplitParams. */
  public static final Map<String, String[]> DRIVER_DOC = new LinkedHashMap<>();

  static {
    DRIVER_DOC.put("dataset", new String[] {"", "the one dataset the pool's jobs read "
        + "(default: the first accepted job's)"});
    DRIVER_DOC.put("timeScale", new String[] {"1", "wall-clock seconds per model second, as the "
        + "agents' time scale: the policy clock is (event time - first event time) / timeScale"});
  }

  /** A split pool's policy core and the driver's own settings (dataset null: the first job's). */
  record Parsed(SplitPolicy core, double timeScale, String dataset) {}

  private SplitPoolParams() {}

  /** Whether {@code name} is a split policy (any spelling {@link SplitParams#canonical} takes). */
  public static boolean isSplitPolicy(String name) {
    if (name == null) {
      return false;
    }
    String c = name.trim().toUpperCase(Locale.ROOT).replace('-', '_');
    return SplitParams.POLICIES.contains(c);
  }

  /** The canonical split policy name (OUT_OF_ORDER for out-of-order, ...). */
  public static String canonical(String name) {
    return SplitParams.canonical(name);
  }

  /**
   * Checks a split pool's policy and parameters; an {@link IllegalArgumentException} names the bad
   * parameter and what is allowed.
   */
  public static void validate(String policy, Map<String, String> params) {
    parse(policy, params);
  }

  /** Parameter documentation, one line each, for help texts. */
  public static String usage() {
    StringBuilder sb = new StringBuilder(SplitPolicies.usage());
    DRIVER_DOC.forEach((k, v) -> sb.append("  ").append(k)
        .append(v[0].isEmpty() ? "" : "=" + v[0]).append(": ").append(v[1]).append('\n'));
    return sb.toString();
  }

  static Parsed parse(String policy, Map<String, String> params) {
    Map<String, String> core = new TreeMap<>();
    String dataset = null;
    double scale = 1;
    for (Map.Entry<String, String> e : (params == null ? Map.<String, String>of() : params)
        .entrySet()) {
      String v = e.getValue() == null ? null : e.getValue().trim();
      switch (e.getKey()) {
        case "dataset" -> {
          if (v == null || v.isEmpty()) {
            throw new IllegalArgumentException("parameter 'dataset' must not be blank (leave it "
                + "out to take the first job's dataset)");
          }
          dataset = v;
        }
        case "timeScale" -> scale = timeScale(v);
        default -> core.put(e.getKey(), e.getValue());
      }
    }
    try {
      return new Parsed(SplitPolicies.create(policy, core), scale, dataset);
    } catch (IllegalArgumentException e) {
      String m = e.getMessage();
      if (m != null && m.startsWith("unknown parameter")) {
        m += ", " + String.join(", ", DRIVER_DOC.keySet());
      }
      throw new IllegalArgumentException(m, e);
    }
  }

  private static double timeScale(String v) {
    try {
      double d = Double.parseDouble(v);
      if (d > 0 && Double.isFinite(d)) {
        return d;
      }
    } catch (NumberFormatException | NullPointerException e) {
      // reported below
    }
    throw new IllegalArgumentException("parameter 'timeScale' must be a number > 0 (wall seconds "
        + "per model second, e.g. 0.01 for agents 100 times faster than real time), got '" + v
        + "'");
  }
}
