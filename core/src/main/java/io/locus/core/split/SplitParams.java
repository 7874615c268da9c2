package io.locus.core.split;

import io.locus.core.policy.PolicyDescriptor;
import io.locus.core.policy.PolicyRegistry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The parameters of a split policy (spec §1.1, §2), parsed from strings with the spec's defaults.
 * Durations accept a unit suffix: {@code 172800}, {@code 48h}, {@code 2d}, {@code 1w}, {@code 30m},
 * {@code 90s}. Every error names the parameter, the bad value and what is allowed.
 *
 * @param policy canonical policy name (FARM, JOB_SPLITTING, …)
 * @param cacheEvents per-node cache capacity in events (unused by FARM and JOB_SPLITTING)
 * @param eventBytes bytes per event (600 KB)
 * @param costs the per-event cost model with the pipelining switches
 * @param replication OUT_OF_ORDER only: read other nodes' caches, replicate on the 3rd access
 * @param min MIN, the minimal subjob size in events (D8)
 * @param starveSeconds T_starve of OUT_OF_ORDER (D16)
 * @param replicationThreshold R_repl, the remote access that replicates (3)
 * @param stripe S of DELAYED and ADAPTIVE_DELAY, in events
 * @param periodSeconds d of DELAYED (0 = schedule at arrival)
 * @param lmaxTable ADAPTIVE_DELAY: calibrated Lmax (jobs/h) per period d (seconds), increasing d
 * @param margin ADAPTIVE_DELAY: required headroom (0.1 = Lmax ≥ 1.1 · λ̂)
 * @param windowSeconds ADAPTIVE_DELAY: λ̂ window (24 h)
 * @param hysteresis ADAPTIVE_DELAY: consecutive evaluations needed before decreasing d (2)
 * @param evaluateSeconds ADAPTIVE_DELAY: evaluation period while d = 0 (1 h)
 */
