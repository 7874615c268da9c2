package io.locus.core.policy;

import io.locus.core.staging.CostModel;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Builds a policy from its name and the pool's string parameters (as a Control record carries them).
 * Data diffusion: FA, FCA, MCU, MCH, GCC ({@code window}, {@code theta}). Khanna: MET, MCT, SA,
 * JDPDLL, with the cost model ({@code rbw}, {@code lbw}, {@code c}, {@code storageNodes}; defaults
 * D26), SA's {@code l} and {@code h} (0.3, 0.7; D20) and JDPDLL's {@code thresh} (2; D15).
 * ONLINE_HPS: the cost model, {@code eps} (0.10), {@code partitioner} (GreedyKm1 | MultilevelKm1 |
 * Greedy | RandomBalanced, case-insensitive),
 * {@code seed} (0), and the re-partitioning budget {@code repartitionInterval} (seconds, 0) and
 * {@code repartitionEvents} (1). COMPLEMENTARY_PLACE (hybrid spec §2.6): {@code w_loc}, {@code w_comp},
 * {@code w_pk}, {@code h}, {@code D_node}, {@code D_rack}, {@code aging}, {@code delay} and
 * {@code window} (see {@link io.locus.core.hybrid.ComplementaryPlace#of}). EFT (Locus's own, {@link
 * EarliestFinish}): the cost model and {@code window}, {@code nicGbps} (1), {@code diskGbps}
 * (1.1875) and {@code caches} (auto | staged | agent).
 *
 * <p>Every file policy also takes the pool parameter {@code maxQueueDepth} (late binding, default
 * {@value #DEFAULT_MAX_QUEUE_DEPTH}): the most local-queue positions beyond its slots the pool
 * uses on a node, whatever the node advertises; 0 turns late binding off. The policy itself does
 * not read it (see {@link #maxQueueDepth}); the driver caps each node's advertised depth with it.
 */
public final class Policies {
  public static final List<String> NAMES =
      List.of("FA", "FCA", "MCU", "MCH", "GCC", "MET", "MCT", "SA", "JDPDLL", "ONLINE_HPS",
          "COMPLEMENTARY_PLACE", "EFT");
  /** Spec defaults for MI and SW: window W = 2500, GCC threshold θ = 0.9. */
  public static final int DEFAULT_WINDOW = 2500;
  public static final double DEFAULT_THETA = 0.9;
  /** The pool parameter capping the local-queue depth a node may advertise (late binding). */
  public static final String MAX_QUEUE_DEPTH = "maxQueueDepth";
  public static final int DEFAULT_MAX_QUEUE_DEPTH = 16;
  /** The largest maxQueueDepth accepted: a bound on how much work one node can hold back. */
  public static final int MAX_MAX_QUEUE_DEPTH = 1024;

  private Policies() {}

  /** Data diffusion's parameters (every data-diffusion policy takes both, as the simulator does). */
  private static final List<String> DIFFUSION_PARAMS = List.of("window", "theta",
      MAX_QUEUE_DEPTH);
  private static final List<String> COST_PARAMS = List.of("window", "rbw", "lbw", "c",
      "storageNodes", MAX_QUEUE_DEPTH);

  /**
   * The parameter names a policy takes (COMPLEMENTARY_PLACE's case-insensitively), or null for an
   * unknown policy.
   */
  public static List<String> parameters(String name) {
    return switch (name.toUpperCase(Locale.ROOT)) {
      case "FA", "FCA", "MCU", "MCH", "GCC" -> DIFFUSION_PARAMS;
      case "MET", "MCT" -> COST_PARAMS;
      case "SA" -> concat(COST_PARAMS, "l", "h");
      case "JDPDLL" -> concat(COST_PARAMS, "thresh");
      case "ONLINE_HPS", "ONLINE-HPS", "HPS" -> concat(COST_PARAMS, "eps", "partitioner", "seed",
          "repartitionInterval", "repartitionEvents");
      case "EFT", "EARLIEST_FINISH" -> concat(COST_PARAMS, "nicGbps", "diskGbps", "caches");
      case "COMPLEMENTARY_PLACE", "COMPLEMENTARY-PLACE" -> List.of("window", "w_loc", "w_comp",
          "w_pk", "h", "d_node", "d_rack", "aging", "delay", MAX_QUEUE_DEPTH);
      default -> null;
    };
  }

  private static List<String> concat(List<String> a, String... b) {
    List<String> l = new java.util.ArrayList<>(a);
    l.addAll(List.of(b));
    return List.copyOf(l);
  }

  /**
   * The policy {@code name} with {@code params}. An unknown policy or parameter name, a value that
   * is not a finite number where one is expected (NaN, Infinity) or out of its range fails with an
   * {@link IllegalArgumentException} naming the parameter.
   */
  public static Policy create(String name, Map<String, String> params) {
    List<String> known = parameters(name);
    if (known == null) {
      throw new IllegalArgumentException(
          "unknown policy '" + name + "'; valid: " + String.join(", ", NAMES));
    }
    if (params != null) {
      boolean anyCase = known.contains("w_loc");
      for (String k : params.keySet()) {
        String key = k == null ? null : anyCase ? k.toLowerCase(Locale.ROOT) : k;
        if (anyCase && MAX_QUEUE_DEPTH.equalsIgnoreCase(k)) {
          key = MAX_QUEUE_DEPTH;
        }
        if (key == null || !known.contains(key)) {
          throw new IllegalArgumentException("unknown parameter '" + k + "' for policy "
              + name.toUpperCase(Locale.ROOT) + "; valid: " + String.join(", ", known));
        }
      }
    }
    maxQueueDepth(params); // fail fast on a bad value
    int window = intParam(params, "window", DEFAULT_WINDOW);
    if (window < 1) {
      throw new IllegalArgumentException("window must be ≥ 1, got " + window);
    }
    return switch (name.toUpperCase(Locale.ROOT)) {
      case "FA" -> new FirstAvailable();
      case "FCA" -> new FirstCacheAvailable();
      case "MCU" -> new MaxComputeUtil(window);
      case "MCH" -> new MaxCacheHit(window);
      case "GCC" -> new GoodCacheCompute(window, fraction(params, "theta", DEFAULT_THETA));
      case "MET" -> new Met(CostModel.fromParams(params));
      case "MCT" -> new Mct(CostModel.fromParams(params));
      case "SA" -> new Sa(CostModel.fromParams(params), fraction(params, "l", Sa.DEFAULT_LOW),
          fraction(params, "h", Sa.DEFAULT_HIGH));
      case "JDPDLL" -> new Jdpdll(CostModel.fromParams(params),
          intParam(params, "thresh", Jdpdll.DEFAULT_THRESH));
      case "ONLINE_HPS", "ONLINE-HPS", "HPS" -> new OnlineHps(CostModel.fromParams(params),
          partitioner(params == null ? null : params.get("partitioner")),
          doubleParam(params, "eps", 0.10), longParam(params, "seed", 0),
          doubleParam(params, "repartitionInterval", 0), intParam(params, "repartitionEvents", 1));
      case "EFT", "EARLIEST_FINISH" -> new EarliestFinish(CostModel.fromParams(params), window,
          positive(params, "nicGbps", EarliestFinish.DEFAULT_NIC_GBPS),
          positive(params, "diskGbps", EarliestFinish.DEFAULT_DISK_GBPS),
          EarliestFinish.caches(params == null ? null : params.get("caches")));
      case "COMPLEMENTARY_PLACE", "COMPLEMENTARY-PLACE" ->
          io.locus.core.hybrid.ComplementaryPlace.of(params, window);
      default -> throw new IllegalArgumentException(
          "unknown policy '" + name + "'; valid: " + String.join(", ", NAMES));
    };
  }

  /**
   * The pool parameter {@code maxQueueDepth} (any case for the key), default
   * {@value #DEFAULT_MAX_QUEUE_DEPTH}; an integer in [0, {@value #MAX_MAX_QUEUE_DEPTH}], else an
   * {@link IllegalArgumentException} naming it.
   */
  public static int maxQueueDepth(Map<String, String> params) {
    String v = null;
    if (params != null) {
      for (Map.Entry<String, String> e : params.entrySet()) {
        if (MAX_QUEUE_DEPTH.equalsIgnoreCase(e.getKey())) {
          v = e.getValue();
        }
      }
    }
    int d = intParam(v == null ? null : Map.of(MAX_QUEUE_DEPTH, v), MAX_QUEUE_DEPTH,
        DEFAULT_MAX_QUEUE_DEPTH);
    if (d < 0 || d > MAX_MAX_QUEUE_DEPTH) {
      throw new IllegalArgumentException("parameter " + MAX_QUEUE_DEPTH + " must be in [0, "
          + MAX_MAX_QUEUE_DEPTH + "], got " + d);
    }
    return d;
  }

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

  private static int intParam(Map<String, String> p, String key, int dflt) {
    String v = p == null ? null : p.get(key);
    try {
      return v == null ? dflt : Integer.parseInt(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("parameter " + key + " must be an integer, got '" + v + "'");
    }
  }

  private static long longParam(Map<String, String> p, String key, long dflt) {
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
  private static double positive(Map<String, String> p, String key, double dflt) {
    double d = doubleParam(p, key, dflt);
    if (!(d > 0)) {
      throw new IllegalArgumentException("parameter " + key + " must be > 0, got '"
          + p.get(key) + "'");
    }
    return d;
  }

  /** A finite number in [0, 1]. */
  private static double fraction(Map<String, String> p, String key, double dflt) {
    double d = doubleParam(p, key, dflt);
    if (!(d >= 0 && d <= 1)) {
      throw new IllegalArgumentException("parameter " + key + " must be in [0, 1], got '"
          + p.get(key) + "'");
    }
    return d;
  }
}
