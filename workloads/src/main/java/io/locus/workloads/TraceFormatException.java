package io.locus.workloads;

/**
 * A trace file that breaks its format. The message names the file and the place of the problem:
 * the 1-based line for line-based formats (Locus JSON lines, SWF), or a JSON path for WfCommons
 * instances ({@code blast.json: $.workflow.specification.tasks[3].inputFiles[1]: ...}).
 */
public final class TraceFormatException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final long line;
  private final String path;

  public TraceFormatException(String source, long line, String message) {
    super(source + " line " + line + ": " + message);
    this.line = line;
    this.path = null;
  }

  private TraceFormatException(String source, String path, String message) {
    super(source + ": " + (path == null ? "" : path + ": ") + message);
    this.line = 0;
    this.path = path;
  }

  /** An error at a JSON path ({@code $.workflow.tasks[2].parents[0]}), or of the whole file. */
  public static TraceFormatException at(String source, String path, String message) {
    return new TraceFormatException(source, path, message);
  }

  /** 1-based line of the problem (the header is line 1); 0 when the error is at a JSON path. */
  public long line() {
    return line;
  }

  /** JSON path of the problem; null for line-based errors. */
  public String path() {
    return path;
  }
}
