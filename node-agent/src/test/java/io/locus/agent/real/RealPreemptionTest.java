package io.locus.agent.real;

import static io.locus.agent.real.Fixture.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.locus.agent.NodeAgent;
import io.locus.agent.Refusal;
import io.locus.schemas.CancelTask;
import io.locus.schemas.Decision;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.auth.RecordSigner;
import io.locus.testkit.Await;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Preemption with real processes (issue 24): SIGTERM to the process tree, SIGKILL after the
 * grace period for what ignores it, and PREEMPTED (not FAILED) once the processes are gone; the
 * slot is held until then.
 */
@Timeout(60)
class RealPreemptionTest {
  private static final Await WAIT = Await.atMost(AwaitingOutput.DEADLINE);

  @TempDir
  Path tmp;
  private Fixture fx;
  private AwaitingOutput out;

  @BeforeEach
  void setUp() {
    fx = new Fixture(tmp);
    out = new AwaitingOutput();
  }

  @AfterEach
  void tearDown() {
    fx.close();
  }

  private static CancelTask preempt(String taskId, long graceMs) {
    return CancelTask.newBuilder().setTaskId(taskId).setAttempt(0).setReason("queue b")
        .setPreempt(true).setGraceMs(graceMs).build();
  }

  /** The pid the template's shell wrote for its background child. */
  private static ProcessHandle child(RealAgent a, String key) {
    WAIT.until(key + " has a work dir", () -> a.executor().workDir(key).isPresent());
    Path pidFile = a.executor().workDir(key).orElseThrow().resolve("child.pid");
    WAIT.until("the child's pid", () -> {
      try {
        return Files.exists(pidFile) && Files.readString(pidFile).strip().matches("[0-9]+");
      } catch (IOException e) {
        return false;
      }
    });
    try {
      return ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip())).orElseThrow();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void aPreemptedProcessGetsSigtermAndThePreemptedAnswerFollowsItsExit() {
    RealAgent a = fx.started(fx.config("a").build(), out);
    Decision place = fx.decision("a", task("t1", "tree", List.of()));
    a.agent().onDecision(place);
    WAIT.until("t1 running", () -> a.executor().process("t1#0").isPresent());
    ProcessHandle shell = a.executor().process("t1#0").orElseThrow();
    ProcessHandle sleeper = child(a, "t1#0");

    long sent = System.nanoTime();
    // a grace far longer than the test: a process that obeys SIGTERM must not wait for it
    a.agent().onDecision(fx.decision("a", preempt("t1", 120_000)));

    TaskEvent e = out.awaitEnd("t1");
    assertThat(e.getType()).isEqualTo(TaskEventType.PREEMPTED);
    assertThat(e.getDecisionId()).isEqualTo(place.getDecisionId());
    assertThat(e.getMessage()).isEqualTo("stopped: queue b");
    assertThat(System.nanoTime() - sent).isLessThan(30_000_000_000L);
    assertThat(ProcessTaskExecutor.isRunning(shell)).as("the shell is gone").isFalse();
    assertThat(ProcessTaskExecutor.isRunning(sleeper)).as("its child is gone").isFalse();
    assertThat(a.agent().runningTasks()).isEmpty();
    assertThat(out.eventsOf("t1")).extracting(TaskEvent::getType)
        .containsExactly(TaskEventType.STARTED, TaskEventType.PREEMPTED);
    assertThat(a.agent().stats().tasksPreempted()).isEqualTo(1);
    assertThat(a.agent().stats().tasksFailed()).isZero();
  }

