package io.locus.workloads;

/** A trace file that breaks {@link TraceFormat}; the message names the file and the line. */
public final class TraceFormatException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final long line;

  public TraceFormatException(String source, long line, String message) {
    super(source + " line " + line + ": " + message);
    this.line = line;
  }

  /** 1-based line of the problem (the header is line 1). */
  public long line() {
    return line;
  }
}
