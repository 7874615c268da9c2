package io.locus.cli;

import io.locus.workloads.TraceWriter;
import io.locus.workloads.Workload;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code locus trace}: write a generated workload, or trace files of any format (converted), to a
 * Locus trace file.
 */
@Command(name = "trace", mixinStandardHelpOptions = true,
    description = "Write a generated workload, or trace files of any format, to a Locus trace file"
        + " (JSON lines; .gz compresses).")
public final class TraceCommand implements Callable<Integer> {
  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Mixin WorkloadSource source;

  @Option(names = {"-o", "--out"}, required = true, paramLabel = "FILE", description = "Trace file to write.")
  Path out;

  @Mixin QueueFlags queueFlags;

  @Override
  public Integer call() throws Exception {
    List<String> problems = queueFlags.problems();
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", problems));
    }
    Workload w = queueFlags.applyDefault(
        source.open(List.of(), queueFlags.swfField(), queueFlags.perFile()));
    long n = TraceWriter.write(out, w);
    spec.commandLine().getOut().printf("wrote %d jobs of %s to %s%n", n, w.name(), out);
    spec.commandLine().getOut().flush();
    return 0;
  }
}
