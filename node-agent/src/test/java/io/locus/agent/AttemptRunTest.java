package io.locus.agent;

import static io.locus.agent.TestDecisions.decision;
import static io.locus.agent.TestDecisions.rangeTask;
import static io.locus.agent.TestDecisions.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class AttemptRunTest {
  private static AttemptRun run(io.locus.schemas.PlaceTask p) {
    return new AttemptRun(decision("d1", 1, "p", "n1", p), p, 5, new CacheDelta());
  }

  @Test
  void aRunOnlyGoesForward() {
    AttemptRun t = run(task("t1", 1));
    assertThat(t.phase()).isEqualTo(AttemptRun.Phase.STAGING);
    assertThat(t.key).isEqualTo("t1#0");
    assertThat(t.attempt).isEqualTo(new TaskAttempt("t1", "job-t1", 0));

    t.computing();
    assertThat(t.phase()).isEqualTo(AttemptRun.Phase.COMPUTING);
    assertThatThrownBy(t::computing).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("t1#0 cannot start computing: it is COMPUTING");

    t.end();
    t.end();
    assertThat(t.ended()).isTrue();
    assertThatThrownBy(t::computing).hasMessageContaining("it is ENDED");
  }

  @Test
  void aRunCanEndWhileStaging() {
    AttemptRun t = run(task("t1", 1));
    t.end();
    assertThat(t.phase()).isEqualTo(AttemptRun.Phase.ENDED);
  }

  @Test
  void aRangeRunStartsAtItsPlacedEndAndReportsItsStartWhenNothingIsProcessed() {
    AttemptRun file = run(task("f", 1));
    assertThat(file.range).isNull();
    assertThat(file.rangeStart()).isZero();

    AttemptRun range = run(rangeTask("r", 100, 250, 0.5));
    assertThat(range.rangeStart()).isEqualTo(100);
    assertThat(range.rangeEnd).isEqualTo(250);
  }
}
