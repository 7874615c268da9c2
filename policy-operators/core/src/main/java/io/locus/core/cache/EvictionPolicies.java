package io.locus.core.cache;

import java.util.List;
import java.util.Locale;

/** Eviction policies by name, as pools configure them. */
public final class EvictionPolicies {
  public static final List<String> NAMES = List.of("LRU", "FIFO", "LFU", "RANDOM", "VALUE");

  private EvictionPolicies() {}

  /** Every policy but VALUE, which needs the pool's statistics (see the three-argument form). */
  public static EvictionPolicy create(String name, long seed) {
    return create(name, seed, null);
  }

  /**
   * @param seed seeds RANDOM (ignored by the others)
   * @param stats the pool's file statistics; required by VALUE, ignored by the others
   */
  public static EvictionPolicy create(String name, long seed, FileStats stats) {
    return switch (name.toUpperCase(Locale.ROOT)) {
      case "LRU" -> new Lru();
      case "FIFO" -> new Fifo();
      case "LFU" -> new Lfu();
      case "RANDOM" -> new RandomEviction(seed);
      case "VALUE" -> {
        if (stats == null) {
          throw new IllegalArgumentException(
              "eviction policy VALUE needs the pool's FileStats (pool-wide AccessFreq and NumCopies)");
        }
        yield new Value(stats);
      }
      default -> throw new IllegalArgumentException(
          "unknown eviction policy '" + name + "'; valid: " + String.join(", ", NAMES));
    };
  }
}
