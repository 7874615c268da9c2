package io.locus.cli;

import io.locus.core.model.InputFile;
import io.locus.workloads.TraceFiles;
import io.locus.workloads.TraceJob;
import io.locus.workloads.Workload;
import io.locus.workloads.Workloads;
import io.locus.workloads.swf.SwfQueueField;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Where jobs come from: trace files (Locus JSON lines, WfCommons instances, SWF logs, through
 * {@link TraceFiles}), or a named generator with its parameters and seed.
 */
public final class WorkloadSource {
  @ArgGroup(exclusive = true, multiplicity = "1")
  Choice choice;

  /** The command this mixin serves: its error stream gets the readers' warnings. */
  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  static final class Choice {
    @Option(names = "--trace", paramLabel = "FILE|DIR",
        description = "A trace file, or a directory of them (its files, by name); repeatable: "
            + "several files are replayed together, each one's ids prefixed with its name. .gz ok.")
    List<Path> traces;

    @Option(names = "--workload", paramLabel = "NAME",
        description = "A generator: mi, sw, ap, stacking, sched-micro, dd-throughput, stages18,"
            + " khanna, ideal-mix, random-mix, noisy-mix, cern, tenants.")
    String workload;
  }

  @Option(names = "--format", paramLabel = "FORMAT",
      description = "Trace format: locus, wfcommons or swf. Default: by the file name (.json:"
          + " wfcommons, .swf: swf, .jsonl: locus), else by its content.")
  String format;

  @Option(names = "--time-scale", defaultValue = "1", paramLabel = "X",
      description = "Multiply every time of the workload (arrivals and runtimes) by X; 0.01 runs a"
          + " 1-hour workflow in 36 s. Default: ${DEFAULT-VALUE}.")
  double timeScale;

  @Option(names = "--swf-file-model", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = "SWF: give jobs the seeded files of the file-set model (on by default); "
          + "--no-swf-file-model: SWF jobs read no files.")
  boolean swfFileModel;

  @Option(names = "--workload-param", paramLabel = "KEY=VALUE",
      description = "Generator parameter, repeatable (e.g. --workload khanna --workload-param n=800); an"
          + " unknown one is refused with the generator's list.")
  Map<String, String> params = new LinkedHashMap<>();

  @Option(names = "--seed", defaultValue = "1",
      description = "Seed of the generator and of the SWF file-set model. Default: ${DEFAULT-VALUE}.")
  long seed;

  /** The workload; a bad name, parameter or file is an IllegalArgumentException saying which. */
  Workload open() {
    return open(List.of());
  }

  /**
   * The workload, its jobs spread over {@code pools} one file (instance) each in turn when there
   * are several.
   *
   * @throws IllegalArgumentException for a bad name, parameter, file or option
   * @throws io.locus.workloads.TraceFormatException for a malformed trace (the reader's message)
   */
  Workload open(List<String> pools) {
    return open(pools, SwfQueueField.NONE, List.of());
  }

  /**
   * The workload as {@link #open(List)}, SWF jobs' queues named by {@code swfQueue} and each
   * trace file's jobs sent to {@code queues} in turn (empty: the trace's own).
   */
  Workload open(List<String> pools, SwfQueueField swfQueue, List<String> queues) {
    if (!(timeScale > 0) || Double.isInfinite(timeScale)) {
      throw new IllegalArgumentException("--time-scale must be finite and > 0: " + timeScale);
    }
    if (choice.traces == null) {
      if (pools.size() > 1) {
        throw new IllegalArgumentException("--pools spreads trace files over pools; a generated"
            + " workload is one: give --pool");
      }
      if (format != null) {
        throw new IllegalArgumentException("--format is for --trace files");
      }
      if (swfQueue != SwfQueueField.NONE || !queues.isEmpty()) {
        throw new IllegalArgumentException("--swf-queue and --queues are for --trace files");
      }
      Workload w = Workloads.create(choice.workload, params, seed);
      return timeScale == 1.0 ? w : scaled(w, timeScale);
    }
    List<Path> files = files(choice.traces);
    TraceFiles.Format f = format != null ? parseFormat(format) : detect(files);
    if (swfQueue != SwfQueueField.NONE && f != TraceFiles.Format.SWF) {
      throw new IllegalArgumentException("--swf-queue is for SWF logs; these are "
          + f.cliName() + " traces");
    }
    TraceFiles.Options options = new TraceFiles.Options(timeScale,
        pools.size() > 1 ? pools : List.of(), swfFileModel, seed, swfQueue, queues);
    try {
      Workload w = TraceFiles.open(files, f, options);
      if (mixee != null) {
        w.warnings().forEach(m -> mixee.commandLine().getErr().println("warning: " + m));
        mixee.commandLine().getErr().flush();
      }
      return w;
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read trace " + files + ": " + e.getMessage(), e);
    } catch (UncheckedIOException e) {
      throw new IllegalArgumentException("cannot read trace " + files + ": "
          + e.getCause().getMessage(), e);
    }
  }

