package io.locus.schemas.limits;

import java.nio.charset.StandardCharsets;

/**
 * Which file ids Locus accepts, and the file name each has in an agent's cache directory and in a
 * task's output directory. The one definition: the scheduler's input validation dead-letters a
 * job, report or decision whose file id breaks it ({@code connectors}' {@code Validation}), the
 * agents refuse it ({@code RealDecisionGuard}, {@code DiskCache}), and the trace readers refuse a
 * trace line that carries one ({@code workloads}), so an id accepted anywhere works everywhere.
 *
 * <p><b>Ids.</b> A file id is a logical name. It may contain {@code /} between components (ids
 * of a replayed WfCommons instance are prefixed {@code <instance>/}), but no component may be
 * empty, {@code .} or {@code ..}; it may not start with {@code /} or {@code .} (the agent's own
 * entries, such as {@code .incoming}, start with one), be blank, nor contain a backslash or a
 * control character (ISO control, C0 and C1: they break logs and file names).
 *
 * <p><b>File names.</b> An id's file name ({@link #fileName}) is the id with {@code %} written
 * {@code %25} and {@code /} written {@code %2F}, and nothing else changed: {@code blast/db.fa}
 * is cached as {@code blast%2Fdb.fa}, {@code x%y} as {@code x%25y}, and an id without either
 * character is its own name. The mapping is one-to-one ({@link #idOf} reverses it), and the name
 * is always one plain path component of at most {@link Limits#MAX_FILE_ID_BYTES} bytes (UTF-8),
 * so it can never escape its directory nor collide with another id's name.
 */
public final class FileIds {
  /** The longest file name, in UTF-8 bytes: {@link Limits#MAX_FILE_ID_BYTES}. */
  public static final int MAX_BYTES = Limits.MAX_FILE_ID_BYTES;

  private FileIds() {}

  /** Null when {@code id} is an acceptable file id, else why not. */
  public static String problem(String id) {
    if (id == null || id.isEmpty()) {
      return "empty file id";
    }
    for (String part : id.split("[/\\\\]", -1)) {
      if (part.equals("..")) {
        return "'" + printable(id) + "' escapes the cache directory";
      }
    }
    if (id.equals(".")) {
      return "'.' is the cache directory itself";
    }
    if (id.charAt(0) == '/') {
      return "'" + printable(id) + "' is an absolute path";
    }
    for (String part : id.split("/", -1)) {
      if (part.isEmpty() || part.equals(".")) {
        return "'" + printable(id) + "' has an empty or '.' path component";
      }
    }
    if (id.charAt(0) == '.') {
      return "'" + printable(id) + "' starts with a dot";
    }
    if (id.isBlank()) {
      return "'" + printable(id) + "' is blank";
    }
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (c == '\\') {
        return "'" + printable(id) + "' contains a path separator (a backslash)";
      }
      if (Character.isISOControl(c)) {
        return "'" + printable(id) + "' contains a control character at index " + i;
      }
      if (Character.isSurrogate(c)) {
        // A pair is one character; a lone half has no UTF-8 form (it would be written '?',
        // the name of another id).
        if (Character.isHighSurrogate(c) && i + 1 < id.length()
            && Character.isLowSurrogate(id.charAt(i + 1))) {
          i++;
        } else {
          return "'" + printable(id) + "' contains a lone surrogate at index " + i
              + " (not a character)";
        }
      }
    }
    int bytes = nameBytes(id);
    if (bytes > MAX_BYTES) {
      return tooLong(id, bytes);
    }
    return null;
  }

  /**
   * Null when {@code id} is not longer than an agent can store, else why it is (the part of
   * {@link #problem} that is a size limit, for callers that report it as such: the scheduler's
   * dead-letter code {@code too-large}).
   */
  public static String lengthProblem(String id) {
    int bytes = id == null ? 0 : nameBytes(id);
    return bytes > MAX_BYTES ? tooLong(id, bytes) : null;
  }

  /** The UTF-8 length of {@code id}'s {@link #fileName}, without building it. */
  public static int nameBytes(String id) {
    int n = 0;
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (c == '/' || c == '%') {
        n += 3;
      } else if (c < 0x80) {
        n += 1;
      } else if (c < 0x800) {
        n += 2;
      } else if (Character.isHighSurrogate(c) && i + 1 < id.length()
          && Character.isLowSurrogate(id.charAt(i + 1))) {
        n += 4;
        i++;
      } else {
        n += 3; // the rest of the BMP; a lone surrogate (refused by problem) counts the same
      }
    }
    return n;
  }

  private static String tooLong(String id, int bytes) {
    return "'" + printable(id) + "' is " + bytes + " bytes as a file name, more than the limit of "
        + MAX_BYTES;
  }

  public static boolean isSafe(String id) {
    return problem(id) == null;
  }

  /**
   * Null when {@code name} can name an entry of an agent directory (a cache file, a node's
   * directory): one plain path component, no leading dot, no control character, at most
   * {@value #MAX_BYTES} bytes. Else why not.
   */
  public static String nameProblem(String name) {
    if (name == null || name.isEmpty()) {
      return "empty file id";
    }
    if (name.equals("..")) {
      return "'..' escapes the cache directory";
    }
    if (name.equals(".")) {
      return "'.' is the cache directory itself";
    }
    if (name.charAt(0) == '/') {
      return "'" + printable(name) + "' is an absolute path";
    }
    if (name.charAt(0) == '.') {
      return "'" + printable(name) + "' starts with a dot";
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '/' || c == '\\') {
        return "'" + printable(name) + "' contains a path separator";
      }
      if (Character.isISOControl(c)) {
        return "'" + printable(name) + "' contains a control character at index " + i;
      }
    }
    int bytes = name.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > MAX_BYTES) {
      return "'" + printable(name) + "' is " + bytes + " bytes, more than the limit of "
          + MAX_BYTES + " for a file name";
    }
    return null;
  }

  /** The file name of an id (see the class comment); check the id with {@link #problem} first. */
  public static String fileName(String id) {
    if (id.indexOf('%') < 0 && id.indexOf('/') < 0) {
      return id;
    }
    StringBuilder b = new StringBuilder(id.length() + 8);
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (c == '%') {
        b.append("%25");
      } else if (c == '/') {
        b.append("%2F");
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  /**
   * The id whose {@link #fileName} is {@code name}, or null when there is none (another escape,
   * a lowercase one, or an unacceptable id): such a name was not written by an agent.
   */
  public static String idOf(String name) {
    if (name == null || name.isEmpty()) {
      return null;
    }
    String id;
    if (name.indexOf('%') < 0) {
      id = name;
    } else {
      StringBuilder b = new StringBuilder(name.length());
      for (int i = 0; i < name.length(); i++) {
        char c = name.charAt(i);
        if (c != '%') {
          b.append(c);
        } else if (name.startsWith("%25", i)) {
          b.append('%');
          i += 2;
        } else if (name.startsWith("%2F", i)) {
          b.append('/');
          i += 2;
        } else {
          return null;
        }
      }
      id = b.toString();
    }
    return isSafe(id) ? id : null;
  }

  /** The id for a log line or a message: control characters escaped, at most 80 characters. */
  public static String printable(String id) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < id.length() && b.length() < 80; i++) {
      char c = id.charAt(i);
      if (Character.isISOControl(c)) {
        b.append(String.format("\\x%02x", (int) c));
      } else {
        b.append(c);
      }
    }
    return id.length() > 80 ? b + "..." : b.toString();
  }
}
