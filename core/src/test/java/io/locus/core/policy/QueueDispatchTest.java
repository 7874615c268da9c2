package io.locus.core.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.model.Command;
import io.locus.core.model.Task;
import io.locus.core.share.QueueSpec;
import io.locus.core.share.QueueTree;
import io.locus.core.state.NodeView;
import io.locus.core.state.PoolState;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Fair-share dispatch through the real {@link io.locus.core.Scheduler} (issue 24 item 2): whose task
 * runs next is fair share's, where it runs the policy's, a held head waits only as long as the
 * locality wait allows; limits, the per-queue maximum wait, and the cost per decision.
 */
class QueueDispatchTest {
  private static final int U = QueueSpec.UNLIMITED;

  /** Two equal queues guaranteed half of 16 slots each. */
  private static QueueTree halves() {
    return QueueTree.build(List.of(QueueSpec.of("a", null, 1, 8, U),
        QueueSpec.of("b", null, 1, 8, U)), 16);
  }

  /** The flood: a submits 10× the slots at 0, b half as many at 20; 32 files, 2 cached per node. */
  private static QueuePool flood(String policy, QueueTree tree, double maxWait,
      double[] bReached) {
    QueuePool p = new QueuePool(policy, tree, 16, 1);
    p.s.setMaxLocalityWait(maxWait);
    for (int k = 0; k < 16; k++) {
      p.cache(QueuePool.node(k), "f" + k);
      p.cache(QueuePool.node(k), "f" + (k + 16));
    }
    long seq = 0;
    for (int i = 0; i < 160; i++) {
      p.submit(QueuePool.task("a" + i, ++seq, "a", 0, 8 + i % 5, "f" + i % 32));
    }
    for (int j = 0; j < 80; j++) {
      p.submit(QueuePool.task("b" + j, ++seq, "b", 20, 8 + j % 5, "f" + (7 * j) % 32));
    }
    p.probe = t -> {
      if (t >= 20 && Double.isNaN(bReached[0]) && running(p, "b") >= 8) {
        bReached[0] = t;
      }
    };
    p.runUntil(10_000);
    return p;
  }

  private static long running(QueuePool p, String q) {
    return p.s.state().running().stream().filter(r -> q.equals(r.task().queue())).count();
  }


  /**
   * The flood case, measured (16 one-slot nodes, tasks of 8 to 12 s, MCH): FIFO gives b
   * its 8th slot at t=100, when a's backlog is gone (b waits 80 s), and places every task on a
   * best holder (local 1.000, makespan 150 s). With the two queues b holds its guarantee at t=23,
   * 3 s after it arrives, without preemption (below its guarantee it takes the first free slots,
   * data or not), and the pool keeps 88 % of its local placements (a 0.94, b 0.78; makespan 161 s).
   * Fair share without the locality wait (maxLocalityWait 0) keeps less (measured below).
   */
  @Test
  void aFloodedPoolGivesTheLateQueueItsGuaranteeWithinOneTaskLengthAndKeepsLocality() {
    double[] fifoReached = {Double.NaN};
    QueuePool fifo = flood("MCH", null, 3, fifoReached);
    double[] reached = {Double.NaN};
    QueuePool fair = flood("MCH", halves(), 3, reached);
    double[] blindReached = {Double.NaN};
    QueuePool blind = flood("MCH", halves(), 0, blindReached);
    System.out.printf("fifo: b reached 8 at %s, local %.3f (a %.3f, b %.3f), end %.1f%n",
        fifoReached[0], fifo.localShare(), fifo.localShare("a"), fifo.localShare("b"), fifo.now);
    System.out.printf("fair: b reached 8 at %s, local %.3f (a %.3f, b %.3f), end %.1f%n",
        reached[0], fair.localShare(), fair.localShare("a"), fair.localShare("b"), fair.now);
    System.out.printf("no wait: b reached 8 at %s, local %.3f, end %.1f%n",
        blindReached[0], blind.localShare(), blind.now);
    assertThat(fifo.runs).hasSize(240);
    assertThat(fair.runs).hasSize(240);
    assertThat(fifoReached[0]).isGreaterThanOrEqualTo(100.0); // FIFO: behind the whole flood
    assertThat(reached[0] - 20).isLessThanOrEqualTo(12.0); // one task length (the longest)
    assertThat(fair.localShare()).isGreaterThanOrEqualTo(0.85);
    assertThat(fair.localShare()).isGreaterThan(blind.localShare());
  }

  @Test
  void aQueueAtItsLimitGetsNoSlotEvenWithFreeNodes() {
    QueueTree tree = QueueTree.build(List.of(QueueSpec.of("a", null, 1, 0, 3)), 8);
    QueuePool p = new QueuePool("FA", tree, 8, 1);
    for (int i = 0; i < 20; i++) {
      p.submit(QueuePool.task("a" + i, i + 1, "a", 0, 10, "f" + i));
    }
    long[] most = {0};
    p.probe = t -> most[0] = Math.max(most[0], running(p, "a"));
    p.runUntil(1_000);
    assertThat(most[0]).isEqualTo(3);
    assertThat(p.runs).hasSize(20);
    assertThat(p.now).isEqualTo(70.0); // 7 rounds of 3 tasks of 10 s; 5 nodes idle throughout
  }

