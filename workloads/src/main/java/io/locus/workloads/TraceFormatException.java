package io.locus.workloads;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

  /** Where Jackson's message points inside itself: {@code [Source: ...; line: 1, column: 5]}. */
  private static final Pattern JACKSON_PLACE =
      Pattern.compile("\\[Source: .*?; line: (\\d+), column: (\\d+)\\]");

  /**
   * Jackson's description of a syntax error, with its places said in the file's terms. A Locus
   * trace parses one line at a time, so Jackson's own "line: 1" is never the file's line (the
   * caller names that); {@code oneLine} drops it and keeps the column. The error's own column
   * comes first: "at column 3: Unexpected end-of-input ... (opened at column 1)".
   */
  public static String jsonProblem(JsonProcessingException e, boolean oneLine) {
    Matcher m = JACKSON_PLACE.matcher(e.getOriginalMessage());
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(sb, Matcher.quoteReplacement(
          (oneLine ? "" : "line " + m.group(1) + ", ") + "column " + m.group(2)));
    }
    m.appendTail(sb);
    String text = sb.toString().replace("(start marker at ", "(opened at ");
    var at = e.getLocation();
    String where = at == null ? ""
        : " at " + (oneLine ? "" : "line " + at.getLineNr() + ", ") + "column " + at.getColumnNr();
    return "invalid JSON" + where + ": " + text;
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
