package io.locus.agent.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Defaults and range checks for settings records; failures name the key. */
public final class Setting {
  private Setting() {}

  /** {@code value}, or {@code fallback} when the file leaves the key out (or empty). */
  public static <T> T orDefault(T value, T fallback) {
    return value != null ? value : fallback;
  }

  public static int atLeast(String key, int value, int min) {
    if (value < min) {
      throw new InvalidSetting(key, "must be >= " + min + ", got " + value);
    }
    return value;
  }

  public static int between(String key, int value, int min, int max) {
    if (value < min || value > max) {
      throw new InvalidSetting(key, "must be " + min + ".." + max + ", got " + value);
    }
    return value;
  }

  public static Duration positive(String key, Duration value) {
    if (value != null && (value.isNegative() || value.isZero())) {
      throw new InvalidSetting(key, "must be a positive duration, got " + value);
    }
    return value;
  }

  public static Duration notNegative(String key, Duration value) {
    if (value != null && value.isNegative()) {
      throw new InvalidSetting(key, "must not be negative, got " + value);
    }
    return value;
  }

  /** A copy of a list of plain values ({@code null}: empty); an empty entry is refused. */
  public static <T> List<T> values(String key, List<T> list) {
    if (list == null) {
      return List.of();
    }
    if (list.contains(null)) {
      throw new InvalidSetting(key, "must hold plain values, not an empty entry");
    }
    return List.copyOf(list);
  }

  /** A copy of a mapping of names to plain values ({@code null}: empty). */
  public static <V> Map<String, V> values(String key, Map<String, V> map) {
    if (map == null) {
      return Map.of();
    }
    map.forEach((k, v) -> {
      if (v == null) {
        throw new InvalidSetting(key + "." + k, "needs a value");
      }
    });
    return Map.copyOf(map);
  }
}
