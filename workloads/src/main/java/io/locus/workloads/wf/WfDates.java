package io.locus.workloads.wf;

import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ISO 8601 date-times as WfCommons instances write them. Seen in published instances and tools:
 * extended {@code 2020-04-01T15:10:53-08:00}, basic {@code 20201120T093416-0800} and {@code
 * 20210101T120000Z}, with or without fractions ({@code 2020-12-30T02:24:13.540715}), and without a
 * zone (Python's {@code datetime.isoformat()} of a naive time). A missing zone is read as UTC. A
 * space instead of {@code T} is accepted (RFC 3339 allows it).
 */
public final class WfDates {
  private static final Pattern ISO = Pattern.compile(
      "(\\d{4})-?(\\d{2})-?(\\d{2})[T ](\\d{2}):?(\\d{2})(?::?(\\d{2})(?:[.,](\\d{1,9}))?)?"
          + "(Z|z|[+-]\\d{2}(?::?\\d{2})?)?");

  private WfDates() {}

  /** Parses one date-time; an IllegalArgumentException says what is wrong. */
  public static OffsetDateTime parse(String text) {
    Matcher m = ISO.matcher(text);
    if (!m.matches()) {
      throw new IllegalArgumentException("'" + text + "' is not an ISO 8601 date-time (e.g. "
          + "2021-01-01T12:00:00+01:00 or 20210101T120000Z)");
    }
    try {
      int nanos = 0;
      if (m.group(7) != null) {
        String f = (m.group(7) + "000000000").substring(0, 9);
        nanos = Integer.parseInt(f);
      }
      LocalDateTime local = LocalDateTime.of(Integer.parseInt(m.group(1)),
          Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)), Integer.parseInt(m.group(4)),
          Integer.parseInt(m.group(5)), m.group(6) == null ? 0 : Integer.parseInt(m.group(6)),
          nanos);
      return OffsetDateTime.of(local, offset(m.group(8)));
    } catch (DateTimeException e) {
      throw new IllegalArgumentException("'" + text + "' is not a valid date-time: "
          + e.getMessage(), e);
    }
  }

  private static ZoneOffset offset(String z) {
    if (z == null || z.equalsIgnoreCase("Z")) {
      return ZoneOffset.UTC;
    }
    String digits = z.substring(1).replace(":", "");
    int hours = Integer.parseInt(digits.substring(0, 2));
    int minutes = digits.length() > 2 ? Integer.parseInt(digits.substring(2)) : 0;
    if (minutes > 59) {
      throw new DateTimeException("zone offset minutes out of range: " + z);
    }
    int sign = z.charAt(0) == '-' ? -1 : 1;
    return ZoneOffset.ofHoursMinutes(sign * hours, sign * minutes);
  }
}
