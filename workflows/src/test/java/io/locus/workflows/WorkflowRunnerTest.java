package io.locus.workflows;

import static io.locus.schemas.WorkflowFailurePolicy.FAIL_DESCENDANTS;
import static io.locus.schemas.WorkflowFailurePolicy.FAIL_WORKFLOW;
import static io.locus.workflows.Wf.job;
import static io.locus.workflows.Wf.part;
import static io.locus.workflows.Wf.raw;
import static io.locus.workflows.Wf.status;
import static io.locus.workflows.Wf.workflow;
import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.DeadLetter;
import io.locus.schemas.JobState;
import io.locus.schemas.JobStatus;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.WorkflowState;
import io.locus.schemas.WorkflowStatus;
import io.locus.schemas.WorkflowSubmitted;
import io.locus.schemas.codec.DeadLetterCodes;
import io.locus.schemas.internal.RawRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.OutputTag;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The runner in Flink's keyed harness on RocksDB with Kryo off, as the job runs it: every state
 * access goes through the serializers and a snapshot is a RocksDB one.
 */
class WorkflowRunnerTest {
  private KeyedOneInputStreamOperatorTestHarness<String, RawRecord, JobSubmitted> h;
  private long offset;
  private int releasedSeen;
  private int statusSeen;
  private int workflowSeen;

  @AfterEach
  void close() throws Exception {
    if (h != null) {
      h.close();
    }
  }

  private void open(OperatorSubtaskState from) throws Exception {
    h = new KeyedOneInputStreamOperatorTestHarness<>(
        new KeyedProcessOperator<>(new WorkflowRunner()), WorkflowInputs::workflowId,
        Types.STRING);
    h.setStateBackend(new EmbeddedRocksDBStateBackend());
    ((SerializerConfigImpl) h.getExecutionConfig().getSerializerConfig()).setGenericTypes(false);
    h.setup();
    if (from != null) {
      h.initializeState(from);
    }
    h.open();
    releasedSeen = statusSeen = workflowSeen = 0;
  }

  private void submit(WorkflowSubmitted part) throws Exception {
    h.processElement(raw(part, offset++), 0);
  }

  private void report(String job, JobState state, long t, String reason) throws Exception {
    h.processElement(raw(status("w", job, state, t, reason), offset++), 0);
  }

  /** Jobs released since the last call. */
  private List<String> released() {
    List<String> out = new ArrayList<>();
    for (Object o : h.getOutput()) {
      if (o instanceof StreamRecord<?> r && r.getValue() instanceof JobSubmitted j) {
        out.add(j.getJobId());
      }
    }
    List<String> fresh = out.subList(releasedSeen, out.size());
    releasedSeen = out.size();
    return new ArrayList<>(fresh);
  }

  private List<JobSubmitted> allReleased() {
    List<JobSubmitted> out = new ArrayList<>();
    for (Object o : h.getOutput()) {
      if (o instanceof StreamRecord<?> r && r.getValue() instanceof JobSubmitted j) {
        out.add(j);
      }
    }
    return out;
  }

  private <T> List<T> side(OutputTag<T> tag) {
    Queue<StreamRecord<T>> q = h.getSideOutput(tag);
    List<T> out = new ArrayList<>();
    if (q != null) {
      q.forEach(r -> out.add(r.getValue()));
    }
    return out;
  }

  /** Job statuses since the last call, as "job STATE reason". */
  private List<String> statuses() {
    List<JobStatus> all = side(WorkflowRunner.JOB_STATUS);
    List<String> out = all.subList(statusSeen, all.size()).stream()
        .map(s -> s.getJobId() + " " + s.getState() + " " + s.getReason()).toList();
    statusSeen = all.size();
    return out;
  }

  /** Workflow statuses since the last call. */
  private List<WorkflowStatus> workflows() {
    List<WorkflowStatus> all = side(WorkflowRunner.WORKFLOW_STATUS);
    List<WorkflowStatus> out = new ArrayList<>(all.subList(workflowSeen, all.size()));
    workflowSeen = all.size();
    return out;
  }

  private static String counts(WorkflowStatus s) {
    return s.getState() + " jobs=" + s.getJobs() + " waiting=" + s.getWaiting() + " released="
        + s.getReleased() + " completed=" + s.getCompleted() + " failed=" + s.getFailed();
  }

  /** a → b, a → c, (b, c) → d: the diamond. */
  private static WorkflowSubmitted diamond() {
    return workflow("w", FAIL_DESCENDANTS, job("a"), job("b", "a"), job("c", "a"),
        job("d", "b", "c"));
  }

