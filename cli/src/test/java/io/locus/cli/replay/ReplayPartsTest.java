package io.locus.cli.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.core.model.InputFile;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.workloads.TraceJob;
import io.locus.workloads.Workload;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The replay's parts without Kafka: workflow parts and ids, the scan, the stats and the progress bar. */
class ReplayPartsTest {
  private static TraceJob job(String id, String pool, String... parents) {
    return new TraceJob(id, pool, 0, List.of(InputFile.of("f", 1)), 0, 0, Map.of(), null,
        List.of(parents), List.of(), null, List.of());
  }

  @Test
  void aWorkflowIsCutIntoPartsUnderTheLimitKeepingItsJobsInOrder() {
    List<io.locus.schemas.JobSubmitted> jobs = new java.util.ArrayList<>();
    for (int i = 0; i < 200; i++) {
      jobs.add(io.locus.schemas.JobSubmitted.newBuilder(
              JobRecords.toJob(job("job-" + i, null), "p", 1000))
          .setArgs(List.of("x".repeat(1000))) // ~1 KB each: 200 KB in all
          .setParents(i == 0 ? List.of() : List.of("job-" + (i - 1))).build());
    }
    List<io.locus.schemas.WorkflowSubmitted> parts = WorkflowParts.of("wf", jobs,
        io.locus.schemas.WorkflowFailurePolicy.FAIL_WORKFLOW, 1000, "r", 50_000);
    assertThat(parts).hasSizeGreaterThan(3);
    assertThat(parts).allSatisfy(p -> {
      assertThat(io.locus.kafka.Topics.WORKFLOWS.value(p).length).isLessThanOrEqualTo(50_000);
      assertThat(p.getParts()).isEqualTo(parts.size());
      assertThat(p.getWorkflowId()).isEqualTo("wf");
      assertThat(p.getOnFailure().name()).isEqualTo("FAIL_WORKFLOW");
      assertThat(p.getSubmitTimeMs()).isEqualTo(1000);
    });
    assertThat(parts).extracting(io.locus.schemas.WorkflowSubmitted::getPart)
        .containsExactly(java.util.stream.IntStream.range(0, parts.size()).boxed()
            .toArray(Integer[]::new));
    assertThat(parts.stream().flatMap(p -> p.getJobs().stream()).toList()).isEqualTo(jobs);
    // a small workflow is one part
    assertThat(WorkflowParts.of("wf", jobs.subList(0, 3),
        io.locus.schemas.WorkflowFailurePolicy.FAIL_DESCENDANTS, 1000, null,
        WorkflowParts.PART_BYTES)).hasSize(1);
  }

  @Test
  void aWorkflowIdComesFromTheTraceNameAndIsNewEachTime() {
    String a = WorkflowParts.idFor("BLAST chameleon/1.json");
    assertThat(a).startsWith("blast-chameleon-1.json-").hasSize(23 + 36);
    assertThat(WorkflowParts.idFor("BLAST chameleon/1.json")).isNotEqualTo(a);
    assertThat(WorkflowParts.idFor("///")).startsWith("workflow-");
  }

  @Test
  void theScanFindsPoolsParentsAndStagesAndRefusesWhatCouldNeverRun() {
    Workload w = Workload.of("w", "", List.of(job("a", "x"), job("b", "y", "a")));
    WorkloadScan s = WorkloadScan.of(w, -1, TraceJob::pool);
    assertThat(s.jobs()).isEqualTo(2);
    assertThat(s.pools()).containsExactly("x", "y");
    assertThat(s.hasParents()).isTrue();
    assertThat(s.hasStages()).isFalse();
    assertThat(WorkloadScan.of(w, 1, j -> "p").hasParents()).isFalse();
    assertThatThrownBy(() -> WorkloadScan.of(Workload.of("w", "", List.of(job("b", "y", "a"))),
        -1, TraceJob::pool)).hasMessageContaining("1 parent(s) are not jobs of the workload, e.g. a");
    assertThatThrownBy(() -> WorkloadScan.of(Workload.of("w", "", List.of(job("a", "x"),
        job("a", "x"), job("b", "x", "a"))), -1, TraceJob::pool))
        .hasMessageContaining("job id a appears twice");
    assertThatThrownBy(() -> WorkloadScan.of(w, -1, j -> null))
        .hasMessageContaining("job a of w has no pool: give --pool");
  }

