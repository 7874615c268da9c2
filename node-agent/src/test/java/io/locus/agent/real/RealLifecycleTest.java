package io.locus.agent.real;

import static io.locus.agent.real.Fixture.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.locus.agent.NodeAgent;
import io.locus.agent.Refusal;
import io.locus.schemas.CancelTask;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.testkit.Await;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Cancel, timeout, drain and stop, with real processes. */
@Timeout(60)
class RealLifecycleTest {
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

  private static CancelTask cancel(String taskId) {
    return CancelTask.newBuilder().setTaskId(taskId).setAttempt(0).setReason("test").build();
  }

  /** The pid the "tree" template's shell wrote for its background child. */
  private static ProcessHandle child(RealAgent a, String key) throws Exception {
    // the run is started on the agent's own thread: its work dir exists once it has begun
    WAIT.until(key + " has a work dir", () -> a.executor().workDir(key).isPresent());
    Path pidFile = a.executor().workDir(key).orElseThrow().resolve("child.pid");
    WAIT.until("the child's pid", () -> {
      try {
        return Files.exists(pidFile) && Files.readString(pidFile).strip().matches("[0-9]+");
      } catch (IOException e) {
        return false;
      }
    });
    return ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip())).orElseThrow();
  }

  @Test
  void aCancelKillsTheLongRunningProcessAndItsChildren() throws Exception {
    RealAgent a = fx.started(fx.config("a").build(), out);
    a.agent().onDecision(fx.decision("a", task("t1", "tree", List.of())));
    WAIT.until("t1 running", () -> a.executor().process("t1#0").isPresent());
    ProcessHandle shell = a.executor().process("t1#0").orElseThrow();
    ProcessHandle sleeper = child(a, "t1#0");
    assertThat(ProcessTaskExecutor.isRunning(sleeper)).isTrue();

    a.agent().onDecision(fx.decision("a", cancel("t1")));

    TaskEvent failed = out.awaitEnd("t1");
    assertThat(failed.getType()).isEqualTo(TaskEventType.FAILED);
    assertThat(failed.getMessage()).isEqualTo(NodeAgent.CANCELLED);
    assertThat(failed.getExitCode()).isEqualTo(NodeAgent.ABORTED_EXIT_CODE);
    shell.onExit().get(10, TimeUnit.SECONDS);
    WAIT.until("the child killed", () -> !ProcessTaskExecutor.isRunning(sleeper));
    assertThat(a.agent().runningTasks()).isEmpty();
    // No late COMPLETED or FAILED from the killed process.
    a.agent().onDecision(fx.decision("a", task("t2", "echo", List.of("after"))));
    assertThat(out.awaitEnd("t2").getType()).isEqualTo(TaskEventType.COMPLETED);
    assertThat(out.eventsOf("t1")).extracting(TaskEvent::getType)
        .containsExactly(TaskEventType.STARTED, TaskEventType.FAILED);
  }

  @Test
  void aCancelRemovesThePartialOutputsAndScratchFilesOnceTheProcessIsGone() throws Exception {
    RealAgent a = fx.started(fx.config("a").build(), out);
    a.agent().onDecision(fx.decision("a", task("t1", "partial", List.of())));
    ProcessHandle sleeper = child(a, "t1#0");
    Path wd = a.executor().workDir("t1#0").orElseThrow();
    assertThat(wd.resolve("out/result")).exists();
    assertThat(wd.resolve("tmp/scratch")).exists();

    a.agent().onDecision(fx.decision("a", cancel("t1")));

    assertThat(out.awaitEnd("t1").getMessage()).isEqualTo(NodeAgent.CANCELLED);
    WAIT.until("the process gone", () -> !ProcessTaskExecutor.isRunning(sleeper));
    WAIT.until("the partial output removed", () -> !Files.exists(wd.resolve("out/result")));
    WAIT.until("the scratch file removed", () -> !Files.exists(wd.resolve("tmp/scratch")));
    assertThat(wd.resolve("stderr")).as("the log stays for inspection").exists();
    assertThat(a.agent().runningTasks()).isEmpty();
  }

  @Test
  void aTaskOverItsTimeoutIsKilledAndReported() {
    RealAgent a = fx.started(fx.config("a").build(), out);
    a.agent().onDecision(fx.decision("a", task("t1", "slow", List.of())));
    TaskEvent e = out.awaitEnd("t1");
    assertThat(e.getType()).isEqualTo(TaskEventType.FAILED);
    assertThat(e.getExitCode()).isEqualTo(NodeAgent.ABORTED_EXIT_CODE);
    assertThat(e.getMessage()).startsWith("timed out after PT0.3S");
  }

  @Test
  void aDrainFinishesRunningTasksRefusesNewOnesReportsDrainingThenLeaves() throws Exception {
    RealAgent a = fx.started(fx.config("a").build(), out);
    a.agent().onDecision(fx.decision("a", task("t1", "wait", List.of())));
    WAIT.until("t1 running", () -> a.executor().process("t1#0").isPresent());

    CompletableFuture<Void> left = a.agent().drain();
    NodeReport hb = out.awaitReport("a draining heartbeat",
        r -> r.getType() == NodeReportType.HEARTBEAT && r.getDraining());
    assertThat(hb.getNode()).isEqualTo("a");
    a.agent().onDecision(fx.decision("a", task("t2", "echo", List.of("x"))));
    assertThat(out.awaitEnd("t2").getMessage()).isEqualTo(Refusal.DRAINING);
    assertThat(left).isNotDone();
    assertThat(a.metrics()).contains("locus_agent_draining{pool=\"p\",node=\"a\"} 1");

    Files.createFile(a.executor().workDir("t1#0").orElseThrow().resolve("go"));
    assertThat(out.awaitEnd("t1").getType()).isEqualTo(TaskEventType.COMPLETED);
    left.get(10, TimeUnit.SECONDS);
    List<NodeReport> reports = out.reports();
    assertThat(reports.get(reports.size() - 1).getType()).isEqualTo(NodeReportType.LEAVE);
    assertThat(reports.get(reports.size() - 1).getDraining()).isTrue();
    // After LEAVE nothing runs.
    a.agent().onDecision(fx.decision("a", task("t3", "echo", List.of("x"))));
    assertThat(out.eventsOf("t3")).isEmpty();
  }

  @Test
  void closingStopsRunningProcessesAndLeaves() throws Exception {
    RealAgent a = fx.started(fx.config("a").build(), out);
    a.agent().onDecision(fx.decision("a", task("t1", "tree", List.of())));
    WAIT.until("t1 running", () -> a.executor().process("t1#0").isPresent());
    ProcessHandle shell = a.executor().process("t1#0").orElseThrow();
    ProcessHandle sleeper = child(a, "t1#0");

    a.close();

    assertThat(out.awaitEnd("t1").getMessage()).isEqualTo(NodeAgent.AGENT_STOPPED);
    assertThat(ProcessTaskExecutor.isRunning(shell)).isFalse();
    assertThat(ProcessTaskExecutor.isRunning(sleeper)).isFalse();
    assertThat(out.reports(NodeReportType.LEAVE)).hasSize(1);
  }
}
