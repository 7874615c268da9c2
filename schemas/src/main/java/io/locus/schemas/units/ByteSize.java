package io.locus.schemas.units;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A number of bytes as a config file writes it: a whole number of bytes, or a number and a unit.
 *
 * <p>Units are exact and case-sensitive, so that a size means one thing: {@code B}; decimal
 * {@code kB} (or {@code KB}), {@code MB}, {@code GB}, {@code TB} (powers of 1000); binary
 * {@code KiB}, {@code MiB}, {@code GiB}, {@code TiB} (powers of 1024). A space before the unit is
 * allowed ({@code 2 MB}), and so is a fraction when the result is whole ({@code 1.5GiB}).
 * Anything else is refused: {@code 12Mb} (a lowercase b means bits), {@code 12mb}, {@code 12M},
 * a negative size, a fraction of a byte.
 *
 * @param bytes the size, &ge; 0
 */
public record ByteSize(long bytes) {
  private static final Pattern SIZE = Pattern.compile("(-?[0-9]+(?:\\.[0-9]+)?) ?([A-Za-z]*)");
  private static final Map<String, Long> UNITS = new LinkedHashMap<>();

  static {
    UNITS.put("B", 1L);
    UNITS.put("kB", 1_000L);
    UNITS.put("KB", 1_000L);
    UNITS.put("MB", 1_000_000L);
    UNITS.put("GB", 1_000_000_000L);
    UNITS.put("TB", 1_000_000_000_000L);
    UNITS.put("KiB", 1L << 10);
    UNITS.put("MiB", 1L << 20);
    UNITS.put("GiB", 1L << 30);
    UNITS.put("TiB", 1L << 40);
  }

  public ByteSize {
    if (bytes < 0) {
      throw new IllegalArgumentException("a size must not be negative, got " + bytes);
    }
  }

  /** Parses a size as the class comment describes; the message says what is wrong. */
  public static ByteSize parse(String text) {
    Matcher m = SIZE.matcher(text.strip());
    if (!m.matches()) {
      throw new IllegalArgumentException("not a size: '" + text
          + "' (bytes, or a number and a unit, e.g. 500MB, 50GB, 1.5GiB)");
    }
    String unit = m.group(2).isEmpty() ? "B" : m.group(2);
    Long factor = UNITS.get(unit);
    if (factor == null) {
      throw new IllegalArgumentException("not a size: '" + text + "': " + unknownUnit(unit));
    }
    BigDecimal n = new BigDecimal(m.group(1));
    if (n.signum() < 0) {
      throw new IllegalArgumentException("a size must not be negative, got '" + text + "'");
    }
    BigDecimal bytes = n.multiply(BigDecimal.valueOf(factor));
    try {
      return new ByteSize(bytes.longValueExact());
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("not a size: '" + text + "': "
          + (bytes.stripTrailingZeros().scale() > 0 ? "not a whole number of bytes"
              : "more than " + Long.MAX_VALUE + " bytes"));
    }
  }

  private static String unknownUnit(String unit) {
    String known = "B, kB or KB, MB, GB, TB (powers of 1000), KiB, MiB, GiB, TiB (powers of 1024)";
    for (String u : UNITS.keySet()) {
      if (u.equalsIgnoreCase(unit)) {
        String bits = unit.endsWith("b") ? "; a lowercase b means bits" : "";
        return "'" + unit + "' is not a unit; units are case-sensitive" + bits + ": did you mean "
            + u + "? Units: " + known;
      }
    }
    return "'" + unit + "' is not a unit. Units: " + known;
  }

  /**
   * {@code n} bytes for a person: below 1000 in bytes ({@code 512 B}), else in decimal units with
   * one decimal ({@code 1.2 GB}), as the README and the config write sizes.
   */
  public static String text(long n) {
    if (n < 1_000) {
      return n + " B";
    }
    String[] units = {"kB", "MB", "GB", "TB", "PB", "EB"};
    double v = n;
    int u = -1;
    while (v >= 1_000 && u < units.length - 1) {
      v /= 1_000;
      u++;
    }
    return String.format(java.util.Locale.ROOT, "%.1f %s", v, units[u]);
  }

  @Override
  public String toString() {
    return bytes + " B";
  }
}
