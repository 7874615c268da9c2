package io.locus.workloads.swf;

import io.locus.core.model.InputFile;
import io.locus.workloads.TraceFormatException;
import io.locus.workloads.TraceJob;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * Reads a Standard Workload Format log (Parallel Workloads Archive) into trace jobs.
 *
 * <ul>
 *   <li>Lines starting with {@code ;} are header comments; the {@code Key: value} ones
 *       ({@code MaxNodes}, {@code UnixStartTime}, ...) are kept in the workload's description.
 *       Blank lines are skipped. Every other line has exactly 18 whitespace-separated numbers
 *       (otherwise an error naming file and line); -1 means missing.
 *   <li>One SWF job is one Locus task, whatever its processor count: a Locus task uses one slot,
 *       and Locus schedules data, not gangs. The allocated (else requested) processors are kept as
 *       the attribute {@code processors}.
 *   <li>{@code arrival} = submit time × time scale; {@code computeSeconds} = run time × time scale.
 *   <li>A job without a run time (-1, or ≤ 0: cancelled before it ran) or without a submit time is
 *       skipped, not an error: archive logs hold many such lines. The skipped jobs are counted in
 *       the workload's description.
 *   <li>The preceding job (field 17) becomes {@code parents} when that job is in the file and was
 *       not skipped; other links are dropped and counted.
 *   <li>Files: {@link SwfFileModel} when the model is on, none when it is off.
 *   <li>Queue: the field {@link SwfQueueField} chooses (user, group, executable, queue or
 *       partition: {@code u17}, {@code g3}, ...), none by default or where the field is -1.
 *   <li>Job ids {@code <instance>/<job number>}; a job number must be a whole number and unique.
 * </ul>
 */
public final class SwfReader {
  private static final Pattern SPACE = Pattern.compile("\\s+");
  private static final Pattern HEADER = Pattern.compile("\\s*[A-Za-z][A-Za-z0-9_ ]*:.*");

  /** The jobs of one log, sorted by arrival (stable), and what happened on the way. */
  public record Result(List<TraceJob> jobs, String description) {}

  private SwfReader() {}

  /**
   * Reads {@code path} ({@code .swf}, or gzip-compressed {@code .swf.gz}); job and file ids are
   * prefixed {@code instance/}.
   */
  public static Result read(Path path, String instance, double timeScale, boolean fileModel,
      long seed) throws IOException {
    return read(path, instance, timeScale, fileModel, seed, SwfQueueField.NONE);
  }

  /**
   * As {@link #read(Path, String, double, boolean, long)}, each job's queue named by {@code
   * queueField} ({@link SwfQueueField}; -1 in that field: no queue).
   */
  public static Result read(Path path, String instance, double timeScale, boolean fileModel,
      long seed, SwfQueueField queueField) throws IOException {
    String source = path.toString();
    List<String> header = new ArrayList<>();
    Map<Long, SwfJob> jobs = new LinkedHashMap<>();
    try (InputStream raw = Files.newInputStream(path);
         InputStream in = path.getFileName().toString().endsWith(".gz")
             ? new GZIPInputStream(raw, 1 << 16) : raw;
         BufferedReader r = new BufferedReader(new InputStreamReader(in,
             StandardCharsets.UTF_8), 1 << 16)) {
      String s;
      long line = 0;
      Map<Long, Long> lineOf = new HashMap<>();
      while ((s = r.readLine()) != null) {
        line++;
        String t = s.strip();
        if (t.isEmpty()) {
          continue;
        }
        if (t.startsWith(";")) {
          String c = t.substring(1).strip();
          if (HEADER.matcher(c).matches()) {
            header.add(c.replaceAll("\\s+", " "));
          }
          continue;
        }
        SwfJob j = parse(source, line, t);
        Long before = lineOf.putIfAbsent(j.jobNumber(), line);
        if (before != null) {
          throw new TraceFormatException(source, line, "duplicate job number " + j.jobNumber()
              + " (also line " + before + ")");
        }
        jobs.put(j.jobNumber(), j);
      }
    }
    return convert(jobs, header, instance, timeScale, fileModel, seed, queueField);
  }

