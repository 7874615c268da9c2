package io.locus.workloads;

import io.locus.core.share.QueueNames;

import io.locus.core.model.InputFile;
import io.locus.workloads.swf.SwfQueueField;
import io.locus.workloads.swf.SwfReader;
import io.locus.workloads.wf.WfInstanceReader;
import io.locus.workloads.wf.WfJobs;
import io.locus.workloads.wf.WfWorkflow;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One entry point for every trace file format a user can replay or simulate: Locus's own JSON-lines
 * trace, WfCommons workflow instances (WfFormat 1.0–1.6) and Standard Workload Format logs. The
 * command-line tools ({@code locus replay}, {@code locus simulate}, {@code locus experiment
 * wfcommons}) only choose a {@link Format} and {@link Options}; everything else is here.
 */
public final class TraceFiles {
  private TraceFiles() {}

  /** A trace file format; {@link #cliName()} is what {@code --format} accepts. */
  public enum Format {
    /** Locus's JSON-lines trace ({@link TraceFormat}). */
    LOCUS,
    /** A WfCommons workflow instance (WfFormat JSON, any published schema version). */
    WFCOMMONS,
    /** A Standard Workload Format log of the Parallel Workloads Archive. */
    SWF;

    public String cliName() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code --format}; an unknown name is an IllegalArgumentException listing the names. */
    public static Format parse(String name) {
      for (Format f : values()) {
        if (f.cliName().equals(name)) {
          return f;
        }
      }
      throw new IllegalArgumentException("unknown trace format '" + name
          + "'; formats: locus, wfcommons, swf");
    }
  }

  /**
   * How files become jobs.
   *
   * @param timeScale every time of the trace (arrivals and runtimes) is multiplied by this (1 = as
   *     recorded; 0.01 replays a 1-hour workflow in 36 s)
   * @param pools the pools the jobs go to: empty = the trace's own (null for formats without
   *     pools); one = every job there; several = each file's jobs (each instance) to the next pool
   *     in turn
   * @param swfFileModel SWF: apply the seeded file-set model (jobs read files chosen from their user
   *     and executable); false = SWF jobs read no files
   * @param seed the seed of every random choice a reader makes (the SWF file-set model)
   * @param swfQueue SWF: the field that names each job's queue ({@link SwfQueueField}: user,
   *     group, executable, queue or partition; {@code NONE}, the default, names none)
   * @param queues the queues the jobs go to, as {@code pools}: empty = the trace's own (a Locus
   *     trace's {@code queue}, SWF's {@code swfQueue} field, none for WfCommons); one = every job
   *     there; several = each file's jobs (a whole WfCommons workflow, an SWF log) to the next
   *     queue in turn
   */
  public record Options(double timeScale, List<String> pools, boolean swfFileModel, long seed,
      SwfQueueField swfQueue, List<String> queues) {
    public Options {
      if (!(timeScale > 0) || Double.isInfinite(timeScale)) {
        throw new IllegalArgumentException("time scale must be finite and > 0: " + timeScale);
      }
      pools = pools == null ? List.of() : List.copyOf(pools);
      swfQueue = swfQueue == null ? SwfQueueField.NONE : swfQueue;
      queues = queues == null ? List.of() : List.copyOf(queues);
      for (String q : queues) {
        QueueNames.check(q);
      }
    }

    /** Options without queues (the trace's own, none from SWF). */
    public Options(double timeScale, List<String> pools, boolean swfFileModel, long seed) {
      this(timeScale, pools, swfFileModel, seed, SwfQueueField.NONE, List.of());
    }

    public static Options defaults() {
      return new Options(1.0, List.of(), true, 1);
    }
  }

  /**
   * The jobs of one or more trace files of one format, as one workload. Several files (for example
   * several WfCommons instances) are replayed at once: job and file ids of each instance are
   * prefixed with the instance's name ({@link #instanceName}) so that they cannot collide. A
   * single WfCommons or SWF file is prefixed too (its ids are only unique within the instance); a
   * single Locus trace is not (its ids are the user's own). Times are scaled by {@link
   * Options#timeScale()}, jobs go to {@link Options#pools()}, and the whole workload's DAG is
   * checked (unknown parents, cycles). The workload iterates in arrival order; equal arrivals keep
   * file order, then the order within the file (topological for WfCommons).
   *
   * <p>Locus traces are streamed (several are merged by arrival); WfCommons instances and SWF logs
   * are read into memory. A malformed file is a {@link TraceFormatException} naming the file and
   * the place of the problem (line, or JSON path).
   */
  public static Workload open(List<Path> files, Format format, Options options) throws IOException {
    if (files.isEmpty()) {
      throw new IllegalArgumentException("no trace file given");
    }
    List<String> names = new ArrayList<>();
    for (Path f : files) {
      String n = instanceName(f);
      if (names.contains(n)) {
        throw new IllegalArgumentException("two trace files have the instance name '" + n
            + "' (" + files.get(names.indexOf(n)) + " and " + f + "); rename one");
      }
      names.add(n);
    }
    String name = String.join("+", names);
    if (format == Format.LOCUS) {
      return LocusTraces.open(files, names, options);
    }
    List<TraceJob> all = new ArrayList<>();
    List<String> descriptions = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    for (int i = 0; i < files.size(); i++) {
      Path f = files.get(i);
      String instance = names.get(i);
      String pool = pool(options, i);
      String queue = queue(options, i);
      List<TraceJob> jobs;
      if (format == Format.WFCOMMONS) {
        WfWorkflow wf = WfInstanceReader.read(f);
        warnings.addAll(wf.warnings()); // each names the file already
        try {
          jobs = WfJobs.jobs(wf, instance, options.timeScale());
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(f + ": " + e.getMessage(), e);
        }
        descriptions.add("WfCommons instance " + instance + " (" + wf.name() + "): "
            + jobs.size() + " tasks, " + wf.fileSizes().size() + " files");
      } else {
        SwfReader.Result r = SwfReader.read(f, instance, options.timeScale(),
            options.swfFileModel(), options.seed(), options.swfQueue());
        jobs = r.jobs();
        descriptions.add(r.description());
      }
      for (TraceJob j : jobs) {
        TraceJob p = pool == null ? j : j.withPool(pool);
        all.add(queue == null ? p : p.withQueue(queue));
      }
    }
    all.sort(Comparator.comparingDouble(TraceJob::arrival)); // stable: file order on ties
    TraceDag.check(all, name);
    String scale = options.timeScale() == 1.0 ? "" : " (times x " + options.timeScale() + ")";
    return Workload.of(name, String.join("; ", descriptions) + scale, all).withWarnings(warnings);
  }

  /**
   * The name a file's jobs are prefixed with: the file name without {@code .gz}, then without
   * {@code .json}, {@code .swf}, {@code .jsonl} or {@code .trace} ({@code blast-001.json.gz} →
   * {@code blast-001}).
   */
  public static String instanceName(Path file) {
    String n = file.getFileName().toString();
    if (n.endsWith(".gz")) {
      n = n.substring(0, n.length() - 3);
    }
    for (String ext : List.of(".json", ".swf", ".jsonl", ".trace")) {
      if (n.endsWith(ext) && n.length() > ext.length()) {
        return n.substring(0, n.length() - ext.length());
      }
    }
    return n;
  }

  /**
   * The files of a workload that some job reads and no job writes: the ones that must exist in
   * storage before a replay (the others are created by the jobs). In order of first read.
   */
  public static List<InputFile> storageInputs(Iterable<TraceJob> jobs) {
    Set<String> written = new HashSet<>();
    for (TraceJob j : jobs) {
      for (InputFile f : j.outputs()) {
        written.add(f.id());
      }
    }
    Map<String, InputFile> read = new LinkedHashMap<>();
    for (TraceJob j : jobs) {
      for (InputFile f : j.inputs()) {
        if (!written.contains(f.id())) {
          read.putIfAbsent(f.id(), f);
        }
      }
    }
    return List.copyOf(read.values());
  }

  /** The queue of file {@code index}'s jobs, or null to keep the trace's own. */
  static String queue(Options options, int index) {
    List<String> queues = options.queues();
    return queues.isEmpty() ? null : queues.get(index % queues.size());
  }

  /** The pool of file {@code index}'s jobs, or null to keep the trace's own. */
  static String pool(Options options, int index) {
    List<String> pools = options.pools();
    return pools.isEmpty() ? null : pools.get(index % pools.size());
  }
}