public record SplitParams(String policy, long cacheEvents, double eventBytes, EventCosts costs,
    boolean replication, long min, double starveSeconds, int replicationThreshold, long stripe,
    double periodSeconds, TreeMap<Double, Double> lmaxTable, double margin, double windowSeconds,
    int hysteresis, double evaluateSeconds) {

  /** The split policies' names, from {@link io.locus.core.policy.PolicyRegistry}. */
  public static final List<String> POLICIES = PolicyRegistry.splitNames();

  /**
   * Parameter names with their defaults and meaning, in documentation order: a view of the
   * registry's split parameters (every split policy takes the same set).
   */
  public static final Map<String, String[]> DOC;

  static {
    Map<String, String[]> doc = new LinkedHashMap<>();
    for (PolicyDescriptor.Param p : PolicyRegistry.splitParams()) {
      doc.put(p.name(), new String[] {p.defaultValue(), p.range()});
    }
    DOC = java.util.Collections.unmodifiableMap(doc);
  }

  public SplitParams {
    lmaxTable = lmaxTable == null ? new TreeMap<>() : new TreeMap<>(lmaxTable);
  }

  public boolean caching() {
    return !policy.equals("FARM") && !policy.equals("JOB_SPLITTING");
  }

  /** Canonical policy name from a user spelling: case-insensitive, '-' or '_' separators. */
  public static String canonical(String name) {
    if (name == null) {
      throw new IllegalArgumentException("policy name is required; valid: "
          + String.join(", ", POLICIES));
    }
    String c = name.trim().toUpperCase(Locale.ROOT).replace('-', '_');
    if (!POLICIES.contains(c)) {
      throw new IllegalArgumentException("unknown split policy '" + name + "'; valid: "
          + String.join(", ", POLICIES) + " (case-insensitive)");
    }
    return c;
  }

  /** Parses {@code params} for {@code policy}; absent parameters take the spec defaults. */
  public static SplitParams parse(String policy, Map<String, String> params) {
    String p = canonical(policy);
    Map<String, String> v = new TreeMap<>();
    if (params != null) {
      for (Map.Entry<String, String> e : params.entrySet()) {
        if (!DOC.containsKey(e.getKey())) {
          throw new IllegalArgumentException("unknown parameter '" + e.getKey() + "' for " + p
              + "; valid: " + String.join(", ", DOC.keySet()));
        }
        if (e.getValue() != null) {
          v.put(e.getKey(), e.getValue().trim());
        }
      }
    }
    Reader r = new Reader(p, v);
    double eventBytes = r.positive("eventBytes");
    long cacheEvents = v.containsKey("cacheEvents") ? r.nonNegativeLong("cacheEvents")
        : EventCosts.capacityEvents(r.nonNegative("cacheGb") * 1e9, eventBytes);
    EventCosts costs = new EventCosts(r.positive("tCpu"), r.positive("tDisk"),
        r.positive("tTape"), r.bool("tapePipelining"), r.bool("diskPipelining"));
    boolean replication = r.bool("replication");
    if (replication && !p.equals("OUT_OF_ORDER")) {
      throw new IllegalArgumentException("replication=true is only valid for OUT_OF_ORDER, not "
          + p);
    }
    long min = r.positiveLong("min");
    double starve = r.duration("starve");
    int threshold = r.positiveInt("replicationThreshold");
    long stripe = r.positiveLong("stripe");
    if (stripe < 2 * min) {
      throw new IllegalArgumentException("stripe must be >= 2 * min (" + 2 * min + "), got "
          + stripe);
    }
    double period = r.duration("period");
    TreeMap<Double, Double> table = new TreeMap<>();
    if (p.equals("ADAPTIVE_DELAY")) {
      if (!v.containsKey("lmaxTable") || v.get("lmaxTable").isEmpty()) {
        throw new IllegalArgumentException("ADAPTIVE_DELAY needs lmaxTable, the calibrated "
            + "sustainable load of DELAYED per period, as d:Lmax pairs, e.g. "
            + "lmaxTable=0:1.0,1d:1.5,2d:2.0 (d with unit s|m|h|d|w, Lmax in jobs/h)");
      }
      table = parseTable(v.get("lmaxTable"));
    } else if (v.containsKey("lmaxTable")) {
      throw new IllegalArgumentException("lmaxTable is only valid for ADAPTIVE_DELAY, not " + p);
    }
    return new SplitParams(p, cacheEvents, eventBytes, costs, replication, min, starve,
        threshold, stripe, period, table, r.nonNegative("margin"), r.durationPositive("window"),
        r.positiveInt("hysteresis"), r.durationPositive("evaluate"));
  }

  /** The parameters as strings that {@link #parse} turns back into an equal record. */
  public Map<String, String> toMap() {
    Map<String, String> m = new TreeMap<>();
    m.put("cacheEvents", Long.toString(cacheEvents));
    m.put("eventBytes", Double.toString(eventBytes));
    m.put("tCpu", Double.toString(costs.tCpu()));
    m.put("tDisk", Double.toString(costs.tDisk()));
    m.put("tTape", Double.toString(costs.tTape()));
    m.put("tapePipelining", Boolean.toString(costs.tapePipelining()));
    m.put("diskPipelining", Boolean.toString(costs.diskPipelining()));
    m.put("replication", Boolean.toString(replication));
    m.put("min", Long.toString(min));
    m.put("starve", Double.toString(starveSeconds));
    m.put("replicationThreshold", Integer.toString(replicationThreshold));
    m.put("stripe", Long.toString(stripe));
    m.put("period", Double.toString(periodSeconds));
    if (!lmaxTable.isEmpty()) {
      List<String> pairs = new ArrayList<>();
      lmaxTable.forEach((d, l) -> pairs.add(d + ":" + l));
      m.put("lmaxTable", String.join(",", pairs));
    }
    m.put("margin", Double.toString(margin));
    m.put("window", Double.toString(windowSeconds));
    m.put("hysteresis", Integer.toString(hysteresis));
    m.put("evaluate", Double.toString(evaluateSeconds));
    return m;
  }

  static TreeMap<Double, Double> parseTable(String text) {
    TreeMap<Double, Double> t = new TreeMap<>();
    for (String pair : text.split("[,;]")) {
      String[] kv = pair.trim().split(":");
      if (kv.length != 2) {
        throw new IllegalArgumentException("lmaxTable entry '" + pair.trim()
            + "' is not d:Lmax (e.g. 2d:1.8)");
      }
      double d = parseDuration("lmaxTable", kv[0].trim());
      double l;
      try {
        l = Double.parseDouble(kv[1].trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("lmaxTable: Lmax '" + kv[1].trim()
            + "' is not a number (jobs/h)");
      }
      if (!(l >= 0) || !Double.isFinite(l)) {
        throw new IllegalArgumentException("lmaxTable: Lmax must be a finite number >= 0, got "
            + kv[1].trim());
      }
      if (t.put(d, l) != null) {
        throw new IllegalArgumentException("lmaxTable: period " + kv[0].trim() + " given twice");
      }
    }
    return t;
  }

  /** Seconds from "172800", "48h", "2d", "1w", "30m", "90s". */
  public static double parseDuration(String name, String s) {
    String t = s.trim().toLowerCase(Locale.ROOT);
    double unit = 1;
    if (!t.isEmpty()) {
      char c = t.charAt(t.length() - 1);
      switch (c) {
        case 's' -> unit = 1;
        case 'm' -> unit = 60;
        case 'h' -> unit = 3600;
        case 'd' -> unit = 86400;
        case 'w' -> unit = 7 * 86400;
        default -> unit = 0;
      }
      if (unit != 0) {
        t = t.substring(0, t.length() - 1);
      } else {
        unit = 1;
      }
    }
    try {
      double v = Double.parseDouble(t) * unit;
      if (v >= 0 && Double.isFinite(v)) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("parameter '" + name + "' must be a duration >= 0 "
        + "(seconds, or a number with unit s|m|h|d|w such as 2d), got '" + s + "'");
  }

  private record Reader(String policy, Map<String, String> v) {
    String get(String name) {
      String s = v.get(name);
      return s != null ? s : DOC.get(name)[0];
    }

    double number(String name) {
      String s = get(name);
      try {
        double d = Double.parseDouble(s);
        if (Double.isFinite(d)) {
          return d;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new IllegalArgumentException("parameter '" + name + "' must be a finite number, got '"
          + s + "'");
    }

    double positive(String name) {
      double d = number(name);
      if (!(d > 0)) {
        throw new IllegalArgumentException("parameter '" + name + "' must be > 0, got " + d);
      }
      return d;
    }

    double nonNegative(String name) {
      double d = number(name);
      if (!(d >= 0)) {
        throw new IllegalArgumentException("parameter '" + name + "' must be >= 0, got " + d);
      }
      return d;
    }

    long longValue(String name) {
      String s = get(name);
      try {
        return Long.parseLong(s.replace("_", ""));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("parameter '" + name + "' must be an integer, got '"
            + s + "'");
      }
    }

    long positiveLong(String name) {
      long l = longValue(name);
      if (l <= 0) {
        throw new IllegalArgumentException("parameter '" + name + "' must be >= 1, got " + l);
      }
      return l;
    }

    /** An integer in [1, 2^31 - 1]: a larger one would wrap around to a negative int. */
    int positiveInt(String name) {
      long l = positiveLong(name);
      if (l > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("parameter '" + name + "' must be at most "
            + Integer.MAX_VALUE + ", got " + l);
      }
      return (int) l;
    }

    long nonNegativeLong(String name) {
      long l = longValue(name);
      if (l < 0) {
        throw new IllegalArgumentException("parameter '" + name + "' must be >= 0, got " + l);
      }
      return l;
    }

    boolean bool(String name) {
      String s = get(name).toLowerCase(Locale.ROOT);
      if (s.equals("true") || s.equals("false")) {
        return Boolean.parseBoolean(s);
      }
      throw new IllegalArgumentException("parameter '" + name + "' must be true or false, got '"
          + get(name) + "'");
    }

    double duration(String name) {
      return parseDuration(name, get(name));
    }

    double durationPositive(String name) {
      double d = duration(name);
      if (!(d > 0)) {
        throw new IllegalArgumentException("parameter '" + name + "' must be a duration > 0, got '"
            + get(name) + "'");
      }
      return d;
    }
  }
}
