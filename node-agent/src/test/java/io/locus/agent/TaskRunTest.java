package io.locus.agent;

import static io.locus.agent.TestDecisions.decision;
import static io.locus.agent.TestDecisions.rangeTask;
import static io.locus.agent.TestDecisions.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TaskRunTest {
  private static TaskRun run(io.locus.schemas.PlaceTask p) {
    return new TaskRun(decision("d1", 1, "p", "n1", p), p, 5, new CacheDelta());
  }

  @Test
  void aRunOnlyGoesForward() {
    TaskRun t = run(task("t1", 1));
    assertThat(t.phase()).isEqualTo(TaskRun.Phase.STAGING);
    assertThat(t.key).isEqualTo("t1#0");
    assertThat(t.attempt).isEqualTo(new TaskAttempt("t1", "job-t1", 0));

    t.computing();
    assertThat(t.phase()).isEqualTo(TaskRun.Phase.COMPUTING);
    assertThatThrownBy(t::computing).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("t1#0 cannot start computing: it is COMPUTING");

    t.end();
    t.end();
    assertThat(t.ended()).isTrue();
    assertThatThrownBy(t::computing).hasMessageContaining("it is ENDED");
  }

  @Test
  void aRunCanEndWhileStaging() {
    TaskRun t = run(task("t1", 1));
    t.end();
    assertThat(t.phase()).isEqualTo(TaskRun.Phase.ENDED);
  }

  @Test
  void aRangeRunStartsAtItsPlacedEndAndReportsItsStartWhenNothingIsProcessed() {
    TaskRun file = run(task("f", 1));
    assertThat(file.range).isNull();
    assertThat(file.rangeStart()).isZero();

    TaskRun range = run(rangeTask("r", 100, 250, 0.5));
    assertThat(range.rangeStart()).isEqualTo(100);
    assertThat(range.rangeEnd).isEqualTo(250);
  }
}
