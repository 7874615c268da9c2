package io.locus.core.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Task.queue: the last component, null (the default queue) from every older constructor. */
class TaskQueueTest {
  private static final InputFile F = InputFile.of("f1", 10);

  @Test
  void olderConstructorsGiveTheDefaultQueue() {
    assertThat(Task.of("t1", 1, 0, 1, F).queue()).isNull();
    assertThat(new Task("t", "j", 0, 1, List.of(F), 1, 0, null, List.of(), 0).queue()).isNull();
    assertThat(new Task("t", "j", 0, 1, List.of(F), 1, 0, null, List.of(), 0,
        ResourceVector.of(0.1, 0.1, 0.1)).queue()).isNull();
    assertThat(new Task("t", "j", 0, 1, List.of(F), 1, 0, null, List.of(), 0, null,
        List.of(F)).queue()).isNull();
  }

  @Test
  void everyWithKeepsTheQueue() {
    Task t = Task.of("t1", 1, 0, 1, F).withQueue("team-a");
    assertThat(t.queue()).isEqualTo("team-a");
    assertThat(t.withAttempt(2).queue()).isEqualTo("team-a");
    assertThat(t.withSeq(9).queue()).isEqualTo("team-a");
    assertThat(t.withProfile(ResourceVector.uniform(0.5)).queue()).isEqualTo("team-a");
    assertThat(t.withOutputs(List.of(F)).queue()).isEqualTo("team-a");
    assertThat(t.withAttempt(2).attempt()).isEqualTo(2);
    assertThat(t.withQueue(null).queue()).isNull();
  }

  @Test
  void theQueueIsPartOfEqualityButNotOfTheQueueOrder() {
    Task a = Task.of("t1", 5, 0, 1, F);
    Task b = a.withQueue("team-a");
    assertThat(a).isNotEqualTo(b);
    assertThat(b.queueRank()).isEqualTo(a.queueRank());
  }
}