  @Test
  void releasesEachJobOnceItsLastParentCompleted() throws Exception {
    open(null);
    submit(diamond());
    assertThat(released()).containsExactly("a");
    assertThat(statuses()).containsExactly("b WAITING waiting for parent a",
        "c WAITING waiting for parent a", "d WAITING waiting for parents b, c");
    assertThat(side(WorkflowRunner.JOB_STATUS)).allSatisfy(s -> {
      assertThat(s.getPendingCode()).isEqualTo("parents");
      assertThat(s.getWorkflow()).isEqualTo("w");
    });
    assertThat(workflows()).extracting(WorkflowRunnerTest::counts)
        .containsExactly("RUNNING jobs=4 waiting=3 released=1 completed=0 failed=0");

    report("a", JobState.RUNNING, 2000, ""); // not final: nothing moves
    assertThat(released()).isEmpty();
    report("a", JobState.COMPLETED, 3000, "");
    assertThat(released()).containsExactly("b", "c");
    report("b", JobState.COMPLETED, 4000, "");
    assertThat(released()).isEmpty();
    assertThat(statuses()).containsExactly("d WAITING waiting for parent c");
    report("c", JobState.COMPLETED, 5000, "");
    assertThat(released()).containsExactly("d");
    report("d", JobState.COMPLETED, 6000, "");
    List<WorkflowStatus> w = workflows();
    assertThat(w.get(w.size() - 1)).satisfies(s -> {
      assertThat(counts(s)).isEqualTo("SUCCEEDED jobs=4 waiting=0 released=0 completed=4 failed=0");
      assertThat(s.getTimeMs()).isEqualTo(6000); // the record's time, not the wall clock
      assertThat(s.getRequestId()).isEqualTo("req-w");
    });
    // released with the workflow set, at the time of the record that released them
    assertThat(allReleased()).allSatisfy(j -> assertThat(j.getWorkflow()).isEqualTo("w"));
    assertThat(allReleased()).extracting(JobSubmitted::getSubmitTimeMs)
        .containsExactly(1000L, 3000L, 3000L, 5000L);
  }

  @Test
  void aStatusDeliveredTwiceAndTheRunnersOwnEchoesChangeNothing() throws Exception {
    open(null);
    submit(diamond());
    report("a", JobState.COMPLETED, 3000, "");
    released();
    statuses();
    workflows();
    report("a", JobState.COMPLETED, 3000, "");
    report("a", JobState.FAILED, 3500, "late"); // a final job stays final
    // what the runner wrote to job-status comes back through Kafka
    h.processElement(raw(side(WorkflowRunner.JOB_STATUS).get(0), offset++), 0);
    report("d", JobState.FAILED, 3600, "not released: not the scheduler's");
    assertThat(released()).isEmpty();
    assertThat(statuses()).isEmpty();
    assertThat(workflows()).isEmpty();
  }

  @Test
  void failDescendantsFailsOnlyWhatDependsOnTheFailedJob() throws Exception {
    open(null);
    submit(workflow("w", FAIL_DESCENDANTS, job("a"), job("b", "a"), job("c", "b"), job("x"),
        job("y", "x")));
    assertThat(released()).containsExactly("a", "x");
    statuses();
    workflows();
    report("a", JobState.FAILED, 2000, "exit status 1");
    assertThat(statuses()).containsExactly("b FAILED parent 'a' failed: exit status 1",
        "c FAILED ancestor 'a' failed: exit status 1");
    assertThat(workflows()).extracting(WorkflowRunnerTest::counts)
        .containsExactly("RUNNING jobs=5 waiting=1 released=1 completed=0 failed=3");
    report("x", JobState.COMPLETED, 3000, ""); // the other branch runs on
    assertThat(released()).containsExactly("y");
    report("y", JobState.COMPLETED, 4000, "");
    WorkflowStatus last = workflows().get(1);
    assertThat(counts(last)).isEqualTo("FAILED jobs=5 waiting=0 released=0 completed=2 failed=3");
    assertThat(last.getReason()).isEqualTo("job 'a' failed: exit status 1");
  }