  /** b waits behind a's guarantee until its task waited its queue's max wait (CERN D16). */
  @Test
  void aQueueWhoseOldestTaskWaitedItsMaxWaitGoesFirst() {
    for (Double maxWait : new Double[] {null, 25.0}) {
      QueueTree tree = QueueTree.build(List.of(QueueSpec.of("a", null, 1, 2, U),
          QueueSpec.of("b", null, 1, 0, U).withMaxWait(maxWait)), 2);
      QueuePool p = new QueuePool("FA", tree, 2, 1);
      for (int i = 0; i < 10; i++) {
        p.submit(QueuePool.task("a" + i, i + 1, "a", 0, 10, "f" + i));
      }
      p.submit(QueuePool.task("b0", 11, "b", 0, 10, "g"));
      p.runUntil(1_000);
      // a is below its guarantee of 2 whenever a slot frees: it goes first until b is overdue
      assertThat(p.started.get("b0")).isEqualTo(maxWait == null ? 50.0 : 30.0);
    }
  }

  /**
   * Uncontended, a head MCH would hold for its busy best holder waits the locality wait (3 s from
   * its queue's clock) and then takes the free node; plain MCH waits for the holder (D6).
   */
  @Test
  void aHeldHeadTakesTheFreeNodeWhenItsLocalityWaitEnds() {
    for (QueueTree tree : new QueueTree[] {null, halves()}) {
      QueuePool p = new QueuePool("MCH", tree, 2, 1);
      p.cache(QueuePool.node(0), "f");
      p.submit(QueuePool.task("x", 1, "a", 0, 100, "g")); // nobody caches g: first free, n00
      p.submit(QueuePool.task("y", 2, "a", 2, 10, "f")); // f is on n00, busy until 100
      p.runUntil(1_000);
      Command.Run y = p.runs.stream().filter(r -> r.task().taskId().equals("y")).findFirst()
          .orElseThrow();
      if (tree == null) {
        assertThat(p.started.get("y")).isEqualTo(100.0);
        assertThat(y.node()).isEqualTo("n00");
      } else {
        // a's clock: its last launch (x at 0), or y's submission (2) as later: held until 5
        assertThat(p.started.get("y")).isEqualTo(5.0);
        assertThat(y.node()).isEqualTo("n01");
        assertThat(y.reason().policy()).isEqualTo("MCH/FAR");
      }
    }
  }

  /** Counts the per-task answers the queue dispatch asks of MCH. */
  private static final class Counting implements Policy, ChoosesPerTask {
    private final MaxCacheHit mch = new MaxCacheHit(2500);
    long asked;

    @Override
    public String name() {
      return "MCH";
    }

    @Override
    public void dispatch(Dispatch d) {
      mch.dispatch(d);
    }

    @Override
    public TaskChooser chooser(PoolState s, double now) {
      TaskChooser c = mch.chooser(s, now);
      return new TaskChooser() {
        @Override
        public Choice choose(Task t) {
          asked++;
          return c.choose(t);
        }

        @Override
        public NodeView now(Task t) {
          return c.now(t);
        }

        @Override
        public String label() {
          return c.label();
        }

        @Override
        public boolean caching() {
          return c.caching();
        }
      };
    }
  }

  /**
   * a floods 1,000 or 100,000 tasks that all want one holder; b's tasks arrive over time. The
   * work of the decisions (per-task answers asked) is the same for both backlogs over the same
   * horizon, and at most two queues × {@link QueueDispatch#LOOKAHEAD} per dispatch.
   */
  @Test
  void theWorkPerDecisionDoesNotGrowWithAFloodingQueuesBacklog() {
    long[] asked = new long[2];
    int[] placed = new int[2];
    int[] dispatches = new int[2];
    int[] backlog = {1_000, 100_000};
    for (int k = 0; k < 2; k++) {
      QueuePool p = new QueuePool("MCH", halvesOf(4), 4, 1);
      Counting c = new Counting();
      p.s.setPolicy(c);
      p.cache(QueuePool.node(0), "h");
      for (int i = 0; i < backlog[k]; i++) {
        p.submit(QueuePool.task("a" + i, i + 1, "a", 0, 10, "h"));
      }
      for (int j = 0; j < 40; j++) {
        p.submit(QueuePool.task("b" + j, backlog[k] + j + 1, "b", j, 5, "g" + j));
      }
      int kk = k;
      p.probe = t -> dispatches[kk]++;
      p.runUntil(200);
      asked[k] = c.asked;
      placed[k] = p.runs.size();
    }
    System.out.printf("placed %d, dispatches %d, asked %d / %d%n", placed[0], dispatches[0],
        asked[0], asked[1]);
    assertThat(placed[1]).isEqualTo(placed[0]);
    assertThat(dispatches[1]).isEqualTo(dispatches[0]);
    assertThat(asked[1]).isEqualTo(asked[0]);
    assertThat(asked[0]).isLessThanOrEqualTo(
        2L * QueueDispatch.LOOKAHEAD * (placed[0] + dispatches[0]));
  }

  private static QueueTree halvesOf(int slots) {
    return QueueTree.build(List.of(QueueSpec.of("a", null, 1, slots / 2, U),
        QueueSpec.of("b", null, 1, slots / 2, U)), slots);
  }
}
