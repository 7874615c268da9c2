package io.locus.workloads;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.locus.core.model.InputFile;
import io.locus.core.model.Priority;
import io.locus.core.split.EventSpan;
import io.locus.schemas.limits.FileIds;
import io.locus.schemas.limits.Limits;
import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.zip.GZIPInputStream;

/**
 * Streams the jobs of a trace file ({@link TraceFormat}), one line at a time, so a 2-million-job
 * trace never sits in memory. Validates every line and throws {@link TraceFormatException} (with the
 * line number) on malformed input; {@link UncheckedIOException} on I/O failure. Closes itself at the
 * end of the file; close it explicitly when stopping early.
 *
 * <p>A line that the scheduler or the agents would refuse is refused here, by the same rules
 * ({@link Limits}, {@link FileIds}): file ids an agent can store, ids of at most
 * {@link Limits#MAX_ID_CHARS} characters, file sizes and counts within the records' limits. A
 * replay then never sends a job that is dead-lettered, or placed and failed on every node.
 */
public final class TraceReader implements Iterator<TraceJob>, Closeable {
  /** The header line. */
  public record Header(String name, long jobs, String description) {}

  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
  private static final Set<String> HEADER_FIELDS =
      Set.of("format", "version", "name", "jobs", "description");
  private static final Set<String> JOB_FIELDS =
      Set.of("jobId", "pool", "arrival", "inputs", "computeSeconds", "stage", "attributes",
          "events", "parents", "outputs", "template", "args", "priority", "cancelAfter", "queue");
  private static final Set<String> UNIT_FIELDS =
      Set.of("id", "bytes", "computeSeconds", "location", "checksum");

  private final String source;
  private final BufferedReader in;
  private final Header header;
  private long line;
  private long read;
  private double lastArrival = Double.NEGATIVE_INFINITY;
  private TraceJob pending;
  private boolean closed;

  private TraceReader(Path path) throws IOException {
    source = path.toString();
    InputStream is = Files.newInputStream(path);
    try {
      if (TraceFormat.gzipped(path)) {
        is = new GZIPInputStream(is, 1 << 16);
      }
      in = new BufferedReader(new InputStreamReader(is, StandardCharsets.UTF_8), 1 << 16);
      header = readHeader();
    } catch (IOException | RuntimeException e) {
      is.close();
      throw e;
    }
  }

  public static TraceReader open(Path path) throws IOException {
    return new TraceReader(path);
  }

  /** Reads a whole trace into memory; for small traces and tests. */
  public static Workload readAll(Path path) throws IOException {
    try (TraceReader r = open(path)) {
      List<TraceJob> jobs = new ArrayList<>();
      r.forEachRemaining(jobs::add);
      return Workload.of(r.header.name(), r.header.description(), jobs);
    }
  }

