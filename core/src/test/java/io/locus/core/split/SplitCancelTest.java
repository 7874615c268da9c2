package io.locus.core.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * CANCEL of a split job ({@link SplitPolicy#cancelJob}) in each policy family: a queued job leaves
 * every structure (job FIFO, global and private queues, period batch, meta-subjobs); a running
 * subjob gets a CANCEL and keeps its node until its end, which only frees the node (no remainder,
 * no completion); a stop awaiting its acknowledgement is settled without re-queueing; held RUNs
 * free their nodes at once; and the node then takes other work. Every scenario is journalled
 * (the journal must equal the state after each input) and restored with the cancel in flight:
 * the restored policy must answer the following inputs exactly as the original.
 */
class SplitCancelTest {

  /** A policy, its journal, and from {@link #restoreNow} a copy rebuilt from the journal. */
  private static final class Twin {
    final SplitPolicy p;
    final JournalReplica journal = new JournalReplica();
    SplitPolicy restored;

    Twin(String policy, Map<String, String> params) {
      p = SplitPolicies.create(policy, params);
      p.journal(journal);
      p.exportTo(journal); // a policy's initial memory (ADAPTIVE_DELAY's period)
    }

    List<SplitCommand> apply(Function<SplitPolicy, List<SplitCommand>> input) {
      List<SplitCommand> out = input.apply(p);
      assertThat(journal.entries()).as("the journal follows the state").isEqualTo(p.entries());
      if (restored != null) {
        assertThat(input.apply(restored)).as("the restored policy decides alike").isEqualTo(out);
        assertThat(restored.entries()).isEqualTo(p.entries());
      }
      return out;
    }

    List<JobOutcome> finished() {
      List<JobOutcome> l = p.drainFinished();
      if (restored != null) {
        assertThat(restored.drainFinished()).isEqualTo(l);
      }
      return l;
    }

    void restoreNow() {
      restored = SplitPolicies.restore(p.params(), journal.entries());
      assertThat(restored.entries()).isEqualTo(p.entries());
    }
  }

  private static SplitCommand.Run run(SplitCommand c) {
    assertThat(c).isInstanceOf(SplitCommand.Run.class);
    return (SplitCommand.Run) c;
  }

  @Test
  void farmDropsAQueuedJobAndStopsARunningOneWithoutARemainder() {
    Twin t = new Twin("FARM", Map.of());
    t.apply(p -> p.addNode("n1", 0));
    assertThat(t.apply(p -> p.onJobArrival(SplitJob.of("a", 0, 1000), 0))).hasSize(1);
    assertThat(t.apply(p -> p.onJobArrival(SplitJob.of("b", 2000, 3000), 1))).isEmpty();
    assertThat(t.apply(p -> p.onJobArrival(SplitJob.of("c", 4000, 5000), 2))).isEmpty();
    assertThat(t.p.queuedWork()).isEqualTo(2);

    assertThat(t.apply(p -> p.cancelJob("b", 10))).isEmpty(); // waiting in the FIFO
    assertThat(t.p.queuedWork()).isEqualTo(1);
    assertThat(t.p.activeJobs()).isEqualTo(2);
    assertThat(t.p.cancelling("b")).isFalse(); // nothing of it ran: gone at once

    assertThat(t.apply(p -> p.cancelJob("a", 20)))
        .containsExactly(new SplitCommand.Cancel("n1", "a/1"));
    assertThat(t.p.runningOn("n1")).as("the node is taken until the agent answers")
        .isEqualTo("a/1");
    assertThat(t.p.cancelling("a")).isTrue();
    assertThat(t.p.activeJobs()).isEqualTo(1);
    t.restoreNow();
    assertThatThrownBy(() -> t.p.cancelJob("a", 21)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cancelled");

    // the agent stopped a/1 after 25 events: the node takes c, nothing of a is queued again
    SplitCommand.Run c = run(t.apply(p -> p.onSubjobEnd("n1", "a/1", 25, 30)).get(0));
    assertThat(c.jobId()).isEqualTo("c");
    assertThat(t.p.subjob("a/2")).isNull();
    assertThat(t.p.cancelling("a")).isFalse();
    assertThat(t.apply(p -> p.onSubjobEnd("n1", "a/1", 1000, 31))).as("a late duplicate")
        .isEmpty();
    assertThat(t.finished()).isEmpty();
    t.apply(p -> p.onSubjobEnd("n1", "c/1", 5000, 900));
    assertThat(t.finished()).extracting(JobOutcome::jobId).containsExactly("c");
    assertThat(t.p.entries().jobs()).isEmpty();
  }

  @Test
  void jobSplittingFreesTheNodeOfAHeldRunAndSettlesAPendingShrink() {
    Twin t = new Twin("JOB_SPLITTING", Map.of());
    t.apply(p -> p.addNode("n1", 0));
    t.apply(p -> p.onJobArrival(SplitJob.of("a", 0, 1000), 0));
    // n2 joins: a/1 is shrunk, its tail a/2 is held on n2 until the shrink's acknowledgement
    List<SplitCommand> split = t.apply(p -> p.addNode("n2", 80));
    assertThat(split.get(0)).isInstanceOf(SplitCommand.Shrink.class);
    assertThat(run(split.get(1)).held()).isTrue();
    assertThat(t.p.runningOn("n2")).isEqualTo("a/2");

    assertThat(t.apply(p -> p.cancelJob("a", 90)))
        .containsExactly(new SplitCommand.Cancel("n1", "a/1"));
    assertThat(t.p.runningOn("n2")).as("the held RUN never left: n2 is free").isNull();
    assertThat(t.p.subjob("a/2")).isNull();
    t.restoreNow();

    // n2 takes other work at once
    SplitCommand.Run b = run(t.apply(p -> p.onJobArrival(SplitJob.of("b", 5000, 6000), 95))
        .get(0));
    assertThat(b.node()).isEqualTo("n2");
    // the shrink's acknowledgement, then the end of the cancelled a/1, only free n1
    long newEnd = ((SplitCommand.Shrink) split.get(0)).newEnd();
    assertThat(t.apply(p -> p.acknowledgeStop("a/1", newEnd + 10, 100))).isEmpty();
    assertThat(t.p.cancelling("a")).isTrue();
    List<SplitCommand> freed = t.apply(p -> p.onSubjobEnd("n1", "a/1", newEnd, 110));
    assertThat(t.p.cancelling("a")).isFalse();
    // n1 halves b's running subjob: it gets b's work, never a's
    assertThat(freed).anySatisfy(c -> {
      assertThat(c).isInstanceOf(SplitCommand.Run.class);
      assertThat(c.node()).isEqualTo("n1");
      assertThat(((SplitCommand.Run) c).jobId()).isEqualTo("b");
    });
    assertThat(t.finished()).isEmpty();
  }

  @Test
  void outOfOrderCancelsWhileAStopAwaitsItsAckThenWhileRunning() {
    Twin t = new Twin("OUT_OF_ORDER", Map.of("cacheEvents", "5000"));
    t.apply(p -> p.addNode("n1", 0));
    t.apply(p -> p.onJobArrival(SplitJob.of("x", 10_000, 12_000), 0)); // uncached, preemptible
    t.p.cache("n1").insert(0, 1000, 0);
    t.p.cache("n1").insert(3000, 3100, 0);
    List<SplitCommand> c = t.apply(p -> p.onJobArrival(SplitJob.of("a", 0, 1000), 80));
    assertThat(c.get(0)).isEqualTo(new SplitCommand.Suspend("n1", "x/1", 10_100));
    assertThat(t.p.subjob("x/2").awaitsAck()).isEqualTo("x/1"); // x's rest, in Q_nc
    t.apply(p -> p.onJobArrival(SplitJob.of("y", 50_000, 50_500), 85)); // Q_nc, behind x/2
    assertThat(t.p.queuedSubjobs()).isEqualTo(2);

    assertThat(t.apply(p -> p.cancelJob("x", 90))).isEmpty(); // x/1 is suspended, x/2 queued
    assertThat(t.p.queuedSubjobs()).isEqualTo(1);
    assertThat(t.p.subjob("x/2")).isNull();
    assertThat(t.p.cancelling("x")).as("its suspension awaits the acknowledgement").isTrue();
    t.restoreNow();

    // acknowledged behind the model position: nothing of x comes back
    assertThat(t.apply(p -> p.acknowledgeStop("x/1", 10_050, 95))).isEmpty();
    assertThat(t.p.cancelling("x")).isFalse();
    assertThat(t.p.subjob("x/3")).isNull();
    assertThat(t.p.queuedSubjobs()).isEqualTo(1);

    // at a's end n1 takes y
    SplitCommand.Run y = run(t.apply(p -> p.onSubjobEnd("n1", "a/1", 1000, 340)).get(0));
    assertThat(y.jobId()).isEqualTo("y");
    assertThat(t.apply(p -> p.cancelJob("y", 400)))
        .containsExactly(new SplitCommand.Cancel("n1", "y/1"));
    assertThat(t.apply(p -> p.onSubjobEnd("n1", "y/1", 50_100, 410))).isEmpty();
    assertThat(t.p.runningOn("n1")).isNull();
    assertThat(t.p.activeJobs()).isZero();
    // the node gets other work
    SplitCommand.Run b = run(t.apply(p -> p.onJobArrival(SplitJob.of("b", 3000, 3100), 420))
        .get(0));
    assertThat(b.node()).isEqualTo("n1");
    assertThat(t.finished()).extracting(JobOutcome::jobId).containsExactly("a");
  }

  @Test
  void delayedCancelsFromTheBatchAPrivateQueueAndAMetaSubjob() {
    Twin t = new Twin("DELAYED", Map.of("period", "1h", "stripe", "5000",
        "cacheEvents", "50000"));
    t.apply(p -> p.addNode("n1", 0));
    t.apply(p -> p.onJobArrival(SplitJob.of("a", 0, 10_000), 100));
    assertThat(run(t.apply(p -> p.onTimer(3600)).get(0)).jobId()).isEqualTo("a"); // a/1 to 7600
    t.apply(p -> p.onJobArrival(SplitJob.of("b", 20_000, 23_000), 3700));
    t.apply(p -> p.onJobArrival(SplitJob.of("c", 30_000, 33_000), 3700));
    t.apply(p -> p.onJobArrival(SplitJob.of("e", 40_000, 43_000), 3700));
    t.apply(p -> p.onJobArrival(SplitJob.of("f", 0, 2000), 3700)); // cached on n1 by then

    assertThat(t.apply(p -> p.cancelJob("e", 3800))).isEmpty(); // still in the period batch
    assertThat(t.apply(p -> p.onTimer(7200))).isEmpty(); // n1 is busy
    assertThat(t.p.subjob("e/1")).isNull();
    assertThat(t.p.subjob("f/1").node()).isNull();
    // a's second stripe, b and c each wait in a meta-subjob; f (cached on n1) in Q_n1
    assertThat(t.p.queuedSubjobs()).isEqualTo(4);

    assertThat(t.apply(p -> p.cancelJob("f", 7300))).isEmpty(); // Q_n1
    assertThat(t.apply(p -> p.cancelJob("b", 7300))).isEmpty(); // a meta-subjob of its own
    assertThat(t.p.queuedSubjobs()).isEqualTo(2);
    assertThat(t.p.entries().memory()).hasSize(2); // b's meta-subjob went with its only piece
    t.restoreNow();

    // n1 runs a's rest (not f's piece), then c's meta-subjob (not b's)
    assertThat(run(t.apply(p -> p.onSubjobEnd("n1", "a/1", 5000, 7600)).get(0)).subjobId())
        .isEqualTo("a/2");
    SplitCommand.Run c = run(t.apply(p -> p.onSubjobEnd("n1", "a/2", 10_000, 11_600)).get(0));
    assertThat(c.jobId()).isEqualTo("c");
    assertThat(t.apply(p -> p.cancelJob("c", 11_700)))
        .containsExactly(new SplitCommand.Cancel("n1", c.subjobId()));
    assertThat(t.apply(p -> p.onSubjobEnd("n1", c.subjobId(), 30_100, 11_710))).isEmpty();
    assertThat(t.p.activeJobs()).isZero();
    assertThat(t.p.entries().subjobs()).isEmpty();
    assertThat(t.finished()).extracting(JobOutcome::jobId).containsExactly("a");
  }

  @Test
  void delayedKeepsTheOtherJobsPiecesOfASharedMetaSubjob() {
    Twin t = new Twin("DELAYED", Map.of("period", "1h", "stripe", "5000",
        "cacheEvents", "50000"));
    t.apply(p -> p.addNode("n0", 0));
    t.apply(p -> p.addNode("n1", 0));
    t.apply(p -> p.onJobArrival(SplitJob.of("z", 100_000, 110_000), 100));
    t.apply(p -> p.onJobArrival(SplitJob.of("g", 0, 3000), 150));
    t.apply(p -> p.onJobArrival(SplitJob.of("h", 1000, 2000), 200));
    // the period ends: z's two stripes go first (earlier arrival), one per node; {g, h}'s stripe
    // is one meta-subjob behind them. Cancel g before a node takes it: h's piece stays in it
    List<SplitCommand> atEnd = t.apply(p -> p.onTimer(3600));
    assertThat(atEnd).hasSize(2);
    assertThat(atEnd).allSatisfy(x -> assertThat(run(x).jobId()).isEqualTo("z"));
    assertThat(t.apply(p -> p.cancelJob("g", 3700))).isEmpty();
    t.restoreNow();
    String zOnN0 = t.p.runningOn("n0");
    long zEnd = t.p.subjob(zOnN0).range().end();
    SplitCommand.Run h = run(t.apply(p -> p.onSubjobEnd("n0", zOnN0, zEnd, 3700 + 5000 * 0.8))
        .get(0));
    assertThat(h.jobId()).isEqualTo("h");
  }

  @Test
  void adaptiveDelayCancelsAQueuedMetaSubjobAndARunningSubjob() {
    Twin t = new Twin("ADAPTIVE_DELAY", Map.of("lmaxTable", "0:0.5,6h:2,12h:3",
        "stripe", "5000", "cacheEvents", "50000"));
    t.apply(p -> p.addNode("n1", 0));
    // d = 0 at first: each arrival is scheduled at once
    assertThat(run(t.apply(p -> p.onJobArrival(SplitJob.of("a", 0, 3000), 0)).get(0)).jobId())
        .isEqualTo("a");
    assertThat(t.apply(p -> p.onJobArrival(SplitJob.of("b", 10_000, 13_000), 1))).isEmpty();
    assertThat(t.p.queuedWork()).isEqualTo(1);
    assertThat(t.apply(p -> p.cancelJob("b", 2))).isEmpty();
    assertThat(t.p.queuedWork()).isZero();
    assertThat(t.apply(p -> p.cancelJob("a", 3)))
        .containsExactly(new SplitCommand.Cancel("n1", "a/1"));
    t.restoreNow();
    assertThat(t.apply(p -> p.onSubjobEnd("n1", "a/1", 5, 4))).isEmpty(); // nothing left
    assertThat(t.p.cancelling("a")).isFalse();
    SplitCommand.Run c = run(t.apply(p -> p.onJobArrival(SplitJob.of("c", 20_000, 21_000), 5))
        .get(0));
    assertThat(c.node()).isEqualTo("n1");
    assertThat(t.p.nextTimerAt()).isEqualTo(t.restored.nextTimerAt());
  }

  @Test
  void aLostNodeEndsTheCancelledRunAndItsUnacknowledgedSuspension() {
    Twin t = new Twin("JOB_SPLITTING", Map.of());
    t.apply(p -> p.addNode("n1", 0));
    t.apply(p -> p.addNode("n2", 0));
    t.apply(p -> p.onJobArrival(SplitJob.of("a", 0, 1000), 0)); // a/1 on n1, a/2 on n2
    List<SplitCommand> c = t.apply(p -> p.onJobArrival(SplitJob.of("b", 5000, 6000), 100));
    assertThat(c.get(0)).isEqualTo(new SplitCommand.Suspend("n1", "a/1", 125));
    assertThat(t.apply(p -> p.cancelJob("a", 110)))
        .containsExactly(new SplitCommand.Cancel("n2", "a/2"));
    t.restoreNow();
    t.apply(p -> p.removeNode("n1", 120)); // a/1's acknowledgement will never come
    assertThat(t.p.cancelling("a")).isTrue(); // a/2 still runs on n2
    t.apply(p -> p.removeNode("n2", 130));
    assertThat(t.p.cancelling("a")).isFalse();
    assertThat(t.p.entries().subjobs()).extracting(SubjobEntry::jobId).containsOnly("b");
  }

  static Stream<Arguments> policies() {
    List<Arguments> l = new ArrayList<>();
    for (String p : List.of("FARM", "JOB_SPLITTING", "CACHE_JOB_SPLITTING", "OUT_OF_ORDER",
        "OUT_OF_ORDER+replication", "DELAYED", "DELAYED+d0", "ADAPTIVE_DELAY")) {
      for (SplitTestDriver.Ack a : SplitTestDriver.Ack.values()) {
        l.add(Arguments.of(p, a));
      }
    }
    return l.stream();
  }

  /**
   * A journalled workload on 5 nodes where every fourth job is cancelled, at its arrival or some
   * minutes later (queued, held, running, or with a stop in flight, as it happens), and agents
   * that answer stops and cancels exactly, ahead, behind or late: nothing of a cancelled job runs
   * after its cancel, every other job's events are processed exactly once, and at the end nothing
   * of the cancelled jobs is left in the state.
   */
  private static final double[] LATER = {0, 1500, 3000, 22_000, 26_000, 30_000, 40_000};

  private static SplitTestDriver withCancels(String spec, SplitTestDriver.Ack ack) {
    SplitTestDriver d = new SplitTestDriver(SplitConservationTest.policy(spec), ack, 3);
    d.journalled(true);
    d.addNodes(5);
    List<Double> at = new ArrayList<>();
    List<SplitJob> jobs = SplitConservationTest.workload(13, 60, 80_000, 900, at);
    for (int i = 0; i < jobs.size(); i++) {
      d.submit(jobs.get(i), at.get(i));
      if (i % 4 == 1) {
        // at once, minutes later, or hours later (after a DELAYED period's end)
        d.cancel(jobs.get(i).id(), at.get(i) + LATER[(i / 4) % LATER.length]);
      }
    }
    return d;
  }

  @ParameterizedTest(name = "{0} / {1}")
  @MethodSource("policies")
  void cancelsAmidAWorkloadLeaveNoTraceAndLoseNoOtherEvent(String spec,
      SplitTestDriver.Ack ack) {
    SplitTestDriver d = withCancels(spec, ack);
    d.run();
    d.assertExactlyOnce();
    assertThat(d.cancelled).hasSizeGreaterThan(2);
    assertThat(d.policy.activeJobs()).isZero();
    assertThat(d.policy.cancellingJobs()).isZero();
    assertThat(d.policy.entries().jobs()).isEmpty();
    assertThat(d.policy.entries().subjobs()).isEmpty();
    assertThat(d.policy.queuedWork()).isZero();
  }

  /** The same, restored from its journal midway (cancels in flight): it decides identically. */
  @ParameterizedTest(name = "{0} / {1}")
  @MethodSource("policies")
  void aRestoreAmidCancelsDecidesIdentically(String spec, SplitTestDriver.Ack ack) {
    SplitTestDriver whole = withCancels(spec, ack);
    whole.run();
    SplitTestDriver cut = withCancels(spec, ack);
    cut.runUntil(20_000);
    SplitPolicy restored = SplitPolicies.restore(cut.policy.params(), cut.journal.entries());
    assertThat(restored.entries()).isEqualTo(cut.policy.entries());
    cut.continueWith(restored);
    cut.run();
    cut.assertExactlyOnce();
    assertThat(cut.log).isEqualTo(whole.log);
  }

  @Test
  void anUnknownOrFinishedJobIsRefused() {
    SplitPolicy p = SplitPolicies.create("FARM", Map.of());
    p.addNode("n1", 0);
    p.onJobArrival(SplitJob.of("a", 0, 10), 0);
    p.onSubjobEnd("n1", "a/1", 10, 8);
    assertThatThrownBy(() -> p.cancelJob("a", 9)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> p.cancelJob("ghost", 9))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
