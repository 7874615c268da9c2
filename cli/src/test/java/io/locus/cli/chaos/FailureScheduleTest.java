package io.locus.cli.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class FailureScheduleTest {
  private static final List<FailureKind> ALL = List.of(FailureKind.values());

  @Test
  void theSameSeedGivesTheSameScheduleAndAnotherSeedAnother() {
    assertThat(FailureSchedule.plan(10, ALL, 7)).isEqualTo(FailureSchedule.plan(10, ALL, 7));
    assertThat(FailureSchedule.plan(10, ALL, 7)).isNotEqualTo(FailureSchedule.plan(10, ALL, 8));
  }

  @Test
  void everyKindOccursOnceThereAreAsManyFailuresAsKindsAndTheyAreSpreadInOrder() {
    var plan = FailureSchedule.plan(ALL.size(), ALL, 42);
    assertThat(plan).extracting(FailureSchedule.Planned::kind)
        .containsExactlyInAnyOrderElementsOf(ALL);
    double previous = 0;
    for (var p : plan) {
      assertThat(p.at()).isBetween(0.05, 0.90).isGreaterThan(previous);
      previous = p.at();
    }
  }

  @Test
  void moreFailuresThanKindsCycleThroughTheKinds() {
    var kinds = List.of(FailureKind.SCHEDULER_KILL, FailureKind.BROKER_KILL);
    var plan = FailureSchedule.plan(5, kinds, 1);
    assertThat(plan).hasSize(5);
    assertThat(plan.stream().filter(p -> p.kind() == FailureKind.SCHEDULER_KILL).count())
        .isBetween(2L, 3L);
  }

  @Test
  void kindsAreNamedAsOnTheCommandLine() {
    assertThat(FailureKind.of("clock-skew")).isEqualTo(FailureKind.CLOCK_SKEW);
    assertThat(FailureKind.SCHEDULER_KILL.label()).isEqualTo("scheduler-kill");
    assertThatThrownBy(() -> FailureKind.of("taskmanager-loss"))
        .hasMessageContaining("unknown failure kind 'taskmanager-loss'")
        .hasMessageContaining("node-lost");
  }
}