  private static TraceFiles.Format parseFormat(String name) {
    return TraceFiles.Format.parse(name.toLowerCase(Locale.ROOT));
  }

  /** The files named: a directory stands for its regular, non-hidden files, by name. */
  static List<Path> files(List<Path> given) {
    List<Path> out = new ArrayList<>();
    for (Path p : given) {
      if (Files.isDirectory(p)) {
        try (Stream<Path> s = Files.list(p)) {
          List<Path> in = s.filter(Files::isRegularFile)
              .filter(f -> !f.getFileName().toString().startsWith(".")).sorted().toList();
          if (in.isEmpty()) {
            throw new IllegalArgumentException("--trace: directory " + p + " holds no file");
          }
          out.addAll(in);
        } catch (IOException e) {
          throw new IllegalArgumentException("--trace: cannot list " + p + ": " + e.getMessage());
        }
      } else if (unreadable(p) != null) {
        throw new IllegalArgumentException("--trace: " + p + " " + unreadable(p));
      } else {
        out.add(p);
      }
    }
    return out;
  }

  /**
   * Why a trace file given on the command line cannot be read ("does not exist", "is a
   * directory", "is not readable (check its permissions)"), or null when it can: "cannot read"
   * alone sent a user who mistyped a name to check permissions.
   */
  public static String unreadable(Path p) {
    if (!Files.exists(p)) {
      return "does not exist";
    }
    if (Files.isDirectory(p)) {
      return "is a directory";
    }
    return Files.isReadable(p) ? null : "is not readable (check its permissions)";
  }

  /** One format for all the files, by name or content; mixed formats need --format. */
  static TraceFiles.Format detect(List<Path> files) {
    TraceFiles.Format first = null;
    for (Path f : files) {
      TraceFiles.Format each = detect(f);
      if (first != null && each != first) {
        throw new IllegalArgumentException("--trace: " + files.get(0) + " looks like "
            + first.cliName() + " but " + f + " like " + each.cliName()
            + "; replay one format at a time, or give --format");
      }
      first = each;
    }
    return first;
  }

  static TraceFiles.Format detect(Path file) {
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    if (name.endsWith(".gz")) {
      name = name.substring(0, name.length() - 3);
    }
    if (name.endsWith(".jsonl")) {
      return TraceFiles.Format.LOCUS;
    }
    if (name.endsWith(".json")) {
      return TraceFiles.Format.WFCOMMONS;
    }
    if (name.endsWith(".swf")) {
      return TraceFiles.Format.SWF;
    }
    String first = firstLine(file);
    if (first.startsWith(";") || !first.isEmpty() && Character.isDigit(first.charAt(0))) {
      return TraceFiles.Format.SWF; // SWF: header comments, or a job line of numbers
    }
    if (first.startsWith("{") && first.contains("\"locus-trace\"")) {
      return TraceFiles.Format.LOCUS; // the JSON-lines header
    }
    if (first.startsWith("{") || first.startsWith("[")) {
      return TraceFiles.Format.WFCOMMONS;
    }
    throw new IllegalArgumentException("--trace: cannot tell the format of " + file
        + "; give --format locus, wfcommons or swf");
  }

  /** The first non-blank line, stripped (a gzip file read through). */
  private static String firstLine(Path file) {
    try (InputStream raw = Files.newInputStream(file)) {
      InputStream in = raw;
      if (file.getFileName().toString().endsWith(".gz")) {
        in = new GZIPInputStream(raw);
      }
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      for (String line; (line = r.readLine()) != null; ) {
        if (!line.isBlank()) {
          return line.strip();
        }
      }
      return "";
    } catch (IOException e) {
      throw new IllegalArgumentException("--trace: cannot read " + file + ": " + e.getMessage());
    }
  }

  /**
   * A generated workload with every time multiplied by {@code k} (a cancel delay too: it counts
   * from the arrival); every other field kept, the queue included.
   */
  static Workload scaled(Workload w, double k) {
    return w.map(j -> {
      List<InputFile> inputs = j.inputs().stream().map(u -> new InputFile(u.id(), u.bytes(),
          u.computeSeconds() * k, u.location(), u.checksum())).toList();
      return new TraceJob(j.jobId(), j.pool(), j.arrival() * k, inputs,
          j.computeSeconds() * k, j.stage(), j.attributes(), j.events(), j.parents(),
          j.outputs(), j.template(), j.args(), j.priority(),
          j.cancelAfter() == null ? null : j.cancelAfter() * k, j.queue());
    });
  }
}