  private static TaskEvent event(String pool, String task, TaskEventType type, long end,
      long local) {
    return TaskEvent.newBuilder().setPool(pool).setTaskId(task).setJobId(task).setAttempt(0)
        .setNode("n").setType(type).setTimeMs(end).setEndTimeMs(end).setBytesLocal(local)
        .build();
  }

  @Test
  void statsCountOnlyTheReplaysOwnJobsAndEachCompletionOnce() {
    RunStats s = new RunStats();
    s.submitted("a", "p", 1_000);
    s.submitted("b", "p", 2_000);
    assertThat(s.apply(event("other", "a", TaskEventType.COMPLETED, 9_000, 5))).isFalse();
    assertThat(s.apply(event("p", "zz", TaskEventType.COMPLETED, 9_000, 5))).isFalse();
    assertThat(s.apply(event("p", "a", TaskEventType.FAILED, 1_500, 0))).isFalse();
    assertThat(s.failedCount()).isEqualTo(1);
    assertThat(s.apply(event("p", "a", TaskEventType.COMPLETED, 3_000, 10))).isTrue();
    assertThat(s.apply(event("p", "a", TaskEventType.COMPLETED, 4_000, 10))).isFalse();
    assertThat(s.failedCount()).isZero(); // the retry made it
    assertThat(s.apply(event("p", "b", TaskEventType.FAILED, 2_500, 0))).isFalse();
    Summary sum = s.summary("w", 2, 0);
    assertThat(sum.completed()).isEqualTo(1);
    assertThat(sum.failed()).isEqualTo(1);
    assertThat(sum.makespanSeconds()).isEqualTo(2.0);
    assertThat(sum.meanResponseSeconds()).isEqualTo(2.0);
    assertThat(sum.bytesLocal()).isEqualTo(10);
    assertThat(sum.localRatio()).isEqualTo(1.0);
    assertThat(sum.table()).contains("completed      1 / 2 (1 failed)");
  }

  @Test
  void theProgressBarDrawsPerIntervalInPlaceOnATerminalAndNotAtAllWhenQuiet() {
    StringWriter log = new StringWriter();
    Progress p = new Progress(new PrintWriter(log), false, Duration.ofSeconds(10), 0);
    p.update(5_000_000_000L, 10, 5, 100); // before the first interval: nothing
    assertThat(log.toString()).isEmpty();
    p.update(10_000_000_000L, 50, 20, 100);
    p.update(15_000_000_000L, 60, 30, 100); // within the next interval: nothing
    p.update(20_000_000_000L, 100, 40, 100);
    assertThat(log.toString().lines().toList()).containsExactly(
        "[####....................] submitted 50  done 20  of 100  2.0/s  ETA 40s  (10s)",
        "[#########...............] submitted 100  done 40  of 100  2.0/s  ETA 30s  (20s)");

    StringWriter tty = new StringWriter();
    Progress t = new Progress(new PrintWriter(tty), true, Duration.ofMillis(500), 0);
    t.update(1_000_000_000L, 3, -1, 6);
    t.finish(2_000_000_000L, 6, -1, 6);
    assertThat(tty.toString()).isEqualTo(
        "\r[############............] submitted 3  done -  of 6  3.0/s  ETA 1s  (1s)"
            + "\r[########################] submitted 6  done -  of 6  3.0/s  ETA 0s  (2s)"
            + System.lineSeparator());

    Progress quiet = Progress.forStderr(null, true);
    quiet.update(Long.MAX_VALUE, 1, 1, 1);
    quiet.finish(Long.MAX_VALUE, 1, 1, 1); // no writer: nothing to fail on
  }
}
