package io.locus.agent.real;

import java.nio.charset.StandardCharsets;

/**
 * Which file ids an agent accepts, and the file name each has in the cache directory and in a
 * task's output directory.
 *
 * <p><b>Ids.</b> A file id is a logical name. It may contain {@code /} between components (ids
 * of a replayed WfCommons instance are prefixed {@code <instance>/}), but no component may be
 * empty, {@code .} or {@code ..}; it may not start with {@code /} or {@code .} (the agent's own
 * entries, such as {@code .incoming}, start with one), nor contain a backslash or a control
 * character.
 *
 * <p><b>File names.</b> An id's file name ({@link #fileName}) is the id with {@code %} written
 * {@code %25} and {@code /} written {@code %2F}, and nothing else changed: {@code blast/db.fa}
 * is cached as {@code blast%2Fdb.fa}, {@code x%y} as {@code x%25y}, and an id without either
 * character is its own name. The mapping is one-to-one ({@link #idOf} reverses it), and the name
 * is always one plain path component of at most {@value #MAX_BYTES} bytes (UTF-8), so it can never
 * escape its directory nor collide with another id's name.
 */
public final class FileIds {
  public static final int MAX_BYTES = 255;

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
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (c == '\\') {
        return "'" + printable(id) + "' contains a path separator (a backslash)";
      }
      if (c < 0x20 || c == 0x7f) {
        return "'" + printable(id) + "' contains a control character";
      }
    }
    if (fileName(id).getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
      return "file id longer than " + MAX_BYTES + " bytes as a file name";
    }
    return null;
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
      if (c < 0x20 || c == 0x7f) {
        return "'" + printable(name) + "' contains a control character";
      }
    }
    if (name.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
      return "file id longer than " + MAX_BYTES + " bytes as a file name";
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
  static String printable(String id) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < id.length() && b.length() < 80; i++) {
      char c = id.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        b.append(String.format("\\x%02x", (int) c));
      } else {
        b.append(c);
      }
    }
    return id.length() > 80 ? b + "..." : b.toString();
  }
}
