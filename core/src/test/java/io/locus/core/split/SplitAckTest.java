package io.locus.core.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The acknowledgement protocol (spec §9 "Authority and acknowledgement"): RUNs that derive from an
 * unacknowledged stop are held; the ack moves the boundary to where the agent really stopped.
 */
class SplitAckTest {

  /**
   * JOB_SPLITTING on 2 nodes: job a takes both (2 × 500 events); job b arrives at 100 s and
   * suspends a's subjob on n1 (the fewest remaining: n1's, tie lowest id) at model position 125.
   * Then n2 ends at 400 s: a's suspended remainder runs there, held until the ack.
   */
  private static SplitPolicy suspendedScenario(List<SplitCommand> sink) {
    SplitPolicy p = SplitPolicies.create("JOB_SPLITTING", Map.of());
    p.addNode("n1", 0);
    p.addNode("n2", 0);
    assertThat(p.onJobArrival(SplitJob.of("a", 0, 1000), 0)).hasSize(2);
    List<SplitCommand> c = p.onJobArrival(SplitJob.of("b", 5000, 6000), 100);
    assertThat(c.get(0)).isEqualTo(new SplitCommand.Suspend("n1", "a/1", 125));
    sink.addAll(c);
    return p;
  }

  @Test
  void runOfARemainderIsHeldUntilTheAckAndReleasedAsIs() {
    List<SplitCommand> first = new java.util.ArrayList<>();
    SplitPolicy p = suspendedScenario(first);
    // b runs on n1 at once; a's remainder [125, 500) is suspended (no node free)
    List<SplitCommand> end = p.onSubjobEnd("n2", "a/2", 1000, 400);
    SplitCommand.Run held = (SplitCommand.Run) end.get(0);
    assertThat(held.awaitsAckOf()).isEqualTo("a/1");
    assertThat(held.range()).isEqualTo(EventSpan.of(125, 500));
    assertThat(p.subjob("a/3").held()).isTrue();
    List<SplitCommand> rel = p.acknowledgeStop("a/1", 125, 401);
    assertThat(rel).containsExactly(new SplitCommand.Run("n2", "a/3", "a", EventSpan.of(125, 500),
        held.segments(), null));
    // a duplicate ack changes nothing
    assertThat(p.acknowledgeStop("a/1", 125, 402)).isEmpty();
  }

  @Test
  void ackPastTheModelPointShortensTheRemainder() {
    List<SplitCommand> first = new java.util.ArrayList<>();
    SplitPolicy p = suspendedScenario(first);
    p.onSubjobEnd("n2", "a/2", 1000, 400);
    List<SplitCommand> rel = p.acknowledgeStop("a/1", 130, 401);
    SplitCommand.Run r = (SplitCommand.Run) rel.get(0);
    assertThat(r.range()).isEqualTo(EventSpan.of(130, 500));
    assertThat(r.awaitsAckOf()).isNull();
    assertThat(r.cost()).isEqualTo(370 * 0.8);
    finishAndCheck(p, List.of(new long[] {0, 130}, new long[] {130, 500}, new long[] {500, 1000}),
        "n2", "a/3", 500, 401 + 370 * 0.8);
  }

  @Test
  void ackBeforeTheModelPointExtendsTheRemainder() {
    List<SplitCommand> first = new java.util.ArrayList<>();
    SplitPolicy p = suspendedScenario(first);
    p.onSubjobEnd("n2", "a/2", 1000, 400);
    List<SplitCommand> rel = p.acknowledgeStop("a/1", 100, 401);
    SplitCommand.Run r = (SplitCommand.Run) rel.get(0);
    assertThat(r.range()).isEqualTo(EventSpan.of(100, 500));
    assertThat(r.cost()).isEqualTo(400 * 0.8);
    finishAndCheck(p, null, "n2", "a/3", 500, 401 + 400 * 0.8);
  }

  @Test
  void stopFitsTellsWhichAcknowledgementsTheCoreAcceptsAndEveryOtherThrows() {
    List<SplitCommand> first = new java.util.ArrayList<>();
    SplitPolicy p = suspendedScenario(first);
    // a/1 [0,500) suspended at model 125: any point of its range before the stop fits
    assertThat(p.stopFits("a/1", 0)).isTrue();
    assertThat(p.stopFits("a/1", 500)).isTrue();
    assertThat(p.stopFits("a/1", 501)).isFalse();
    assertThat(p.stopFits("a/2", 499)).as("a/2 [500,1000), no stop: its range").isFalse();
    assertThat(p.stopFits("a/2", 500)).isTrue();
    assertThat(p.stopFits("nope", 0)).isFalse();
    assertThatThrownBy(() -> p.acknowledgeStop("a/1", 501, 101))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("outside");
    assertThat(p.acknowledgeStop("a/1", 500, 102)).isNotNull();
  }

  private static void finishAndCheck(SplitPolicy p, Object unused, String node, String id,
      long upTo, double t) {
    p.onSubjobEnd(node, id, upTo, t);
    List<JobOutcome> done = p.drainFinished();
    assertThat(done).extracting(JobOutcome::jobId).contains("a");
    JobOutcome a = done.stream().filter(o -> o.jobId().equals("a")).findFirst().orElseThrow();
    assertThat(a.tapeEvents()).isEqualTo(1000); // every event counted once
  }

