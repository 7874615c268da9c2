package io.locus.core.policy;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Builds a policy from its name and the pool's string parameters (as a Control record carries
 * them): a thin view of {@link PolicyRegistry}, which holds each policy's parameters (defaults,
 * ranges) and factory. The defaults named here are the ones several families share.
 *
 * <p>Every file policy also takes the pool parameter {@code maxQueueDepth} (late binding, default
 * {@value #DEFAULT_MAX_QUEUE_DEPTH}): the most local-queue positions beyond its slots the pool
 * uses on a node, whatever the node advertises; 0 turns late binding off. The policy itself does
 * not read it (see {@link #maxQueueDepth}); the driver caps each node's advertised depth with it.
 */
public final class Policies {
  /** The file policies' names, in registry order. */
  public static final List<String> NAMES = PolicyRegistry.fileNames();
  /** Spec defaults for MI and SW: window W = 2500, GCC threshold θ = 0.9. */
  public static final int DEFAULT_WINDOW = 2500;
  public static final double DEFAULT_THETA = 0.9;
  /** The pool parameter capping the local-queue depth a node may advertise (late binding). */
  public static final String MAX_QUEUE_DEPTH = "maxQueueDepth";
  public static final int DEFAULT_MAX_QUEUE_DEPTH = 16;
  /** The largest maxQueueDepth accepted: a bound on how much work one node can hold back. */
  public static final int MAX_MAX_QUEUE_DEPTH = 1024;

  private Policies() {}

  /**
   * The parameter names a policy takes (COMPLEMENTARY_PLACE's case-insensitively), or null for an
   * unknown policy.
   */
  public static List<String> parameters(String name) {
    return PolicyRegistry.find(name).map(PolicyDescriptor::paramNames).orElse(null);
  }

  /**
   * The policy {@code name} with {@code params}. An unknown policy or parameter name, a value that
   * is not a finite number where one is expected (NaN, Infinity) or out of its range fails with an
   * {@link IllegalArgumentException} naming the parameter.
   */
  public static Policy create(String name, Map<String, String> params) {
    PolicyDescriptor<Policy> d = PolicyRegistry.find(name).orElseThrow(() ->
        new IllegalArgumentException("unknown policy '" + name + "'; valid: "
            + String.join(", ", NAMES)));
    List<String> known = d.paramNames();
    if (params != null) {
      for (String k : params.keySet()) {
        String key = k == null ? null : d.paramsAnyCase() ? k.toLowerCase(Locale.ROOT) : k;
        if (d.paramsAnyCase() && MAX_QUEUE_DEPTH.equalsIgnoreCase(k)) {
          key = MAX_QUEUE_DEPTH;
        }
        if (key == null || !known.contains(key)) {
          throw new IllegalArgumentException("unknown parameter '" + k + "' for policy "
              + name.toUpperCase(Locale.ROOT) + "; valid: " + String.join(", ", known));
        }
      }
    }
    maxQueueDepth(params); // fail fast on a bad value
    // every file policy takes the window (those that scan none ignore it): checked for all alike
    int window = PolicyParams.intParam(params, "window", DEFAULT_WINDOW);
    if (window < 1) {
      throw new IllegalArgumentException("window must be ≥ 1, got " + window);
    }
    return d.create(params);
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
    int d = PolicyParams.intParam(v == null ? null : Map.of(MAX_QUEUE_DEPTH, v), MAX_QUEUE_DEPTH,
        DEFAULT_MAX_QUEUE_DEPTH);
    if (d < 0 || d > MAX_MAX_QUEUE_DEPTH) {
      throw new IllegalArgumentException("parameter " + MAX_QUEUE_DEPTH + " must be in [0, "
          + MAX_MAX_QUEUE_DEPTH + "], got " + d);
    }
    return d;
  }
}