  @Test
  void aProcessThatIgnoresSigtermIsKilledAfterTheGracePeriodAndHoldsItsSlotUntilThen() {
    RealAgent a = fx.started(fx.config("a")
        .template("stubborn", "sh", "-c", "trap '' TERM; sleep 300 & echo $! > child.pid; wait")
        .build(), out);
    a.agent().onDecision(fx.decision("a", task("t1", "stubborn", List.of())));
    WAIT.until("t1 running", () -> a.executor().process("t1#0").isPresent());
    ProcessHandle shell = a.executor().process("t1#0").orElseThrow();
    ProcessHandle sleeper = child(a, "t1#0");

    long sent = System.nanoTime();
    a.agent().onDecision(fx.decision("a", preempt("t1", 1_500)));

    // SIGTERM is ignored: during the grace the attempt still holds its slot, unanswered
    assertThat(a.agent().runningTasks()).containsExactly("t1#0");
    assertThat(out.eventsOf("t1")).extracting(TaskEvent::getType)
        .containsExactly(TaskEventType.STARTED);
    TaskEvent e = out.awaitEnd("t1");
    long waited = System.nanoTime() - sent;
    assertThat(e.getType()).isEqualTo(TaskEventType.PREEMPTED);
    assertThat(e.getMessage()).isEqualTo("killed after its grace period: queue b");
    assertThat(waited).as("answered only after the grace").isGreaterThanOrEqualTo(1_500_000_000L);
    assertThat(ProcessTaskExecutor.isRunning(shell)).isFalse();
    assertThat(ProcessTaskExecutor.isRunning(sleeper)).isFalse();
    assertThat(a.agent().runningTasks()).isEmpty();
    // the slot is free: the next placement runs
    a.agent().onDecision(fx.decision("a", task("t2", "echo", List.of("after"))));
    assertThat(out.awaitEnd("t2").getType()).isEqualTo(TaskEventType.COMPLETED);
    assertThat(out.eventsOf("t1")).extracting(TaskEvent::getType)
        .containsExactly(TaskEventType.STARTED, TaskEventType.PREEMPTED);
  }

  /**
   * With a pool secret, a forged preemption (unsigned, or signed with another secret) stops
   * nothing and leaves no trace; the genuine one, replayed, is acted on once.
   */
  @Test
  void aForgedPreemptionStopsNothingAndAReplayedOneActsOnce() {
    RecordSigner pool = RecordSigner.of("pool secret");
    RealAgent a = fx.started(fx.config("a").signer(pool).build(), out);
    a.agent().onDecision(pool.sign(fx.decision("a", task("t1", "tree", List.of()))));
    WAIT.until("t1 running", () -> a.executor().process("t1#0").isPresent());
    ProcessHandle shell = a.executor().process("t1#0").orElseThrow();

    a.agent().onDecision(fx.decision("a", preempt("t1", 0)));
    a.agent().onDecision(RecordSigner.of("guess").sign(fx.decision("a", preempt("t1", 0))));
    assertThat(a.agent().refusals()).containsEntry(Refusal.UNSIGNED, 1L)
        .containsEntry(Refusal.BAD_SIGNATURE, 1L);
    assertThat(ProcessTaskExecutor.isRunning(shell)).as("a forgery stops nothing").isTrue();
    assertThat(a.agent().runningTasks()).containsExactly("t1#0");

    Decision genuine = pool.sign(fx.decision("a", preempt("t1", 10_000)));
    a.agent().onDecision(genuine);
    a.agent().onDecision(genuine); // a replay: deduplicated
    assertThat(out.awaitEnd("t1").getType()).isEqualTo(TaskEventType.PREEMPTED);
    WAIT.until("t1's shell gone", () -> !ProcessTaskExecutor.isRunning(shell));
    assertThat(out.eventsOf("t1")).extracting(TaskEvent::getType)
        .containsExactly(TaskEventType.STARTED, TaskEventType.PREEMPTED);
    assertThat(a.agent().stats().tasksPreempted()).isEqualTo(1);
  }

  @Test
  void aPreemptionOfAnAttemptNotRunningHereStopsNothingAndIsNotAnswered() {
    RealAgent a = fx.started(fx.config("a").build(), out);
    a.agent().onDecision(fx.decision("a", task("t1", "tree", List.of())));
    WAIT.until("t1 running", () -> a.executor().process("t1#0").isPresent());
    ProcessHandle shell = a.executor().process("t1#0").orElseThrow();

    a.agent().onDecision(fx.decision("a", preempt("t2", 0)));
    // a cancel of t1 after it: its FAILED shows the preemption of t2 was passed over
    a.agent().onDecision(fx.decision("a", CancelTask.newBuilder().setTaskId("t1").setAttempt(0)
        .setReason("test").build()));
    assertThat(out.awaitEnd("t1").getMessage()).isEqualTo(NodeAgent.CANCELLED);
    WAIT.until("t1's shell gone", () -> !ProcessTaskExecutor.isRunning(shell));
    assertThat(out.eventsOf("t2")).isEmpty();
    assertThat(a.agent().stats().tasksPreempted()).isZero();
  }
}
