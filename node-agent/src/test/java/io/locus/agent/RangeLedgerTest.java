package io.locus.agent;

import static io.locus.agent.TestDecisions.decision;
import static io.locus.agent.TestDecisions.rangeTask;
import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.EventRange;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.TaskEventType;
import org.junit.jupiter.api.Test;

class RangeLedgerTest {
  private final AgentCounters counters = new AgentCounters();

  private static AttemptRun run(String taskId, long start, long end) {
    PlaceTask p = rangeTask(taskId, start, end, 1.0);
    return new AttemptRun(decision("d-" + taskId, 1, "p", "n1", p), p, 0, new CacheDelta());
  }

  @Test
  void theProcessedRangeIsClampedToThePlacedRange() {
    RangeLedger ledger = new RangeLedger(10, counters);
    assertThat(ledger.ended(run("a", 100, 200), 250, TaskEventType.COMPLETED))
        .isEqualTo(new EventRange("lhcb", 100L, 200L));
    assertThat(ledger.ended(run("b", 100, 200), 50, TaskEventType.FAILED))
        .isEqualTo(new EventRange("lhcb", 100L, 100L));

    assertThat(ledger.endOf("a#0")).isEqualTo(200);
    assertThat(ledger.endOf("b#0")).as("remembered even when nothing was processed")
        .isEqualTo(100);
    assertThat(ledger.processed()).as("only ranges with events are logged")
        .containsExactly(new NodeAgent.ProcessedRange("job-a", "a", 0, "lhcb", 100, 200,
            TaskEventType.COMPLETED));
    assertThat(counters.eventsProcessed).isEqualTo(100);
  }

  @Test
  void onlyTheMostRecentEndsAreRemembered() {
    RangeLedger ledger = new RangeLedger(2, counters);
    ledger.ended(run("a", 0, 10), 10, TaskEventType.COMPLETED);
    ledger.ended(run("b", 0, 10), 5, TaskEventType.SUSPENDED);
    ledger.ended(run("c", 0, 10), 10, TaskEventType.COMPLETED);

    assertThat(ledger.endOf("a#0")).isNull();
    assertThat(ledger.endOf("b#0")).isEqualTo(5);
    assertThat(ledger.endOf("c#0")).isEqualTo(10);
    assertThat(ledger.processed()).hasSize(3);
    assertThat(counters.eventsProcessed).isEqualTo(25);
  }
}
