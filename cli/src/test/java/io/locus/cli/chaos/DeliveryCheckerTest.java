package io.locus.cli.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.connectors.DeliveryMode;
import io.locus.kafka.Topics;
import io.locus.schemas.CancelTask;
import io.locus.schemas.DeadLetter;
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
  private final List<DeliveryChecker.Seen> events = new ArrayList<>();
  private final List<DeadLetter> deadLetters = new ArrayList<>();
  private long schedulerCompletions = -1;

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
    add(e);
  }

  /** Adds {@code e} as the next record of task-events partition 0; its offset. */
  private long add(TaskEvent e) {
    long offset = events.size();
    events.add(new DeliveryChecker.Seen(e, 0, offset));
    return offset;
  }

  /** The scheduler dead-lettered the last task event, for {@code reason}. */
  private void deadLetterLast(String reason) {
    deadLetterLast("unknown-task", reason);
  }

  private void deadLetterLast(String code, String reason) {
    DeliveryChecker.Seen last = events.get(events.size() - 1);
    deadLetters.add(DeadLetter.newBuilder().setSourceTopic(Topics.TASK_EVENTS.name())
        .setPartition(last.partition()).setOffset(last.offset()).setReason(reason)
        .setTimeMs(0).setCode(code).build());
  }

  private void run(String task, int attempt, String node) {
    place(task, attempt, node);
    event(task, attempt, node, TaskEventType.STARTED);
    event(task, attempt, node, TaskEventType.COMPLETED);
  }

  private DeliveryChecker.Verdict verdict(String... expected) {
    return DeliveryChecker.verdict("p", List.of(expected), decisions, events, deadLetters,
        schedulerCompletions);
  }

  @Test
  void everyTaskPlacedStartedAndCompletedOnceIsExactlyOnce() {
    run("a", 0, "n1");
    run("b", 0, "n2");
    DeliveryChecker.Verdict v = verdict("a", "b");
    assertThat(v.effectivelyOnce()).as(v.summary()).isTrue();
    assertThat(v.completed()).isEqualTo(2);
    assertThat(v.placements()).isEqualTo(2);
  }

  @Test
  void theSameCompletionWrittenTwiceCountsOnce() {
    run("a", 0, "n1");
    event("a", 0, "n1", TaskEventType.COMPLETED); // a producer retry or a duplicate's answer
    place("a", 0, "n1"); // a replayed decision, same id
    DeliveryChecker.Verdict v = verdict("a");
    assertThat(v.effectivelyOnce()).as(v.summary()).isTrue();
    assertThat(v.placements()).isEqualTo(1);
  }

  @Test
  void aTaskWithoutCompletionIsLostByName() {
    run("a", 0, "n1");
    place("b", 0, "n2");
    event("b", 0, "n2", TaskEventType.STARTED);
    DeliveryChecker.Verdict v = verdict("a", "b", "c");
    assertThat(v.effectivelyOnce()).isFalse();
    assertThat(v.lost()).containsExactly("b", "c");
    assertThat(v.neverPlaced()).containsExactly("c");
    assertThat(v.neverStarted()).containsExactly("c");
    assertThat(v.summary()).contains("lost 2 [b, c]");
  }

  @Test
  void twoAcceptedCompletionsOnTwoNodesOrByTwoAttemptsAreEffectiveTwice() {
    run("a", 0, "n1");
    event("a", 0, "n2", TaskEventType.COMPLETED); // same attempt, placed twice after a restore
    run("b", 0, "n1");
    run("b", 1, "n1"); // re-placed although it had completed
    DeliveryChecker.Verdict v = verdict("a", "b");
    assertThat(v.effectivelyOnce()).isFalse();
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
    assertThat(verdict("a").effectivelyOnce()).isTrue();
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
    add(other);
    DeliveryChecker.Verdict v = verdict("a");
    assertThat(v.effectivelyOnce()).isTrue();
    assertThat(v.unexpected()).containsExactly("zzz");
  }

  @Test
  void aSecondCompletionTheSchedulerDeadLetteredRanTwiceButCompletedEffectivelyOnce() {
    run("a", 0, "n1");
    event("a", 0, "n2", TaskEventType.STARTED); // the replayed placement went to n2 too
    event("a", 0, "n2", TaskEventType.COMPLETED);
    deadLetterLast(DeliveryChecker.REMEMBERED, "the pool does not know the task (finished, or its"
        + " arrival not replayed yet); remembered for 24 h of record clock");
    CancelTask c = CancelTask.newBuilder().setTaskId("a").setAttempt(0).setReason("x").build();
    decisions.add(Decision.newBuilder().setDecisionId("p/cancel/1").setPool("p").setNode("n2")
        .setEpoch(1).setTimeMs(0).setAction(c).build());
    schedulerCompletions = 1;
    DeliveryChecker.Verdict v = verdict("a");
    assertThat(v.effectivelyOnce()).as(v.summary()).isTrue();
    assertThat(v.keeps(DeliveryMode.AT_LEAST_ONCE)).isTrue();
    assertThat(v.keeps(DeliveryMode.EXACTLY_ONCE)).as("exactly-once never runs a task twice")
        .isFalse();
    assertThat(v.executedTwice()).containsOnlyKeys("a");
    assertThat(v.deadLettered()).isEqualTo(1);
    assertThat(v.cancels()).isEqualTo(1);
  }

  @Test
  void theSameCompletionAcceptedOnceAndDeadLetteredWhenWrittenAgainIsEffective() {
    run("a", 0, "n1");
    event("a", 0, "n1", TaskEventType.COMPLETED); // the agent's answer to a duplicate decision
    deadLetterLast("the pool does not know the task (finished, or never arrived)");
    DeliveryChecker.Verdict v = verdict("a");
    assertThat(v.executedOnce()).as(v.summary()).isTrue();
  }

  @Test
  void aTaskWhoseOnlyCompletionWasDeadLetteredIsLost() {
    run("a", 0, "n1");
    deadLetterLast("decision id p/a/0 is not the placement of that attempt (p/a/1)");
    DeliveryChecker.Verdict v = verdict("a");
    assertThat(v.effectivelyOnce()).isFalse();
    assertThat(v.lost()).containsExactly("a");
  }

  @Test
  void aRememberedCompletionIsEffectiveWhenTheSchedulerCountsIt() {
    run("a", 0, "n1");
    deadLetterLast(DeliveryChecker.REMEMBERED,
        "the pool does not know the task; remembered for 24 h of record clock");
    schedulerCompletions = 1;
    assertThat(verdict("a").effectivelyOnce()).isTrue();
    schedulerCompletions = 0; // it never arrived: the scheduler never finished it
    DeliveryChecker.Verdict v = verdict("a");
    assertThat(v.effectivelyOnce()).as(v.summary()).isFalse();
    assertThat(v.summary()).contains("scheduler completions 0");
  }

  /**
   * A record injected on purpose (locus chaos's forged completion) is not the system's work: the
   * tally leaves it out, whether it was read before or after the real completion, and a dead
   * letter read before its event still counts against that event.
   */
  @Test
  void anIgnoredEventIsLeftOutAndDeadLettersMayComeFirst() {
    DeliveryChecker.Tally t = new DeliveryChecker.Tally();
    place("a", 0, "n1");
    place("b", 0, "n1");
    decisions.forEach(t::decision);
    TaskEvent forged = new TaskEvent();
    forged.setPool("p");
    forged.setTaskId("a");
    forged.setJobId("a");
    forged.setAttempt(0);
    forged.setNode("n2");
    forged.setType(TaskEventType.COMPLETED);
    forged.setDecisionId("p/a/0");
    t.ignore(0, 7);
    t.event(forged, 0, 7);
    assertThat(t.openPlacements("p")).extracting(DeliveryChecker.Placement::taskId)
        .containsExactly("a", "b");
    t.deadLetter(DeadLetter.newBuilder().setSourceTopic(Topics.TASK_EVENTS.name())
        .setPartition(0).setOffset(9).setReason("late").setTimeMs(0).setCode("unknown-task")
        .build());
    event("a", 0, "n1", TaskEventType.STARTED);
    event("a", 0, "n1", TaskEventType.COMPLETED);
    event("b", 0, "n1", TaskEventType.STARTED);
    events.forEach(e -> t.event(e.event(), 0, e.offset()));
    TaskEvent late = events.get(1).event(); // a's completion, sent again by n3: dead-lettered
    late.setNode("n3");
    t.event(late, 0, 9);
    DeliveryChecker.Verdict v = t.verdict("p", List.of("a"), -1);
    assertThat(v.effectivelyOnce()).as(v.summary()).isTrue();
    assertThat(v.deadLettered()).isEqualTo(1);
    assertThat(v.executedTwice().get("a")).as("the forged n2 completion is not one of them")
        .containsExactly("attempt 0 on n1 (p/a/0)", "attempt 0 on n3 (p/a/0)");
    assertThat(t.completedAny("p")).isEqualTo(1);
    assertThat(t.openPlacements("p")).extracting(DeliveryChecker.Placement::taskId)
        .containsExactly("b");
  }
}
