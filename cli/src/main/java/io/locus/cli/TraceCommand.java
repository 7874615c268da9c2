package io.locus.cli;

import io.locus.core.share.QueueNames;
import io.locus.workloads.TraceWriter;
import io.locus.workloads.Workload;
import io.locus.workloads.swf.SwfQueueField;
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

  @Option(names = "--swf-queue", paramLabel = "FIELD", defaultValue = "none",
      description = "SWF logs: the field that names each job's queue: user (field 12, queue u<N>),"
          + " group (13, g<N>), executable (14, x<N>), queue (15, q<N>), partition (16, p<N>) or"
          + " none; a job whose field is -1 names none. Default: ${DEFAULT-VALUE}.")
  String swfQueue;

  @Option(names = "--queues", paramLabel = "Q1,Q2,...", split = ",",
      description = "The queue of each trace file's jobs (a whole WfCommons workflow, an SWF"
          + " log), the files taking the queues in turn; over the trace's own queues.")
  List<String> queues;

  @Option(names = "--queue", paramLabel = "NAME",
      description = "Queue written for every job that names none: letters, digits, '.', '_',"
          + " '-'. Default: none (the consumer's default queue).")
  String queue;

  @Override
  public Integer call() throws Exception {
    SwfQueueField field;
    try {
      field = SwfQueueField.parse(swfQueue);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--swf-queue: " + e.getMessage(), e);
    }
    for (String q : queues == null ? List.<String>of() : queues) {
      if (QueueNames.problem(q) != null) {
        throw new IllegalArgumentException("--queues: " + QueueNames.problem(q));
      }
    }
    if (queue != null && QueueNames.problem(queue) != null) {
      throw new IllegalArgumentException("--queue: " + QueueNames.problem(queue));
    }
    Workload w = source.open(List.of(), field, queues == null ? List.of() : queues);
    if (queue != null) {
      w = w.withDefaultQueue(queue);
    }
    long n = TraceWriter.write(out, w);
    spec.commandLine().getOut().printf("wrote %d jobs of %s to %s%n", n, w.name(), out);
    spec.commandLine().getOut().flush();
    return 0;
  }
}
