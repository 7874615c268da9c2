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

/** The replay's parts without Kafka: the DAG gate, the scan, the stats and the progress bar. */
class ReplayPartsTest {
  private static TraceJob job(String id, String pool, String... parents) {
    return new TraceJob(id, pool, 0, List.of(InputFile.of("f", 1)), 0, 0, Map.of(), null,
        List.of(parents), List.of(), null, List.of());
  }

  @Test
  void theGateReleasesAChildWithItsLastParentOnce() {
    DagGate g = new DagGate();
    assertThat(g.admit(job("a", null), "p")).isTrue();
    assertThat(g.admit(job("b", null), "p")).isTrue();
    assertThat(g.admit(job("c", null, "a", "b", "a"), "p")).isFalse(); // a repeated parent counts once
    assertThat(g.admit(job("d", null, "a"), "q")).isFalse();
    assertThat(g.waiting()).isEqualTo(2);
    assertThat(g.describeWaiting(5)).isEqualTo("c (waits for a, b), d (waits for a)");
    assertThat(g.completed("a")).extracting(r -> r.job().jobId() + "@" + r.pool())
        .containsExactly("d@q");
    assertThat(g.completed("a")).isEmpty(); // a repeated completion
    assertThat(g.describeWaiting(5)).isEqualTo("c (waits for b)");
    assertThat(g.completed("b")).extracting(r -> r.job().jobId()).containsExactly("c");
    assertThat(g.waiting()).isZero();
    // a job whose parents completed before it arrived goes at once
    assertThat(g.admit(job("e", null, "a", "b"), "p")).isTrue();
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
