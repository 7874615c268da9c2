package io.locus.agent.real;

import static io.locus.agent.real.Fixture.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.locus.agent.Refusal;
import io.locus.schemas.EventRange;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.ShrinkTask;
import io.locus.schemas.SuspendTask;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
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
 * Event-range tasks on a real agent: one process per batch of 3 events, shrink and suspend at
 * batch boundaries, with real processes.
 */
@Timeout(60)
class RealEventRangeTest {
  private static final Await WAIT = Await.atMost(AwaitingOutput.DEADLINE);

  private static final String KEY = "t1#0";

  @TempDir
  Path tmp;
  private Fixture fx;
  private AwaitingOutput out;
  private RealAgent a;

  @BeforeEach
  void setUp() {
    fx = new Fixture(tmp);
    out = new AwaitingOutput();
    a = fx.started(fx.config("a")
        .eventBatch(3)
        // No shell: printf writes one line per batch to the run's stdout (appended).
        .template("batch", "printf", "%s %s %s\\n", "{dataset}", "{batch-start}", "{batch-end}")
        // A batch that says it started, then waits until the test lets it end ("go-<start>"),
        // then records itself: the test decides where the batch boundaries fall in time.
        .template("gated", "sh", "-c", ": > \"started-$2\"; while [ ! -e \"go-$2\" ];"
            + " do sleep 0.02; done; echo \"$1 $2 $3\" >> done", "gated", "{dataset}",
            "{batch-start}", "{batch-end}")
        .build(), out);
  }

  @AfterEach
  void tearDown() {
    fx.close();
  }

  private static PlaceTask rangeTask(String template, long start, long end) {
    return PlaceTask.newBuilder(task("t1", template, List.of()))
        .setEvents(new EventRange("lhcb", start, end)).build();
  }

  private Path workDir() {
    WAIT.until("t1's work directory", () -> a.executor().workDir(KEY).isPresent());
    return a.executor().workDir(KEY).orElseThrow();
  }

  private void awaitBatchStarted(long start) {
    Path marker = workDir().resolve("started-" + start);
    WAIT.until("batch " + start + " started", () -> Files.exists(marker));
  }

  /**
   * The process of the batch that started at {@code start}. Its marker can appear before the
   * executor has recorded the process it just forked, hence the wait; once the marker of a later
   * batch exists, an earlier batch's process is no longer the one recorded.
   */
  private ProcessHandle batchProcess(long start) {
    awaitBatchStarted(start);
    WAIT.until("batch " + start + "'s process", () -> a.executor().process(KEY).isPresent());
    return a.executor().process(KEY).orElseThrow();
  }

  private void release(long start) throws IOException {
    Files.createFile(workDir().resolve("go-" + start));
  }

  private List<String> lines(String file) throws IOException {
    return Files.readAllLines(a.executor().workDir(KEY).orElseThrow().resolve(file));
  }

  @Test
  void aRangeRunsAsOneProcessPerBatchInOrder() throws Exception {
    a.agent().onDecision(fx.decision("a", rangeTask("batch", 100, 110)));

    TaskEvent done = out.awaitEnd("t1");
    assertThat(done.getType()).isEqualTo(TaskEventType.COMPLETED);
    assertThat(done.getEvents()).isEqualTo(new EventRange("lhcb", 100L, 110L));
    assertThat(lines("stdout"))
        .containsExactly("lhcb 100 103", "lhcb 103 106", "lhcb 106 109", "lhcb 109 110");
    assertThat(a.agent().processedRanges()).hasSize(1);
    assertThat(a.metrics()).contains("locus_agent_events_processed_total{pool=\"p\",node=\"a\"}"
        + " 10");
  }

  @Test
  void aShrinkBehindTheBatchInProgressLetsItFinishAndStopsAtItsEnd() throws Exception {
    a.agent().onDecision(fx.decision("a", rangeTask("gated", 0, 10)));
    awaitBatchStarted(0);
    a.agent().onDecision(fx.decision("a", shrink(1)));

    TaskEvent ack = out.awaitEvent("SHRUNK", e -> e.getType() == TaskEventType.SHRUNK);
    assertThat(ack.getStopAt()).isEqualTo(3);
    assertThat(out.eventsOf("t1")).extracting(TaskEvent::getType)
        .containsExactly(TaskEventType.STARTED, TaskEventType.SHRUNK);
    release(0);
    TaskEvent done = out.awaitEnd("t1");
    assertThat(done.getType()).isEqualTo(TaskEventType.COMPLETED);
    assertThat(done.getEvents()).isEqualTo(new EventRange("lhcb", 0L, 3L));
    assertThat(lines("done")).containsExactly("lhcb 0 3");
    assertThat(workDir().resolve("started-3")).doesNotExist();
  }

