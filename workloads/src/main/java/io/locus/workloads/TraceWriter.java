package io.locus.workloads;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.MinimalPrettyPrinter;
import io.locus.core.model.InputFile;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/**
 * Streams jobs to a trace file ({@link TraceFormat}); gzip when the name ends in {@code .gz}.
 * Memory use does not grow with the trace. {@link #close()} fails if fewer or more jobs were written
 * than the header declares, so a partial trace is never mistaken for a whole one.
 */
public final class TraceWriter implements Closeable {
  private static final JsonFactory JSON = new JsonFactory();

  private final Path path;
  private final JsonGenerator out;
  private final long declared;
  private long written;
  private double lastArrival = Double.NEGATIVE_INFINITY;
  private boolean closed;

  private TraceWriter(Path path, String name, String description, long jobs) throws IOException {
    if (jobs < 0) {
      throw new IllegalArgumentException("negative job count " + jobs);
    }
    this.path = path;
    this.declared = jobs;
    OutputStream os = new BufferedOutputStream(Files.newOutputStream(path), 1 << 16);
    if (TraceFormat.gzipped(path)) {
      os = new GZIPOutputStream(os, 1 << 16);
    }
    out = JSON.createGenerator(os);
    out.setPrettyPrinter(new MinimalPrettyPrinter("\n")); // one root value per line
    out.writeStartObject();
    out.writeStringField("format", TraceFormat.FORMAT);
    out.writeNumberField("version", TraceFormat.VERSION);
    out.writeStringField("name", name);
    out.writeNumberField("jobs", jobs);
    if (description != null && !description.isEmpty()) {
      out.writeStringField("description", description);
    }
    out.writeEndObject();
  }

  /** Opens {@code path} (replacing it) for {@code jobs} jobs. */
  public static TraceWriter open(Path path, String name, String description, long jobs)
      throws IOException {
    return new TraceWriter(path, name, description, jobs);
  }

  /** Writes a whole workload; returns the number of jobs written. */
  public static long write(Path path, Workload workload) throws IOException {
    try (TraceWriter w = open(path, workload.name(), workload.description(), workload.size())) {
      for (TraceJob j : workload) {
        w.write(j);
      }
      return w.written;
    }
  }

  public void write(TraceJob job) throws IOException {
    if (closed) {
      throw new IllegalStateException("trace writer for " + path + " is closed");
    }
    if (written == declared) {
      throw new IllegalStateException(path + ": header declares " + declared + " jobs; job "
          + job.jobId() + " would be one more");
    }
    if (job.arrival() < lastArrival) {
      throw new IllegalArgumentException(path + ": job " + job.jobId() + " arrives at "
          + job.arrival() + ", before the previous job's " + lastArrival);
    }
    lastArrival = job.arrival();
    out.writeStartObject();
    out.writeStringField("jobId", job.jobId());
    if (job.pool() != null) {
      out.writeStringField("pool", job.pool());
    }
    out.writeNumberField("arrival", job.arrival());
    writeUnits("inputs", job.inputs());
    out.writeNumberField("computeSeconds", job.computeSeconds());
    out.writeNumberField("stage", job.stage());
    if (job.events() != null) {
      out.writeObjectFieldStart("events");
      out.writeNumberField("start", job.events().start());
      out.writeNumberField("end", job.events().end());
      out.writeEndObject();
    }
    if (!job.attributes().isEmpty()) {
      out.writeObjectFieldStart("attributes");
      for (Map.Entry<String, String> e : job.attributes().entrySet()) {
        out.writeStringField(e.getKey(), e.getValue());
      }
      out.writeEndObject();
    }
    // the issue-15 fields are written only when set, so older traces stay byte-identical
    writeStrings("parents", job.parents());
    if (!job.outputs().isEmpty()) {
      writeUnits("outputs", job.outputs());
    }
    if (job.template() != null) {
      out.writeStringField("template", job.template());
    }
    writeStrings("args", job.args());
    if (job.priority() != null) {
      out.writeNumberField("priority", job.priority()); // only when set, as the fields above
    }
    if (job.cancelAfter() != null) {
      out.writeNumberField("cancelAfter", job.cancelAfter());
    }
    if (job.queue() != null) {
      out.writeStringField("queue", job.queue()); // issue 24; only when set, as the fields above
    }
    out.writeEndObject();
    written++;
  }

  private void writeStrings(String field, List<String> values) throws IOException {
    if (values.isEmpty()) {
      return;
    }
    out.writeArrayFieldStart(field);
    for (String v : values) {
      out.writeString(v);
    }
    out.writeEndArray();
  }

  private void writeUnits(String field, List<InputFile> units) throws IOException {
    out.writeArrayFieldStart(field);
    for (InputFile u : units) {
      out.writeStartObject();
      out.writeStringField("id", u.id());
      out.writeNumberField("bytes", u.bytes());
      if (u.computeSeconds() != 0) {
        out.writeNumberField("computeSeconds", u.computeSeconds());
      }
      if (u.location() != null) {
        out.writeStringField("location", u.location());
      }
      if (u.checksum() != null) {
        out.writeStringField("checksum", u.checksum());
      }
      out.writeEndObject();
    }
    out.writeEndArray();
  }

  public long written() {
    return written;
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    out.writeRaw('\n');
    out.close();
    if (written != declared) {
      throw new IllegalStateException(path + ": header declares " + declared + " jobs but "
          + written + " were written");
    }
  }
}
