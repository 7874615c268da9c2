package io.locus.jobs.cli;

import io.locus.workloads.TraceReader;
import io.locus.workloads.Workload;
import io.locus.workloads.Workloads;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/** Where jobs come from: a trace file, or a named generator with its parameters and seed. */
public final class WorkloadSource {
  @ArgGroup(exclusive = true, multiplicity = "1")
  Choice choice;

  static final class Choice {
    @Option(names = "--trace", paramLabel = "FILE", description = "A Locus trace (JSON lines, .gz ok).")
    Path trace;

    @Option(names = "--workload", paramLabel = "NAME",
        description = "A generator: mi, sw, ap, stacking, sched-micro, dd-throughput, stages18, khanna.")
    String workload;
  }

  @Option(names = "--workload-param", paramLabel = "KEY=VALUE",
      description = "Generator parameter, repeatable (e.g. --workload khanna --workload-param n=800); an"
          + " unknown one is refused with the generator's list.")
  Map<String, String> params = new LinkedHashMap<>();

  @Option(names = "--seed", defaultValue = "1", description = "Generator seed. Default: ${DEFAULT-VALUE}.")
  long seed;

  /** The workload; a bad name, parameter or file is an IllegalArgumentException saying which. */
  Workload open() {
    if (choice.trace != null) {
      if (!Files.isReadable(choice.trace)) {
        throw new IllegalArgumentException("--trace: cannot read " + choice.trace);
      }
      try {
        return TraceReader.workload(choice.trace);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read trace " + choice.trace, e);
      }
    }
    return Workloads.create(choice.workload, params, seed);
  }
}