  @Test
  void ackAtTheEndMakesTheRemainderVanishAndFreesItsNode() {
    List<SplitCommand> first = new java.util.ArrayList<>();
    SplitPolicy p = suspendedScenario(first);
    p.onSubjobEnd("n2", "a/2", 1000, 400);
    assertThat(p.runningOn("n2")).isEqualTo("a/3");
    // the agent had in fact processed all of [0, 500): nothing remains of a/3; a is done and n2
    // is free (JOB_SPLITTING: nothing queued, so it halves b's running subjob on n1)
    List<SplitCommand> rel = p.acknowledgeStop("a/1", 500, 401);
    assertThat(rel).noneMatch(c -> c.subjobId().equals("a/3"));
    assertThat(p.subjob("a/3")).isNull();
    assertThat(p.drainFinished()).extracting(JobOutcome::jobId).containsExactly("a");
    assertThat(rel).anySatisfy(c -> assertThat(c).isInstanceOf(SplitCommand.Shrink.class));
    assertThat(p.runningOn("n2")).startsWith("b/");
  }

  @Test
  void completionBeforeTheAckCountsAsTheAck() {
    List<SplitCommand> first = new java.util.ArrayList<>();
    SplitPolicy p = suspendedScenario(first);
    p.onSubjobEnd("n2", "a/2", 1000, 400);
    // the agent never saw the SUSPEND: it finished a/1 and reports its end
    List<SplitCommand> c = p.onSubjobEnd("n1", "a/1", 500, 401);
    assertThat(p.subjob("a/3")).isNull();
    assertThat(c).noneMatch(x -> x.subjobId().equals("a/3"));
    assertThat(p.drainFinished()).extracting(JobOutcome::jobId).containsExactly("a");
    // the late ack is a duplicate now
    assertThat(p.acknowledgeStop("a/1", 500, 402)).isEmpty();
  }

  @Test
  void shrinkAckPastTheRequestedEnd() {
    // JOB_SPLITTING, 2 nodes: a on n1 alone (n2 joins later and halves it)
    SplitPolicy p = SplitPolicies.create("JOB_SPLITTING", Map.of());
    p.addNode("n1", 0);
    p.onJobArrival(SplitJob.of("a", 0, 1000), 0);
    List<SplitCommand> c = p.addNode("n2", 80); // a/1 at 100: keeps [.., 550), n2 gets [550, 1000)
    assertThat(c.get(0)).isEqualTo(new SplitCommand.Shrink("n1", "a/1", 550));
    SplitCommand.Run tail = (SplitCommand.Run) c.get(1);
    assertThat(tail.range()).isEqualTo(EventSpan.of(550, 1000));
    assertThat(tail.awaitsAckOf()).isEqualTo("a/1");
    assertThatThrownBy(() -> p.acknowledgeStop("a/1", 549, 81))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot go back");
    List<SplitCommand> rel = p.acknowledgeStop("a/1", 560, 81);
    assertThat(((SplitCommand.Run) rel.get(0)).range()).isEqualTo(EventSpan.of(560, 1000));
    p.onSubjobEnd("n1", "a/1", 560, 81 + 460 * 0.8);
    p.onSubjobEnd("n2", "a/2", 1000, 81 + 440 * 0.8);
    JobOutcome a = p.drainFinished().get(0);
    assertThat(a.tapeEvents()).isEqualTo(1000);
  }

  @Test
  void shrunkSubjobEndingBeforeTheAckCountsAsTheAck() {
    SplitPolicy p = SplitPolicies.create("JOB_SPLITTING", Map.of());
    p.addNode("n1", 0);
    p.onJobArrival(SplitJob.of("a", 0, 1000), 0);
    p.addNode("n2", 80);
    // the agent was already at 990 and finished the whole subjob before seeing the SHRINK
    List<SplitCommand> c = p.onSubjobEnd("n1", "a/1", 1000, 800);
    assertThat(p.subjob("a/2")).isNull(); // the tail vanished, n2 was freed
    assertThat(p.drainFinished()).extracting(JobOutcome::jobId).containsExactly("a");
    assertThat(c).noneMatch(x -> x.subjobId().equals("a/2"));
  }

  @Test
  void frozenSubjobsAreNotStoppedAgain() {
    // while a/1's SHRINK is unacknowledged, a new idle node may not shrink it again
    SplitPolicy p = SplitPolicies.create("JOB_SPLITTING", Map.of());
    p.addNode("n1", 0);
    p.onJobArrival(SplitJob.of("a", 0, 1000), 0);
    p.addNode("n2", 80);
    assertThat(p.addNode("n3", 81)).isEmpty(); // a/1 frozen, a/2 held: n3 idles
    p.acknowledgeStop("a/1", 550, 82);
    assertThat(p.onNodeIdle("n3", 83)).hasSize(2); // now a split happens
  }

  @Test
  void badAcksAreRefused() {
    List<SplitCommand> first = new java.util.ArrayList<>();
    SplitPolicy p = suspendedScenario(first);
    assertThatThrownBy(() -> p.acknowledgeStop("a/1", 501, 101))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("outside [0, 500]");
    assertThat(p.acknowledgeStop("nope/1", 3, 101)).isEmpty();
  }
}
