package io.locus.agent;

import static io.locus.agent.TestDecisions.MB;
import static io.locus.agent.TestDecisions.decision;
import static io.locus.agent.TestDecisions.storage;
import static io.locus.agent.TestDecisions.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.PlaceTask;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;

/** The task-run state machine, with reads and runs that end only when the test says so. */
class TaskRunnerTest {
  /** A read the test ends. */
  private record Read(StageRequest request, Consumer<StageRequest.Outcome> done) {}

  private final List<Read> reads = new ArrayList<>();
  private final List<IntConsumer> runs = new ArrayList<>();
  private final List<String> discarded = new ArrayList<>();
  private final RecordingOutput out = new RecordingOutput();
  private final Object monitor = new Object();
  private int ended;

  private final Stager stager = (request, done) -> {
    reads.add(new Read(request, done));
    return Cancellable.NONE;
  };
  private final TaskExecutor executor = (node, task, done) -> {
    runs.add(done);
    return Cancellable.NONE;
  };
  private final AgentContext ctx = new AgentContext(monitor,
      AgentConfig.builder("p", "n1").cacheCapacityBytes(100 * MB).build(), new ManualScheduler(),
      out, null, new CacheStore() {
        @Override
        public void discard(StageRequest r) {
          discarded.add(r.fileId());
        }
      }, AgentIdentity.random());
  private final TaskRunner runner = new TaskRunner(ctx, stager, executor, new SharedFetches(),
      new RangeLedger(10, ctx.counters), () -> ended++);

  TaskRunnerTest() {
    ctx.state = AgentContext.State.STARTED;
  }

  private void start(PlaceTask p) {
    runner.start(decision("d-" + p.getTaskId(), 1, "p", "n1", p), p);
  }

  @Test
  void aRunStagesItsInputsInOrderThenComputesThenEnds() {
    start(task("t1", 1, storage("a", MB), storage("b", MB)));
    AttemptRun t = runner.get("t1#0");
    assertThat(t.phase()).isEqualTo(AttemptRun.Phase.STAGING);
    assertThat(reads).extracting(r -> r.request().fileId()).containsExactly("a");
    assertThat(ctx.cache.isPinned("a")).isTrue();
    assertThat(ctx.cache.isPinned("b")).isTrue();

    reads.get(0).done().accept(StageRequest.Outcome.DONE);
    assertThat(reads).extracting(r -> r.request().fileId()).containsExactly("a", "b");
    assertThat(runs).isEmpty();
    reads.get(1).done().accept(StageRequest.Outcome.DONE);
    assertThat(t.phase()).isEqualTo(AttemptRun.Phase.COMPUTING);
    assertThat(runs).hasSize(1);

    runs.get(0).accept(0);
    assertThat(t.ended()).isTrue();
    assertThat(runner.count()).isZero();
    assertThat(ended).isEqualTo(1);
    assertThat(ctx.cache.isPinned("a")).isFalse();
    TaskEvent done = out.events(TaskEventType.COMPLETED).get(0);
    assertThat(done.getBytesStorage()).isEqualTo(2 * MB);
  }

  @Test
  void aMissingStorageFileFailsTheTaskAndIsLoggedOnceAtWarnWithItsReason() {
    List<String> warnings = new ArrayList<>();
    try (var capture = LogCapture.of(TaskEventWriter.LOG, warnings)) {
      start(task("t1", 1, storage("a", MB)));
      reads.get(0).done().accept(StageRequest.Outcome.NOT_FOUND);
      // The run is over: stopping the agent now reports nothing more about it.
      runner.stopAll(NodeAgent.AGENT_STOPPED);
    }
    assertThat(out.events(TaskEventType.FAILED)).extracting(TaskEvent::getMessage)
        .containsExactly("storage has no a");
    assertThat(warnings).hasSize(1);
    assertThat(warnings.get(0)).startsWith("WARN ").contains("node n1 pool p")
        .contains("task t1 attempt 0 FAILED").contains("storage has no a");
  }

  @Test
  void aCancelIsNotAWarning() {
    List<String> lines = new ArrayList<>();
    try (var capture = LogCapture.of(TaskEventWriter.LOG, lines)) {
      start(task("t1", 1, storage("a", MB)));
      runner.abort(runner.get("t1#0"), NodeAgent.CANCELLED);
    }
    assertThat(lines).noneMatch(l -> l.startsWith("WARN"));
  }

  @Test
  void aReadThatEndsAfterItsRunWasCancelledIsDiscarded() {
    start(task("t1", 1, storage("a", MB)));
    runner.abort(runner.get("t1#0"), NodeAgent.CANCELLED);
    reads.get(0).done().accept(StageRequest.Outcome.DONE);

    assertThat(discarded).containsExactly("a");
    assertThat(ctx.cache.contains("a")).isFalse();
    assertThat(runs).isEmpty();
    assertThat(out.events(TaskEventType.FAILED)).extracting(TaskEvent::getMessage)
        .containsExactly(NodeAgent.CANCELLED);
  }

  @Test
  void aRunWaitingForAnothersFetchFetchesItselfWhenThatRunIsCancelled() {
    start(task("t1", 1, storage("a", MB)));
    start(task("t2", 1, storage("a", MB)));
    assertThat(reads).as("one fetch of a, t2 waits").hasSize(1);
    assertThat(ctx.counters.sharedFetches).isEqualTo(1);

    runner.abort(runner.get("t1#0"), NodeAgent.CANCELLED);
    assertThat(reads).as("t2 now reads a itself").hasSize(2);
    assertThat(reads.get(1).request().fileId()).isEqualTo("a");

    reads.get(1).done().accept(StageRequest.Outcome.DONE);
    assertThat(runner.get("t2#0").phase()).isEqualTo(AttemptRun.Phase.COMPUTING);
    assertThat(ctx.cache.contains("a")).isTrue();
  }

  @Test
  void theWaiterReadsLocallyWhenTheSharedFetchSucceeds() {
    start(task("t1", 1, storage("a", MB)));
    start(task("t2", 1, storage("a", MB)));
    reads.get(0).done().accept(StageRequest.Outcome.DONE);

    assertThat(reads).hasSize(2);
    assertThat(reads.get(1).request().source()).isEqualTo(io.locus.schemas.FetchSource.LOCAL);
  }

  @Test
  void stopAllFailsEveryRunAndWakesNobody() {
    start(task("t1", 1, storage("a", MB)));
    start(task("t2", 1, storage("a", MB)));
    runner.stopAll(NodeAgent.AGENT_STOPPED);

    assertThat(reads).hasSize(1);
    assertThat(out.events(TaskEventType.FAILED)).extracting(TaskEvent::getTaskId)
        .containsExactly("t1", "t2");
    assertThat(runner.count()).isZero();
  }
}
