package io.locus.workloads;

import io.locus.schemas.limits.FileIds;
import io.locus.schemas.limits.Limits;

/**
 * Which queue names a trace may give a job ({@link TraceJob#queue()}): 1 to {@link
 * Limits#MAX_ID_CHARS} characters, ASCII letters, digits, {@code .}, {@code _} and {@code -},
 * starting with a letter or a digit ({@code team-a}, {@code u17}, {@code physics.cms}).
 *
 * <p>Why so narrow: a queue name ends up in status lines, metric labels and the queue
 * configuration file of issue 24, where a space, a slash or a control character would need
 * quoting or escaping everywhere. {@code .} is allowed so that a hierarchy can be spelled in one
 * name (YuniKorn's {@code root.team.sub}); the readers do not interpret it.
 */
public final class QueueNames {
  private QueueNames() {}

  /** Null when {@code name} is an acceptable queue name, else why not (quoting the name). */
  public static String problem(String name) {
    if (name == null || name.isEmpty()) {
      return "empty queue name";
    }
    if (name.length() > Limits.MAX_ID_CHARS) {
      return "queue name '" + FileIds.printable(name) + "' is " + name.length()
          + " chars long, more than the limit of " + Limits.MAX_ID_CHARS;
    }
    if (!alnum(name.charAt(0))) {
      return "queue name '" + FileIds.printable(name) + "' must start with a letter or a digit";
    }
    for (int i = 1; i < name.length(); i++) {
      char c = name.charAt(i);
      if (!alnum(c) && c != '.' && c != '_' && c != '-') {
        return "queue name '" + FileIds.printable(name) + "' has '" + FileIds.printable(
            String.valueOf(c)) + "' at index " + i + "; allowed: letters, digits, '.', '_', '-'";
      }
    }
    return null;
  }

  /**
   * {@code name} when acceptable.
   *
   * @throws IllegalArgumentException with {@link #problem}'s reason otherwise
   */
  public static String check(String name) {
    String bad = problem(name);
    if (bad != null) {
      throw new IllegalArgumentException(bad);
    }
    return name;
  }

  private static boolean alnum(char c) {
    return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9';
  }
}
