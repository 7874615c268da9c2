package io.locus.e2e.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.Decision;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The checker's rules on hand-made records: what counts once, what is lost, what is duplicated. */
class DeliveryCheckerTest {
  private final List<Decision> decisions = new ArrayList<>();
  private final List<TaskEvent> events = new ArrayList<>();

  private void place(String task, int attempt, String node) {
    PlaceTask p = new PlaceTask();
    p.setTaskId(task);
    p.setJobId(task);
    p.setAttempt(attempt);
    Decision d = new Decision();
    d.setDecisionId("p/" + task + "/" + attempt);
    d.setPool("p");
    d.setNode(node);
    d.setAction(p);
    decisions.add(d);
  }

  private void event(String task, int attempt, String node, TaskEventType type) {
    TaskEvent e = new TaskEvent();
    e.setPool("p");
    e.setTaskId(task);
    e.setJobId(task);
    e.setAttempt(attempt);
    e.setNode(node);
    e.setType(type);
    e.setDecisionId("p/" + task + "/" + attempt);
    events.add(e);
  }

  private void run(String task, int attempt, String node) {
    place(task, attempt, node);
    event(task, attempt, node, TaskEventType.STARTED);
    event(task, attempt, node, TaskEventType.COMPLETED);
  }

  private DeliveryChecker.Verdict verdict(String... expected) {
    return DeliveryChecker.verdict("p", List.of(expected), decisions, events);
  }

  @Test
  void everyTaskPlacedStartedAndCompletedOnceIsExactlyOnce() {
    run("a", 0, "n1");
    run("b", 0, "n2");
    DeliveryChecker.Verdict v = verdict("a", "b");
    assertThat(v.exactlyOnce()).as(v.summary()).isTrue();
    assertThat(v.completed()).isEqualTo(2);
    assertThat(v.placements()).isEqualTo(2);
  }

  @Test
  void theSameCompletionWrittenTwiceCountsOnce() {
    run("a", 0, "n1");
    event("a", 0, "n1", TaskEventType.COMPLETED); // a producer retry or a duplicate's answer
    place("a", 0, "n1"); // a replayed decision, same id
    DeliveryChecker.Verdict v = verdict("a");
    assertThat(v.exactlyOnce()).as(v.summary()).isTrue();
    assertThat(v.placements()).isEqualTo(1);
  }

  @Test
  void aTaskWithoutCompletionIsLostByName() {
    run("a", 0, "n1");
    place("b", 0, "n2");
    event("b", 0, "n2", TaskEventType.STARTED);
    DeliveryChecker.Verdict v = verdict("a", "b", "c");
    assertThat(v.exactlyOnce()).isFalse();
    assertThat(v.lost()).containsExactly("b", "c");
    assertThat(v.neverPlaced()).containsExactly("c");
    assertThat(v.neverStarted()).containsExactly("c");
    assertThat(v.summary()).contains("lost 2 [b, c]");
  }

  @Test
  void completedOnTwoNodesOrByTwoAttemptsIsDuplicated() {
    run("a", 0, "n1");
    event("a", 0, "n2", TaskEventType.COMPLETED); // same attempt, placed twice after a restore
    run("b", 0, "n1");
    run("b", 1, "n1"); // re-placed although it had completed
    DeliveryChecker.Verdict v = verdict("a", "b");
    assertThat(v.exactlyOnce()).isFalse();
    assertThat(v.duplicated()).containsOnlyKeys("a", "b");
    assertThat(v.duplicated().get("a")).hasSize(2);
    assertThat(v.completed()).isZero();
  }

  @Test
  void aFailedAttemptThenOneCompletionIsExactlyOnce() {
    place("a", 0, "n1");
    event("a", 0, "n1", TaskEventType.STARTED);
    event("a", 0, "n1", TaskEventType.FAILED);
    run("a", 1, "n2");
    assertThat(verdict("a").exactlyOnce()).isTrue();
  }

  @Test
  void otherPoolsAndUnknownTasksDoNotCountForThePool() {
    run("a", 0, "n1");
    run("zzz", 0, "n1");
    TaskEvent other = new TaskEvent();
    other.setPool("q");
    other.setTaskId("a");
    other.setAttempt(5);
    other.setNode("n9");
    other.setType(TaskEventType.COMPLETED);
    events.add(other);
    DeliveryChecker.Verdict v = verdict("a");
    assertThat(v.exactlyOnce()).isTrue();
    assertThat(v.unexpected()).containsExactly("zzz");
  }
}
