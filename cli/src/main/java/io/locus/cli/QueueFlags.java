package io.locus.cli;

import io.locus.core.share.QueueNames;
import io.locus.workloads.Workload;
import io.locus.workloads.swf.SwfQueueField;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The options that give trace jobs their queue (issue 24), one group for every command that loads
 * traces ({@code locus trace}, {@code locus simulate}), so their names, help and checks cannot
 * drift apart. Names follow the pool's queue-tree rule ({@link QueueNames}).
 */
public final class QueueFlags {
  @Option(names = "--swf-queue", paramLabel = "FIELD",
      description = "SWF logs: the field that names each job's queue: user (field 12, queue u<N>),"
          + " group (13, g<N>), executable (14, x<N>), queue (15, q<N>), partition (16, p<N>) or"
          + " none; a job whose field is -1 names none. Default: none.")
  String swfQueue;

  @Option(names = "--queues", paramLabel = "Q1,Q2,...", split = ",",
      description = "The queue of each trace file's jobs (a whole WfCommons workflow, an SWF"
          + " log), the files taking the queues in turn; over the trace's own queues.")
  List<String> queues;

  @Option(names = "--queue", paramLabel = "NAME",
      description = "Queue of every job that names none (after the trace's own queue field,"
          + " --swf-queue and --queues; the tenants workload names one): 1-63 letters, digits,"
          + " '_', '-'. Default: none, the pool's default queue.")
  String queue;

  /** Whether --swf-queue was given. */
  public boolean swfQueueGiven() {
    return swfQueue != null;
  }

  /** The --swf-queue field (NONE when not given). */
  public SwfQueueField swfField() {
    return swfQueue == null ? SwfQueueField.NONE : SwfQueueField.parse(swfQueue);
  }

  /** The --queues list (empty when not given). */
  public List<String> perFile() {
    return queues == null ? List.of() : queues;
  }

  /** The options' mistakes, each naming its option; empty when there is none. */
  public List<String> problems() {
    List<String> problems = new ArrayList<>();
    if (swfQueue != null) {
      try {
        SwfQueueField.parse(swfQueue);
      } catch (IllegalArgumentException e) {
        problems.add("--swf-queue: " + e.getMessage());
      }
    }
    for (String q : perFile()) {
      String bad = QueueNames.problem(q);
      if (bad != null) {
        problems.add("--queues: " + bad);
      }
    }
    if (queue != null && QueueNames.problem(queue) != null) {
      problems.add("--queue: " + QueueNames.problem(queue));
    }
    return problems;
  }

  /** {@code w} with --queue for every job that names none (w itself without --queue). */
  public Workload applyDefault(Workload w) {
    return queue == null ? w : w.withDefaultQueue(queue);
  }
}
