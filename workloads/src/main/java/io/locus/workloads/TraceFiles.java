package io.locus.workloads;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

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
   */
  public record Options(double timeScale, List<String> pools, boolean swfFileModel, long seed) {
    public Options {
      if (!(timeScale > 0) || Double.isInfinite(timeScale)) {
        throw new IllegalArgumentException("time scale must be finite and > 0: " + timeScale);
      }
      pools = pools == null ? List.of() : List.copyOf(pools);
    }

    public static Options defaults() {
      return new Options(1.0, List.of(), true, 1);
    }
  }

  /**
   * The jobs of one or more trace files of one format, as one workload. Several files (for example
   * several WfCommons instances) are replayed at once: job and file ids of each instance are
   * prefixed with the instance's name so that they cannot collide. A malformed file is a
   * {@link TraceFormatException} naming the file and the place of the problem (line, or JSON path).
   */
  public static Workload open(List<Path> files, Format format, Options options) throws IOException {
    if (files.isEmpty()) {
      throw new IllegalArgumentException("no trace file given");
    }
    return switch (format) {
      case LOCUS -> {
        if (files.size() != 1 || options.timeScale() != 1.0 || !options.pools().isEmpty()) {
          // TODO(issue 15, formats helper): several Locus traces, time scaling and pools
          throw new UnsupportedOperationException("not yet: several Locus traces / options");
        }
        yield TraceReader.workload(files.get(0));
      }
      // TODO(issue 15, formats helper): the readers
      case WFCOMMONS, SWF -> throw new UnsupportedOperationException("not yet: " + format);
    };
  }
}
