package io.locus.core.cache;

import java.util.Locale;

/** Eviction policies by name, as pools configure them. */
public final class EvictionPolicies {
  private EvictionPolicies() {}

  public static EvictionPolicy create(String name, long seed) {
    return switch (name.toUpperCase(Locale.ROOT)) {
      case "LRU" -> new Lru();
      default -> throw new IllegalArgumentException(
          "unknown eviction policy '" + name + "'; valid: LRU");
    };
  }
}
