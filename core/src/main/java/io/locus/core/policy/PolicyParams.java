package io.locus.core.policy;

import java.util.Map;

/**
 * Reading a policy parameter from a pool's string map, with the messages every factory in {@link
 * PolicyRegistry} gives: each names the parameter, the bad value and what is allowed.
 */
final class PolicyParams {
  private PolicyParams() {}

  /** A partitioner by name, case-insensitive; GreedyKm1 (the spec's default, D7) when null. */
  static io.locus.hypergraph.Partitioner partitioner(String name) {
    if (name == null) {
      return io.locus.hypergraph.Partitioners.create("GreedyKm1");
    }
    for (String n : io.locus.hypergraph.Partitioners.NAMES) {
      if (n.equalsIgnoreCase(name.trim().replace("-", ""))) {
        return io.locus.hypergraph.Partitioners.create(n);
      }
    }
    throw new IllegalArgumentException("unknown partitioner '" + name + "'; valid: "
        + String.join(", ", io.locus.hypergraph.Partitioners.NAMES));
  }

  static int intParam(Map<String, String> p, String key, int dflt) {
    String v = p == null ? null : p.get(key);
    try {
      return v == null ? dflt : Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("parameter " + key + " must be an integer, got '" + v + "'");
    }
  }

  static long longParam(Map<String, String> p, String key, long dflt) {
    String v = p == null ? null : p.get(key);
    if (v == null) {
      return dflt;
    }
    try {
      return Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      // an integral double such as "7.0" is accepted (older configurations wrote seeds so)
    }
    double d = doubleParam(p, key, dflt);
    if (d != Math.rint(d) || Math.abs(d) > 0x1p53) {
      throw new IllegalArgumentException("parameter " + key + " must be an integer, got '" + v
          + "'");
    }
    return (long) d;
  }

  /** A finite number (never NaN nor an infinity), {@code dflt} when absent. */
  static double doubleParam(Map<String, String> p, String key, double dflt) {
    String v = p == null ? null : p.get(key);
    if (v == null) {
      return dflt;
    }
    double d;
    try {
      d = Double.parseDouble(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("parameter " + key + " must be a number, got '" + v + "'");
    }
    if (!Double.isFinite(d)) {
      throw new IllegalArgumentException("parameter " + key + " must be a finite number, got '"
          + v + "'");
    }
    return d;
  }

  /** A finite number > 0. */
  static double positive(Map<String, String> p, String key, double dflt) {
    double d = doubleParam(p, key, dflt);
    if (!(d > 0)) {
      throw new IllegalArgumentException("parameter " + key + " must be > 0, got '"
          + p.get(key) + "'");
    }
    return d;
  }

  /** A finite number in [0, 1]. */
  static double fraction(Map<String, String> p, String key, double dflt) {
    double d = doubleParam(p, key, dflt);
    if (!(d >= 0 && d <= 1)) {
      throw new IllegalArgumentException("parameter " + key + " must be in [0, 1], got '"
          + p.get(key) + "'");
    }
    return d;
  }
}
