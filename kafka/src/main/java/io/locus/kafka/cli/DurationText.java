package io.locus.kafka.cli;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A duration as a config file writes it: a number and a unit, {@code ms}, {@code s}, {@code m},
 * {@code h} or {@code d} (lowercase: {@code 5M} could mean months), e.g. {@code 500ms},
 * {@code 1.5h}; or ISO-8601, e.g. {@code PT30S}. A bare number has no unit and is refused.
 */
public final class DurationText {
  private static final Pattern DURATION = Pattern.compile("([0-9]+(?:\\.[0-9]+)?) ?([A-Za-z]+)");
  private static final Map<String, Long> UNIT_MS = Map.of("ms", 1L, "s", 1_000L, "m", 60_000L,
      "h", 3_600_000L, "d", 86_400_000L);
  private static final String EXAMPLES = "e.g. 500ms, 30s, 5m, 1h, 1d or ISO-8601 PT30S";

  private DurationText() {}

  public static Duration parse(String text) {
    String s = text.strip();
    if (s.matches("-?[Pp].*")) {
      try {
        return Duration.parse(s);
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException("not a duration: '" + text + "' (" + EXAMPLES + ")");
      }
    }
    Matcher m = DURATION.matcher(s);
    if (!m.matches()) {
      throw new IllegalArgumentException("not a duration: '" + text + "' (" + EXAMPLES + ")");
    }
    Long ms = UNIT_MS.get(m.group(2));
    if (ms == null) {
      throw new IllegalArgumentException("not a duration: '" + text + "': '" + m.group(2)
          + "' is not a unit; units are ms, s, m, h, d, case-sensitive (" + EXAMPLES + ")");
    }
    return Duration.ofMillis(new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(ms))
        .longValue());
  }
}
