package io.locus.agent.real;

import java.nio.charset.StandardCharsets;

/**
 * Which file ids may name a file in the cache directory. The id is the file's name there, so it
 * must be one plain path component: no separator, no "." or "..", no leading dot (the agent's own
 * entries, such as {@code .incoming}, start with one), no control character, at most 255 bytes.
 * Anything else could escape the directory or collide with the agent's own files.
 */
public final class FileIds {
  public static final int MAX_BYTES = 255;

  private FileIds() {}

  /** Null when {@code id} is safe, else why not. */
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
    if (id.charAt(0) == '.') {
      return "'" + printable(id) + "' starts with a dot";
    }
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (c == '/' || c == '\\') {
        return "'" + printable(id) + "' contains a path separator";
      }
      if (c < 0x20 || c == 0x7f) {
        return "'" + printable(id) + "' contains a control character";
      }
    }
    if (id.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
      return "file id longer than " + MAX_BYTES + " bytes";
    }
    return null;
  }

  public static boolean isSafe(String id) {
    return problem(id) == null;
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
