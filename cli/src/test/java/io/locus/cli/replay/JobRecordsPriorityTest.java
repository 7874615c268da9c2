package io.locus.cli.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.model.InputFile;
import io.locus.workloads.TraceJob;
import io.locus.workloads.Workload;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The replay publishes a job's priority: the trace's, else --priority's, else 0. */
class JobRecordsPriorityTest {
  private static TraceJob job(String id, Integer priority) {
    return new TraceJob(id, 0, List.of(InputFile.of("f-" + id, 1)), 1).withPriority(priority);
  }

  @Test
  void publishesTheTracePriorityElseTheDefault() {
    Workload w = Workload.of("w", "", List.of(job("set", 10), job("unset", null)));
    assertThat(w.stream().map(j -> JobRecords.toJob(j, "p", 0).getPriority()).toList())
        .containsExactly(10, 0);
    assertThat(w.withDefaultPriority(-4).stream()
        .map(j -> JobRecords.toJob(j, "p", 0).getPriority()).toList())
        .containsExactly(10, -4);
  }
}
