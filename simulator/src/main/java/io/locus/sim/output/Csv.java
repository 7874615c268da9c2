package io.locus.sim.output;

import io.locus.sim.metrics.Numbers;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Minimal RFC 4180 CSV writing: fields with a comma, quote or line break are quoted. */
public final class Csv {
  private Csv() {}

  public static void write(Path file, List<String> header, List<List<String>> rows)
      throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      line(w, header);
      for (List<String> r : rows) {
        line(w, r);
      }
    }
  }

  private static void line(BufferedWriter w, List<String> fields) throws IOException {
    for (int i = 0; i < fields.size(); i++) {
      if (i > 0) {
        w.write(',');
      }
      w.write(escape(fields.get(i)));
    }
    w.write('\n');
  }

  static String escape(String s) {
    if (s == null) {
      return "";
    }
    if (s.indexOf(',') >= 0 || s.indexOf('"') >= 0 || s.indexOf('\n') >= 0
        || s.indexOf('\r') >= 0) {
      return '"' + s.replace("\"", "\"\"") + '"';
    }
    return s;
  }

  /** A number as CSV text ({@link Numbers#format}). */
  public static String num(double v) {
    return Numbers.format(v);
  }
}
