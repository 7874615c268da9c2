package io.locus.sim.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.sim.engine.EventQueue;
import io.locus.sim.workload.JobFeeder.End;
import io.locus.sim.workload.JobFeeder.OnFailure;
import io.locus.workloads.TraceJob;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The feeder's side of the lifecycle: which jobs a failed-for-good or cancelled job takes with it
 * under each workflow failure policy, with which reason, and cancels of jobs not yet released.
 * Driven by hand on a real {@link EventQueue}: the test plays the scheduler and says when each
 * released job ends.
 */
class JobFeederTest {
  private final EventQueue events = new EventQueue();
  private final List<String> released = new ArrayList<>();
  private final List<String> cancelledReleased = new ArrayList<>();
  private JobFeeder feeder;

  private static TraceJob job(String id, List<String> parents) {
    return new TraceJob(id, null, 0, List.of(), 1, 0, Map.of(), null, parents, List.of(), null,
        List.of());
  }

  private static TraceJob job(String id, String... parents) {
    return job(id, List.of(parents));
  }

  private void feed(OnFailure policy, TraceJob... jobs) {
    feeder = new JobFeeder(List.of(jobs).iterator(), events, new JobFeeder.Sink() {
      @Override
      public void released(TraceJob job, double now) {
        released.add(job.jobId());
      }

      @Override
      public void cancelReleased(String jobId, double now) {
        cancelledReleased.add(jobId);
        feeder.finished(jobId, End.CANCELLED, now);
      }
    }, policy);
    feeder.start();
  }

  /** Runs every event due at or before {@code t}, in order. */
  private void runUntil(double t) {
    while (events.peekTime() <= t) {
      EventQueue.run(events.pollAt(events.peekTime()));
    }
  }

  /**
   * Two roots of one workflow: F (fails) and G; H needs F, K needs G, M needs H and K; Z stands
   * alone. The DAG is listed children first, so nothing relies on stream order.
   */
  private static TraceJob[] dag() {
    return new TraceJob[] {job("M", "H", "K"), job("H", "F"), job("K", "G"), job("F"), job("G"),
        job("Z")};
  }

  @Test
  void failDescendantsFailsOnlyWhatDependsOnTheFailedJob() {
    feed(OnFailure.FAIL_DESCENDANTS, dag());
    runUntil(0);
    assertThat(released).containsExactly("F", "G", "Z");
    feeder.finished("F", End.FAILED, 1);
    assertThat(feeder.reason("H")).isEqualTo("parent F failed");
    assertThat(feeder.reason("M")).isEqualTo("parent H failed");
    assertThat(feeder.reason("K")).isNull(); // G's child: not F's descendant
    feeder.finished("G", End.COMPLETED, 2);
    assertThat(released).containsExactly("F", "G", "Z", "K");
    feeder.finished("K", End.COMPLETED, 3);
    feeder.finished("Z", End.COMPLETED, 3);
    assertThat(feeder.droppedByParent()).isEqualTo(2);
    assertThat(feeder.droppedByWorkflow()).isZero();
    assertThat(feeder.done()).isTrue();
  }

  @Test
  void failWorkflowFailsEveryUnreleasedJobOfTheWorkflowAndLetsReleasedOnesRun() {
    feed(OnFailure.FAIL_WORKFLOW, dag());
    runUntil(0);
    assertThat(released).containsExactly("F", "G", "Z");
    feeder.finished("F", End.FAILED, 1);
    assertThat(feeder.reason("H")).isEqualTo("parent F failed");
    assertThat(feeder.reason("M")).isEqualTo("parent H failed");
    assertThat(feeder.reason("K")).isEqualTo("workflow failed: F failed");
    assertThat(feeder.reason("G")).isNull(); // released: it runs on
    feeder.finished("G", End.COMPLETED, 2);
    assertThat(released).containsExactly("F", "G", "Z"); // K is never released
    assertThat(feeder.done()).isFalse(); // Z (another workflow) still runs
    feeder.finished("Z", End.COMPLETED, 3);
    assertThat(feeder.droppedByParent()).isEqualTo(2);
    assertThat(feeder.droppedByWorkflow()).isEqualTo(1);
    assertThat(feeder.done()).isTrue();
  }

  @Test
  void aCancelledParentFailsItsDescendantsWithItsReason() {
    feed(OnFailure.FAIL_DESCENDANTS, job("P"), job("C", "P"), job("D", "C"));
    runUntil(0);
    feeder.finished("P", End.CANCELLED, 1);
    assertThat(feeder.reason("C")).isEqualTo("parent P cancelled");
    assertThat(feeder.reason("D")).isEqualTo("parent C failed");
    assertThat(released).containsExactly("P");
    assertThat(feeder.done()).isTrue();
  }

  @Test
  void aChildArrivingAfterItsParentWasCancelledIsDroppedWithTheReason() {
    TraceJob late = new TraceJob("C", null, 5, List.of(), 1, 0, Map.of(), null, List.of("P"),
        List.of(), null, List.of());
    feed(OnFailure.FAIL_DESCENDANTS, job("P"), late);
    runUntil(0);
    feeder.finished("P", End.CANCELLED, 1);
    runUntil(5);
    assertThat(feeder.reason("C")).isEqualTo("parent P cancelled");
    assertThat(feeder.droppedByParent()).isEqualTo(1);
  }

  @Test
  void cancelsOfUnreleasedReleasedAndEndedJobs() {
    // W waits for P and is cancelled at 2; R is released and cancelled at 3; E ends at 1 and is
    // cancelled at 4, too late; Q's cancel at 9 is due after everything ended
    feed(OnFailure.FAIL_DESCENDANTS, job("P"), job("W", "P").withCancelAfter(2.0),
        job("X", "W"), job("R").withCancelAfter(3.0), job("E").withCancelAfter(4.0),
        job("Q").withCancelAfter(9.0));
    runUntil(0);
    assertThat(released).containsExactly("P", "R", "E", "Q");
    feeder.finished("E", End.COMPLETED, 1);
    runUntil(2);
    assertThat(feeder.cancelledUnreleased()).isEqualTo(1);
    assertThat(feeder.reason("X")).isEqualTo("parent W cancelled");
    runUntil(3);
    assertThat(cancelledReleased).containsExactly("R"); // the sink stops it
    runUntil(4);
    assertThat(feeder.cancelsTooLate()).isEqualTo(1);
    feeder.finished("P", End.COMPLETED, 5);
    assertThat(released).containsExactly("P", "R", "E", "Q"); // W never is
    feeder.finished("Q", End.COMPLETED, 6);
    assertThat(feeder.done()).isTrue();
    // Q's cancel would find it ended: counted too late though the run stops before it is due
    assertThat(feeder.cancelsTooLate()).isEqualTo(2);
  }
}
