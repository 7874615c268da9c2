package io.locus.core.cache;

import java.util.List;
import java.util.Locale;

/** Eviction policies by name, as pools configure them. */
public final class EvictionPolicies {
  public static final List<String> NAMES =
      List.of("LRU", "FIFO", "LFU", "RANDOM", "VALUE", "DEMAND");

  private EvictionPolicies() {}

  /**
   * Every policy but VALUE and DEMAND, which need the pool's statistics or demand (see the
   * three-argument forms).
   */
  public static EvictionPolicy create(String name, long seed) {
    return create(name, seed, (FileStats) null);
  }

  /**
   * The policy {@code name}, with the pool's queue demand for DEMAND (ignored by the others; VALUE
   * still needs {@link FileStats} and is refused here).
   */
  public static EvictionPolicy create(String name, long seed, FileDemand demand) {
    if ("DEMAND".equals(name.toUpperCase(Locale.ROOT))) {
      if (demand == null) {
        throw new IllegalArgumentException("eviction policy DEMAND needs the pool's FileDemand "
            + "(which files queued tasks read)");
      }
      return new DemandAware(demand);
    }
    return create(name, seed, (FileStats) null);
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
      case "DEMAND" -> throw new IllegalArgumentException(
          "eviction policy DEMAND needs the pool's FileDemand (which files queued tasks read)");
      default -> throw new IllegalArgumentException(
          "unknown eviction policy '" + name + "'; valid: " + String.join(", ", NAMES));
    };
  }
}