  private static Result convert(Map<Long, SwfJob> all, List<String> header, String instance,
      double timeScale, boolean fileModel, long seed, SwfQueueField queueField) {
    Set<Long> kept = new HashSet<>();
    int noRuntime = 0;
    int noSubmit = 0;
    for (SwfJob j : all.values()) {
      if (!(j.runTime() > 0)) {
        noRuntime++;
      } else if (j.submitTime() < 0) {
        noSubmit++;
      } else {
        kept.add(j.jobNumber());
      }
    }
    SwfFileModel model = fileModel ? new SwfFileModel(instance, seed) : null;
    List<TraceJob> jobs = new ArrayList<>(kept.size());
    int links = 0;
    int dropped = 0;
    for (SwfJob j : all.values()) {
      if (!kept.contains(j.jobNumber())) {
        continue;
      }
      List<String> parents = List.of();
      if (j.precedingJob() > 0) {
        if (kept.contains(j.precedingJob())) {
          parents = List.of(instance + "/" + j.precedingJob());
          links++;
        } else {
          dropped++;
        }
      }
      Map<String, String> attrs = new LinkedHashMap<>();
      put(attrs, "user", j.userId());
      put(attrs, "group", j.groupId());
      put(attrs, "executable", j.executable());
      put(attrs, "queue", j.queue());
      put(attrs, "partition", j.partition());
      put(attrs, "status", j.status());
      put(attrs, "processors", j.allocatedProcessors() > 0 ? j.allocatedProcessors()
          : j.requestedProcessors());
      List<InputFile> inputs = model == null ? List.of()
          : model.files(j.userId(), j.executable());
      jobs.add(new TraceJob(instance + "/" + j.jobNumber(), null, j.submitTime() * timeScale,
          inputs, j.runTime() * timeScale, 0, attrs, null, parents, List.of(), null, List.of(),
          null, null, queueField.queueOf(j)));
    }
    jobs.sort(Comparator.comparingDouble(TraceJob::arrival)); // List.sort is stable
    StringBuilder d = new StringBuilder("SWF log ").append(instance).append(": ")
        .append(jobs.size()).append(" jobs");
    if (noRuntime + noSubmit > 0) {
      d.append("; skipped ").append(noRuntime).append(" without a run time (-1 or <= 0) and ")
          .append(noSubmit).append(" without a submit time");
    }
    d.append("; preceding-job links: ").append(links).append(" kept, ").append(dropped)
        .append(" dropped (job not in the file or skipped)");
    d.append(fileModel ? "; file-set model on (seed " + seed + ")" : "; file-set model off");
    if (queueField != SwfQueueField.NONE) {
      d.append("; queue = ").append(queueField.cliName()).append(" (field ")
          .append(queueField.field()).append(")");
    }
    for (String h : header) {
      d.append("; ").append(h);
    }
    return new Result(jobs, d.toString());
  }

  private static void put(Map<String, String> attrs, String key, long value) {
    if (value >= 0) {
      attrs.put(key, Long.toString(value));
    }
  }

  private static SwfJob parse(String source, long line, String text) {
    String[] f = SPACE.split(text);
    if (f.length != SwfJob.FIELDS.length) {
      throw new TraceFormatException(source, line, "an SWF job line has 18 fields, this one has "
          + f.length);
    }
    double[] v = new double[f.length];
    for (int i = 0; i < f.length; i++) {
      try {
        v[i] = Double.parseDouble(f[i]);
      } catch (NumberFormatException e) {
        v[i] = Double.NaN;
      }
      if (!Double.isFinite(v[i])) {
        throw new TraceFormatException(source, line, "field " + (i + 1) + " (" + SwfJob.FIELDS[i]
            + ") is not a number: '" + f[i] + "'");
      }
    }
    for (int i : new int[] {0, 4, 7, 10, 11, 12, 13, 14, 15, 16}) {
      if (v[i] != Math.rint(v[i])) {
        throw new TraceFormatException(source, line, "field " + (i + 1) + " (" + SwfJob.FIELDS[i]
            + ") must be a whole number, got '" + f[i] + "'");
      }
    }
    if (v[0] < 0) {
      throw new TraceFormatException(source, line, "field 1 (job number) must be >= 0, got '"
          + f[0] + "'");
    }
    return new SwfJob((long) v[0], v[1], v[2], v[3], (long) v[4], v[5], v[6], (long) v[7], v[8],
        v[9], (long) v[10], (long) v[11], (long) v[12], (long) v[13], (long) v[14], (long) v[15],
        (long) v[16], v[17]);
  }
}
