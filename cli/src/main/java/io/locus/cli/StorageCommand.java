package io.locus.cli;

import io.locus.cli.replay.StorageFiles;
import io.locus.workloads.Workload;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import io.locus.kafka.cli.EntryPoints;
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
      description = {"Write every input file a workload reads into a storage root, at its size,"
          + " with content fixed by its id; files that are already there are kept. Outputs are"
          + " not written: the tasks create them.",
          "Generators for real agents: " + StorageCommand.Create.SUITED + " read their inputs"
              + " from the storage root; " + StorageCommand.Create.NO_INPUTS + " read no files"
              + " (nothing to write); khanna's inputs each name a location of their own (its"
              + " model's storage nodes), so it is refused. A trace's inputs without a location"
              + " are written."})
  static final class Create implements Callable<Integer> {
    /** The generators whose inputs name no location: real agents read them from the root. */
    static final String SUITED = "mi, sw, ap, stacking, sched-micro, dd-throughput and tenants";
    /** The generators whose jobs read no files. */
    static final String NO_INPUTS = "stages18, cern and the *-mix workloads";

    @Spec CommandLine.Model.CommandSpec spec;

    @Mixin WorkloadSource source;

    @Option(names = "--storage-root", required = true, paramLabel = "DIR",
        description = "The agents' storage root (their [storage] root, file: URI).")
    Path root;

    @Option(names = "--max-bytes", defaultValue = "10GB", paramLabel = "SIZE",
        converter = EntryPoints.Bytes.class,
        description = "Refuse to write more than this: bytes, or with a unit (500MB, 10GB,"
            + " 1.5GiB). Default: ${DEFAULT-VALUE}.")
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
      if (plan.files().isEmpty() && plan.ownLocation() > 0) {
        // Writing nothing and exiting 0 let a user start real agents on a workload whose every
        // read then fails: its inputs are not under the storage root and never will be.
        throw new IllegalArgumentException(w.name() + ": all " + plan.ownLocation()
            + " input files name a location of their own, which this command does not write"
            + " and real agents read only from an allowed location (storage.allowed-locations):"
            + " nothing to write. For real agents use a generator whose inputs come from the"
            + " storage root (" + SUITED + ") or a trace whose inputs name no location");
      }
      StorageFiles.Result r = StorageFiles.write(plan, root, maxBytes);
      var out = spec.commandLine().getOut();
      out.printf("%s: %d input files (%d bytes) under %s: wrote %d (%d bytes), %d already there%n",
          w.name(), plan.files().size(), plan.bytes(), root, r.written(), r.bytesWritten(),
          r.alreadyThere());
      if (plan.files().isEmpty()) {
        // Not an error: such jobs run on real agents without storage.
        out.printf("nothing to write: the jobs of %s read no input files%s%n", w.name(),
            plan.outputs() > 0 ? " other than those they create" : "");
      }
      if (plan.outputs() > 0 || plan.ownLocation() > 0) {
        out.printf("not written: %d files the jobs create, %d inputs with a location of their"
            + " own%n", plan.outputs(), plan.ownLocation());
      }
      out.flush();
      return 0;
    }
  }
}