  /**
   * The file as a workload that streams it again on every pass. Each pass holds the file open
   * until it is read to the end.
   */
  public static Workload workload(Path path) throws IOException {
    Header h;
    try (TraceReader r = open(path)) {
      h = r.header();
    }
    return new Workload(h.name(), h.description(), h.jobs(), () -> {
      try {
        return open(path);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  public Header header() {
    return header;
  }

  @Override
  public boolean hasNext() {
    if (pending == null && !closed) {
      pending = readJob();
    }
    return pending != null;
  }

  @Override
  public TraceJob next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    TraceJob j = pending;
    pending = null;
    return j;
  }

  @Override
  public void close() throws IOException {
    if (!closed) {
      closed = true;
      in.close();
    }
  }

  // ------------------------------------------------------------------ parsing

  private Header readHeader() throws IOException {
    JsonNode h = nextNode();
    if (h == null) {
      throw error("empty file: expected the header {\"format\":\"" + TraceFormat.FORMAT
          + "\",\"version\":" + TraceFormat.VERSION + ",…}");
    }
    checkFields(h, HEADER_FIELDS, "header");
    String format = text(h, "format", true);
    if (!TraceFormat.FORMAT.equals(format)) {
      throw error("not a Locus trace: header format is '" + format + "', expected '"
          + TraceFormat.FORMAT + "'");
    }
    JsonNode v = h.get("version");
    if (v == null || !v.isIntegralNumber()) {
      throw error("header field 'version' must be an integer");
    }
    if (v.asLong() != TraceFormat.VERSION) {
      throw error("unsupported trace version " + v.asText() + "; this reader reads version "
          + TraceFormat.VERSION);
    }
    String name = text(h, "name", true);
    JsonNode jobs = h.get("jobs");
    if (jobs == null || !jobs.isIntegralNumber() || !jobs.canConvertToLong() || jobs.asLong() < 0) {
      throw error("header field 'jobs' must be an integer >= 0");
    }
    String description = text(h, "description", false);
    return new Header(name, jobs.asLong(), description == null ? "" : description);
  }

  private TraceJob readJob() {
    try {
      JsonNode n = nextNode();
      if (n == null) {
        if (read != header.jobs()) {
          throw error("the header declares " + header.jobs() + " jobs but the file ends after "
              + read + " (truncated?)");
        }
        close();
        return null;
      }
      if (read == header.jobs()) {
        throw error("more jobs than the " + header.jobs() + " the header declares");
      }
      TraceJob job = toJob(n);
      if (job.arrival() < lastArrival) {
        throw error("arrival " + job.arrival() + " of job " + job.jobId()
            + " is before the previous job's " + lastArrival + " (a trace is sorted by arrival)");
      }
      lastArrival = job.arrival();
      read++;
      return job;
    } catch (IOException e) {
      closeQuietly();
      throw new UncheckedIOException(source + " line " + line + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      closeQuietly();
      throw e;
    }
  }

  /** Next non-blank line as JSON, or null at end of file. */
  private JsonNode nextNode() throws IOException {
    String s;
    do {
      s = in.readLine();
      if (s == null) {
        line++; // an error at EOF points just past the last line
        return null;
      }
      line++;
    } while (s.isBlank());
    JsonNode n;
    try {
      n = JSON.readTree(s);
    } catch (JsonProcessingException e) {
      throw error(TraceFormatException.jsonProblem(e, true));
    }
    if (!n.isObject()) {
      throw error("expected a JSON object, got " + n.getNodeType().toString().toLowerCase());
    }
    return n;
  }

  private TraceJob toJob(JsonNode n) {
    checkFields(n, JOB_FIELDS, "job");
    String jobId = id(text(n, "jobId", true), "jobId");
    String pool = id(text(n, "pool", false), "pool");
    double arrival = number(n, "arrival", true, "job");
    JsonNode inputs = n.get("inputs");
    if (inputs == null || !inputs.isArray()) {
      throw error("job field 'inputs' must be an array (it may be empty)");
    }
    count(inputs.size(), "inputs", Limits.MAX_INPUTS_PER_JOB);
    List<InputFile> units = new ArrayList<>(inputs.size());
    for (JsonNode u : inputs) {
      units.add(toUnit(u, "input"));
    }
    List<InputFile> outputs = List.of();
    JsonNode out = n.get("outputs");
    if (out != null && !out.isNull()) {
      if (!out.isArray()) {
        throw error("job field 'outputs' must be an array of units, got " + out);
      }
      count(out.size(), "outputs", Limits.MAX_OUTPUTS_PER_JOB);
      outputs = new ArrayList<>(out.size());
      for (JsonNode u : out) {
        outputs.add(toUnit(u, "output"));
      }
    }
    List<String> parents = strings(n, "parents");
    List<String> args = strings(n, "args");
    count(args.size(), "args", Limits.MAX_ARGS);
    for (int i = 0; i < args.size(); i++) {
      if (args.get(i).length() > Limits.MAX_TEXT_CHARS) {
        throw error("job field 'args[" + i + "]' is " + args.get(i).length()
            + " chars long, more than the limit of " + Limits.MAX_TEXT_CHARS);
      }
    }
    String template = id(text(n, "template", false), "template");
    String queue = text(n, "queue", false);
    double compute = number(n, "computeSeconds", true, "job");
    int stage = 0;
    JsonNode s = n.get("stage");
    if (s != null && !s.isNull()) {
      if (!s.isIntegralNumber() || !s.canConvertToInt() || s.asInt() < 0) {
        throw error("job field 'stage' must be an integer >= 0, got " + s);
      }
      stage = s.asInt();
    }
    Map<String, String> attrs = Map.of();
    JsonNode a = n.get("attributes");
    if (a != null && !a.isNull()) {
      if (!a.isObject()) {
        throw error("job field 'attributes' must be an object of strings");
      }
      attrs = new LinkedHashMap<>();
      for (Map.Entry<String, JsonNode> e : a.properties()) {
        if (!e.getValue().isTextual()) {
          throw error("attribute '" + e.getKey() + "' must be a string, got " + e.getValue());
        }
        attrs.put(e.getKey(), e.getValue().asText());
      }
    }
    Integer priority = null;
    JsonNode pr = n.get("priority");
    if (pr != null && !pr.isNull()) {
      if (!pr.isIntegralNumber() || !pr.canConvertToLong()) {
        throw error("job field 'priority' must be an integer in [" + Priority.MIN + ", "
            + Priority.MAX + "], got " + pr);
      }
      if (pr.asLong() < Priority.MIN || pr.asLong() > Priority.MAX) {
        throw error("job field 'priority': " + Priority.outOfRange(pr.asLong()));
      }
      priority = pr.asInt();
    }
    Double cancelAfter = null;
    JsonNode ca = n.get("cancelAfter");
    if (ca != null && !ca.isNull()) {
      if (!ca.isNumber() || !Double.isFinite(ca.asDouble()) || ca.asDouble() < 0) {
        throw error("job field 'cancelAfter' must be a number of seconds >= 0 (after the job's"
            + " arrival), got " + ca);
      }
      cancelAfter = ca.asDouble();
    }
    EventSpan events = null;
    JsonNode ev = n.get("events");
    if (ev != null && !ev.isNull()) {
      if (!ev.isObject()) {
        throw error("job field 'events' must be an object {\"start\":s,\"end\":e}, got " + ev);
      }
      checkFields(ev, Set.of("start", "end"), "events");
      JsonNode s0 = ev.get("start");
      JsonNode e0 = ev.get("end");
      if (s0 == null || e0 == null || !s0.isIntegralNumber() || !e0.isIntegralNumber()
          || !s0.canConvertToLong() || !e0.canConvertToLong() || s0.asLong() < 0
          || e0.asLong() <= s0.asLong()) {
        throw error("job field 'events' needs integers 0 <= start < end, got " + ev);
      }
      events = new EventSpan(s0.asLong(), e0.asLong());
    }
    try {
      return new TraceJob(jobId, pool, arrival, units, compute, stage, attrs, events, parents,
          outputs, template, args, priority, cancelAfter, queue);
    } catch (IllegalArgumentException e) {
      throw error(e.getMessage());
    }
  }

  private InputFile toUnit(JsonNode u, String what) {
    if (!u.isObject()) {
      throw error("each " + what + " must be an object, got " + u);
    }
    checkFields(u, UNIT_FIELDS, what);
    String id = text(u, "id", true);
    String bad = FileIds.problem(id);
    if (bad != null) {
      // The agents' rule: the scheduler would dead-letter the job, or every agent refuse it.
      throw error(what + " id " + bad);
    }
    JsonNode b = u.get("bytes");
    if (b == null || !b.isIntegralNumber() || !b.canConvertToLong() || b.asLong() < 0) {
      throw error(what + " '" + id + "': field 'bytes' must be an integer >= 0, got " + b);
    }
    if (b.asLong() > Limits.MAX_FILE_BYTES) {
      throw error(what + " '" + id + "': " + b.asLong() + " bytes is more than the limit of "
          + Limits.MAX_FILE_BYTES + " (1 PiB)");
    }
    double compute = number(u, "computeSeconds", false, what);
    if (!(compute >= 0) || Double.isInfinite(compute)) {
      throw error(what + " '" + id + "': computeSeconds must be finite and >= 0, got " + compute);
    }
    return new InputFile(id, b.asLong(), compute, text(u, "location", false),
        text(u, "checksum", false));
  }

  /** {@code value} (may be null) when it is an id of at most {@link Limits#MAX_ID_CHARS} chars. */
  private String id(String value, String field) {
    if (value != null && value.length() > Limits.MAX_ID_CHARS) {
      throw error("job field '" + field + "' is " + value.length()
          + " chars long, more than the limit of " + Limits.MAX_ID_CHARS + ": '"
          + FileIds.printable(value) + "'");
    }
    return value;
  }

  private void count(int size, String field, int max) {
    if (size > max) {
      throw error("job field '" + field + "' has " + size + " entries, more than the limit of "
          + max);
    }
  }

  private void checkFields(JsonNode n, Set<String> allowed, String what) {
    for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!allowed.contains(f)) {
        throw error("unknown " + what + " field '" + f + "'; allowed: " + allowed);
      }
    }
  }

  private String text(JsonNode n, String field, boolean required) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      if (required) {
        throw error("missing required field '" + field + "'");
      }
      return null;
    }
    if (!v.isTextual()) {
      throw error("field '" + field + "' must be a string, got " + v);
    }
    return v.asText();
  }

  /** An optional array of non-empty strings (absent or null = empty). */
  private List<String> strings(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      return List.of();
    }
    if (!v.isArray()) {
      throw error("job field '" + field + "' must be an array of strings, got " + v);
    }
    List<String> out = new ArrayList<>(v.size());
    for (JsonNode e : v) {
      if (!e.isTextual() || e.asText().isEmpty()) {
        throw error("job field '" + field + "' must hold non-empty strings, got " + e);
      }
      out.add(e.asText());
    }
    return out;
  }

  private double number(JsonNode n, String field, boolean required, String what) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      if (required) {
        throw error("missing required " + what + " field '" + field + "'");
      }
      return 0;
    }
    if (!v.isNumber()) {
      throw error(what + " field '" + field + "' must be a number, got " + v);
    }
    return v.asDouble();
  }

  private TraceFormatException error(String message) {
    return new TraceFormatException(source, line, message);
  }

  private void closeQuietly() {
    try {
      close();
    } catch (IOException ignored) {
      // the parse error being reported matters more than a failure to close
    }
  }
}