  @Test
  void failWorkflowFailsEveryJobNotReleased() throws Exception {
    open(null);
    submit(workflow("w", FAIL_WORKFLOW, job("a"), job("b", "a"), job("x"), job("y", "x")));
    assertThat(released()).containsExactly("a", "x");
    statuses();
    workflows();
    report("a", JobState.CANCELLED, 2000, "cancelled by alice");
    assertThat(statuses()).containsExactly(
        "b FAILED workflow failed (fail-workflow): job 'a' was cancelled: cancelled by alice",
        "y FAILED workflow failed (fail-workflow): job 'a' was cancelled: cancelled by alice");
    // x was released before: it runs to its end, then the workflow is over
    assertThat(counts(workflows().get(0)))
        .isEqualTo("RUNNING jobs=4 waiting=0 released=1 completed=0 failed=3");
    report("x", JobState.COMPLETED, 3000, "");
    assertThat(released()).isEmpty();
    assertThat(counts(workflows().get(0)))
        .isEqualTo("FAILED jobs=4 waiting=0 released=0 completed=1 failed=3");
  }

  @Test
  void aRestoredRunnerGoesOnWhereTheSnapshotWas() throws Exception {
    open(null);
    submit(diamond());
    report("a", JobState.COMPLETED, 3000, "");
    report("b", JobState.COMPLETED, 4000, "");
    OperatorSubtaskState snapshot = h.snapshot(1, 1);
    h.close();

    open(snapshot);
    // the records after the snapshot's position, read again; one of before, delivered twice
    report("a", JobState.COMPLETED, 3000, "");
    assertThat(released()).isEmpty();
    report("c", JobState.COMPLETED, 5000, "");
    assertThat(released()).containsExactly("d");
    report("d", JobState.COMPLETED, 6000, "");
    assertThat(counts(workflows().get(1)))
        .isEqualTo("SUCCEEDED jobs=4 waiting=0 released=0 completed=4 failed=0");
  }

  @Test
  void anInvalidWorkflowIsRefusedWithADeadLetterAndNothingRuns() throws Exception {
    open(null);
    WorkflowSubmitted cyclic = workflow("w", FAIL_DESCENDANTS, job("a", "b"), job("b", "a"));
    submit(cyclic);
    assertThat(released()).isEmpty();
    assertThat(statuses()).isEmpty();
    assertThat(side(WorkflowRunner.DEAD_LETTERS)).singleElement().satisfies(d -> {
      assertThat(d.getCode()).isEqualTo(DeadLetterCodes.INVALID_WORKFLOW);
      assertThat(d.getReason()).isEqualTo("invalid workflow 'w': cycle: 'a' → 'b' → 'a'");
      assertThat(d.getSourceTopic()).isEqualTo("workflows");
      assertThat(d.getOffset()).isEqualTo(0);
    });
    assertThat(workflows()).singleElement().satisfies(s -> {
      assertThat(s.getState()).isEqualTo(WorkflowState.REFUSED);
      assertThat(s.getReason()).isEqualTo("cycle: 'a' → 'b' → 'a'");
    });
  }

  @Test
  void aWorkflowIdIsUsedOnce() throws Exception {
    open(null);
    submit(diamond());
    workflows();
    submit(workflow("w", FAIL_DESCENDANTS, job("z")));
    assertThat(released()).containsExactly("a");
    assertThat(side(WorkflowRunner.DEAD_LETTERS)).extracting(DeadLetter::getReason)
        .containsExactly("invalid workflow 'w': the id was submitted before (that workflow is"
            + " RUNNING); a workflow id is used once");
    assertThat(workflows()).isEmpty(); // the running workflow's status is left as it is
  }

  @Test
  void partsAreAssembledInAnyOrderAndMustAgree() throws Exception {
    open(null);
    WorkflowSubmitted second = part("w", 1, 2, FAIL_DESCENDANTS, job("b", "a"));
    submit(second);
    submit(second); // delivered twice: the same part
    assertThat(released()).isEmpty();
    assertThat(workflows()).extracting(WorkflowStatus::getReason)
        .containsExactly("parts 1 of 2 received");
    submit(part("w", 0, 2, FAIL_DESCENDANTS, job("a")));
    assertThat(released()).containsExactly("a");
    assertThat(statuses()).containsExactly("b WAITING waiting for parent a");

    submit(part("v", 0, 2, FAIL_DESCENDANTS, job("a")));
    submit(part("v", 1, 3, FAIL_DESCENDANTS, job("b")));
    assertThat(side(WorkflowRunner.DEAD_LETTERS)).extracting(DeadLetter::getReason)
        .containsExactly("invalid workflow 'v': part 1 says the workflow has 3 parts, an"
            + " earlier part says 2");
    assertThat(released()).isEmpty();
  }
}
