package io.locus.workloads.swf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes an SWF log: {@code ;} header comments, then one line of 18 whitespace-separated fields per
 * job. Whole numbers are written without a fraction, as the archive's logs are. The tests use it to
 * make their own SWF excerpts.
 */
public final class SwfWriter {
  private SwfWriter() {}

  /** Writes {@code header} lines (each prefixed {@code "; "}) and the jobs to {@code path}. */
  public static void write(Path path, List<String> header, List<SwfJob> jobs) throws IOException {
    StringBuilder out = new StringBuilder();
    for (String h : header) {
      out.append("; ").append(h).append('\n');
    }
    for (SwfJob j : jobs) {
      out.append(line(j)).append('\n');
    }
    Files.writeString(path, out);
  }

  /** One job as an SWF line. */
  public static String line(SwfJob j) {
    StringBuilder s = new StringBuilder();
    for (double v : j.values()) {
      if (s.length() > 0) {
        s.append(' ');
      }
      s.append(v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v)
          : Double.toString(v));
    }
    return s.toString();
  }
}
