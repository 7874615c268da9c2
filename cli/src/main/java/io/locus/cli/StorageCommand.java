package io.locus.cli;

import io.locus.cli.replay.StorageFiles;
import io.locus.workloads.Workload;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code locus storage create}: the input files of a workload, for real agents to stage. */
@Command(name = "storage", mixinStandardHelpOptions = true,
    description = "Prepare the storage real agents read from.",
    subcommands = {StorageCommand.Create.class})
public final class StorageCommand implements Runnable {
  @Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(),
        "Missing command: try 'locus storage create --help'");
  }

  @Command(name = "create", mixinStandardHelpOptions = true,
      description = "Write every input file a workload reads into a storage root, at its size,"
          + " with content fixed by its id; files that are already there are kept. Outputs are"
          + " not written: the tasks create them.")
  static final class Create implements Callable<Integer> {
    @Spec CommandLine.Model.CommandSpec spec;

    @Mixin WorkloadSource source;

    @Option(names = "--storage-root", required = true, paramLabel = "DIR",
        description = "The agents' storage root (their [storage] root, file: URI).")
    Path root;

    @Option(names = "--max-bytes", defaultValue = "10000000000", paramLabel = "BYTES",
        description = "Refuse to write more than this. Default: ${DEFAULT-VALUE} (10 GB).")
    long maxBytes;

    @Override
    public Integer call() throws Exception {
      if (maxBytes < 0) {
        throw new IllegalArgumentException("--max-bytes must be >= 0");
      }
      Workload w = source.open();
      StorageFiles.Plan plan;
      try {
        plan = StorageFiles.plan(w);
      } catch (IllegalStateException e) {
        throw new IllegalArgumentException(e.getMessage(), e);
      }
      StorageFiles.Result r = StorageFiles.write(plan, root, maxBytes);
      var out = spec.commandLine().getOut();
      out.printf("%s: %d input files (%d bytes) under %s: wrote %d (%d bytes), %d already there%n",
          w.name(), plan.files().size(), plan.bytes(), root, r.written(), r.bytesWritten(),
          r.alreadyThere());
      if (plan.outputs() > 0 || plan.ownLocation() > 0) {
        out.printf("not written: %d files the jobs create, %d inputs with a location of their"
            + " own%n", plan.outputs(), plan.ownLocation());
      }
      out.flush();
      return 0;
    }
  }
}