  @Test
  void aShrinkAheadOfTheBatchInProgressCutsALaterBatch() throws Exception {
    a.agent().onDecision(fx.decision("a", rangeTask("gated", 0, 10)));
    awaitBatchStarted(0);
    a.agent().onDecision(fx.decision("a", shrink(4)));
    assertThat(out.awaitEvent("SHRUNK", e -> e.getType() == TaskEventType.SHRUNK).getStopAt())
        .isEqualTo(4);
    release(0);
    awaitBatchStarted(3);
    release(3);

    TaskEvent done = out.awaitEnd("t1");
    assertThat(done.getType()).isEqualTo(TaskEventType.COMPLETED);
    assertThat(done.getEvents()).isEqualTo(new EventRange("lhcb", 0L, 4L));
    assertThat(lines("done")).containsExactly("lhcb 0 3", "lhcb 3 4");
  }

  @Test
  void aSuspendKillsTheBatchInProgressAndStopsAtItsStart() throws Exception {
    a.agent().onDecision(fx.decision("a", rangeTask("gated", 0, 10)));
    awaitBatchStarted(0);
    release(0);
    ProcessHandle batch = batchProcess(3);
    a.agent().onDecision(fx.decision("a", SuspendTask.newBuilder().setTaskId("t1")
        .setJobId("job-t1").setAttempt(0).build()));

    TaskEvent s = out.awaitEnd("t1");
    assertThat(s.getType()).isEqualTo(TaskEventType.SUSPENDED);
    assertThat(s.getStopAt()).isEqualTo(3);
    assertThat(s.getEvents()).isEqualTo(new EventRange("lhcb", 0L, 3L));
    WAIT.until("the batch process killed", () -> !ProcessTaskExecutor.isRunning(batch));
    assertThat(a.agent().runningTasks()).isEmpty();
    // Released now, the killed batch cannot finish: only the first batch ever completed.
    release(3);
    a.agent().onDecision(fx.decision("a", task("t2", "echo", List.of("after"))));
    assertThat(out.awaitEnd("t2").getType()).isEqualTo(TaskEventType.COMPLETED);
    assertThat(lines("done")).containsExactly("lhcb 0 3");
    assertThat(out.eventsOf("t1")).extracting(TaskEvent::getType)
        .containsExactly(TaskEventType.STARTED, TaskEventType.SUSPENDED);
    assertThat(a.metrics()).contains("type=\"suspended\"} 1");
  }

  @Test
  void aBatchThatFailsEndsTheTaskWithTheBatchesBeforeIt() throws Exception {
    a.agent().onDecision(fx.decision("a", rangeTask("gated", 0, 10)));
    awaitBatchStarted(0);
    release(0);
    batchProcess(3).destroy();   // SIGTERM from outside: exit != 0

    TaskEvent failed = out.awaitEnd("t1");
    assertThat(failed.getType()).isEqualTo(TaskEventType.FAILED);
    assertThat(failed.getMessage()).startsWith("batch [3, 6) exit code");
    assertThat(failed.getEvents()).isEqualTo(new EventRange("lhcb", 0L, 3L));
  }

  @Test
  void aTaskWithoutARangeCannotUseTheRangePlaceholders() {
    a.agent().onDecision(fx.decision("a", task("t1", "batch", List.of())));
    TaskEvent r = out.awaitEnd("t1");
    assertThat(r.getType()).isEqualTo(TaskEventType.REFUSED);
    assertThat(r.getMessage()).startsWith(Refusal.BAD_INPUT).contains("{dataset}");
  }

  private static ShrinkTask shrink(long newEnd) {
    return ShrinkTask.newBuilder().setTaskId("t1").setJobId("job-t1").setAttempt(0)
        .setNewEnd(newEnd).build();
  }
}
