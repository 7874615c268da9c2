package io.locus.agent.real;

import static io.locus.agent.real.Fixture.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.CancelTask;
import io.locus.schemas.Decision;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.testkit.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The local queue with real processes: a queued attempt's process starts when a slot frees. */
@Timeout(60)
class RealLocalQueueTest {
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

  private static CancelTask withdraw(String taskId) {
    return CancelTask.newBuilder().setTaskId(taskId).setAttempt(0).setReason("moved")
        .setOnlyIfQueued(true).build();
  }

  @Test
  void aQueuedTaskRunsItsProcessOnlyWhenTheSlotFreesAndAWithdrawNeverStopsARunningOne()
      throws Exception {
    RealAgent a = fx.started(fx.config("a").slots(1).queueDepth(2).build(), out);
    a.agent().onDecision(fx.decision("a", task("t1", "wait", List.of())));
    WAIT.until("t1 running", () -> a.executor().process("t1#0").isPresent());
    a.agent().onDecision(fx.decision("a", task("t2", "echo", List.of("two"))));
    Decision p3 = fx.decision("a", task("t3", "echo", List.of("three")));
    a.agent().onDecision(p3);

    // Queued: no process, no work directory, no event.
    assertThat(a.executor().process("t2#0")).isEmpty();
    assertThat(a.executor().workDir("t2#0")).isEmpty();
    assertThat(out.eventsOf("t2")).isEmpty();
    assertThat(a.agent().queuedTasks()).containsExactly("t2#0", "t3#0");

    a.agent().onDecision(fx.decision("a", withdraw("t3")));
    TaskEvent w = out.awaitEnd("t3");
    assertThat(w.getType()).isEqualTo(TaskEventType.WITHDRAWN);
    assertThat(w.getDecisionId()).isEqualTo(p3.getDecisionId());

    Decision refusedWithdraw = fx.decision("a", withdraw("t1"));
    a.agent().onDecision(refusedWithdraw);
    TaskEvent r = out.awaitEnd("t1");
    assertThat(r.getType()).isEqualTo(TaskEventType.REFUSED);
    assertThat(r.getDecisionId()).isEqualTo(refusedWithdraw.getDecisionId());
    assertThat(a.executor().process("t1#0")).isPresent();

    Files.createFile(a.executor().workDir("t1#0").orElseThrow().resolve("go"));
    TaskEvent t2 = out.awaitEnd("t2");
    assertThat(t2.getType()).isEqualTo(TaskEventType.COMPLETED);
    assertThat(out.eventsOf("t1")).extracting(TaskEvent::getType).containsExactly(
        TaskEventType.STARTED, TaskEventType.REFUSED, TaskEventType.COMPLETED);
    assertThat(out.eventsOf("t2")).extracting(TaskEvent::getType)
        .containsExactly(TaskEventType.STARTED, TaskEventType.COMPLETED);
    assertThat(out.eventsOf("t3")).extracting(TaskEvent::getType)
        .containsExactly(TaskEventType.WITHDRAWN);
    assertThat(a.metrics()).contains("locus_agent_queued_tasks{pool=\"p\",node=\"a\"} 0");
  }
}
