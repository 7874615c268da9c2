package io.locus.core.share;

/**
 * Which queue names a pool accepts: 1 to {@value #MAX_LENGTH} characters of ASCII letters, digits,
 * {@code -} and {@code _}, starting with a letter or a digit. Narrower than a file id on purpose: a
 * queue name appears in metric labels, dashboard panels and command lines, and a path of names
 * joined by {@code .} ({@link QueueTree#path}, YuniKorn's {@code root.a.b} notation) is unambiguous
 * only because a name has no dot. ({@code io.locus.core.model.Ids} defines an order, not a charset,
 * so there was nothing to reuse.)
 */
public final class QueueNames {
  public static final int MAX_LENGTH = 63;

  private QueueNames() {}

  /**
   * {@code name} when acceptable.
   *
   * @throws IllegalArgumentException saying why not (the trace readers and commands use it)
   */
  public static String check(String name) {
    String bad = problem(name);
    if (bad != null) {
      throw new IllegalArgumentException(bad);
    }
    return name;
  }

  /** Null when {@code name} is acceptable, else why not. */
  public static String problem(String name) {
    if (name == null || name.isEmpty()) {
      return "a queue has no name";
    }
    if (name.length() > MAX_LENGTH) {
      return "queue name '" + name.substring(0, 20) + "...' is " + name.length()
          + " characters long (at most " + MAX_LENGTH + ")";
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
      if (i == 0 && !alnum) {
        return "queue name '" + printable(name) + "' must start with a letter or a digit";
      }
      if (!alnum && c != '-' && c != '_') {
        return "queue name '" + printable(name) + "' has a character outside [A-Za-z0-9_-] at index "
            + i;
      }
    }
    return null;
  }

  private static String printable(String s) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f)) {
        b.append(String.format("\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }
}
