package io.locus.sim.provision;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.model.Command;
import io.locus.core.model.Task;
import io.locus.core.provision.Provisioner;
import io.locus.core.provision.ProvisioningConfig;
import io.locus.core.provision.ProvisioningConfig.Acquisition;
import io.locus.core.state.PoolState;
import io.locus.sim.engine.EventQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** E7 through the core Provisioner, and the LRM model of spec §2.4. */
class ProvisioningTest {
  @ParameterizedTest
  @CsvSource({
      "ONE_AT_A_TIME, 48",
      "ALL_AT_ONCE, 1",
      "ADDITIVE, 10",
      "EXPONENTIAL, 6"})
  void e7RequestsForADeficitOf48(Acquisition strategy, int requests) {
    PoolState s = new PoolState();
    for (int i = 0; i < 96; i++) {
      s.enqueue(Task.of("t" + i, i, 0, 0.01));
    }
    // 96 queued tasks, 2 slots per node, k = 1: 48 nodes desired, none registered or pending
    ProvisioningConfig cfg = new ProvisioningConfig(true, 0, 64, 2, 1.0, strategy,
        ProvisioningConfig.Release.DISTRIBUTED_IDLE, 30, 0, 1.0);
    List<Integer> sizes = new ArrayList<>();
    for (Command c : new Provisioner(cfg).poll(s, 0, Integer.MAX_VALUE)) {
      sizes.add(((Command.Acquire) c).nodes());
    }
    assertThat(sizes).hasSize(requests);
    assertThat(sizes.stream().mapToInt(Integer::intValue).sum()).isEqualTo(48);
    if (strategy == Acquisition.ADDITIVE) {
      assertThat(sizes).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 3);
    }
    if (strategy == Acquisition.EXPONENTIAL) {
      assertThat(sizes).containsExactly(1, 2, 4, 8, 16, 17);
    }
  }

  private record Grant(double time, int nodes) {}

  private static void drain(EventQueue q) {
    while (q.peekTime() != Double.POSITIVE_INFINITY) {
      double t = q.peekTime();
      EventQueue.Event e;
      while ((e = q.pollAt(t)) != null) {
        EventQueue.run(e);
      }
    }
  }

  @Test
  void requestsAreProcessedFifoAtHalfARequestPerSecondWithLatencyInRange() {
    EventQueue q = new EventQueue();
    Lrm lrm = new Lrm(LrmConfig.defaults(), q, new SplittableRandom(3));
    List<Grant> grants = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      lrm.submit(1 + i, 0.0, recorder(grants));
    }
    assertThat(lrm.pendingRequests()).isEqualTo(5);
    assertThat(lrm.pendingNodes()).isEqualTo(15);
    drain(q);
    assertThat(grants).hasSize(5);
    for (Grant g : grants) {
      int i = g.nodes() - 1; // request i is processed at 2i s, then waits U[30, 60] s
      assertThat(g.time()).isBetween(2.0 * i + 30, 2.0 * i + 60);
    }
    assertThat(lrm.grants()).isEqualTo(5);
    assertThat(lrm.pendingNodes()).isZero();
    assertThat(lrm.allocated()).isEqualTo(15);
  }

  @Test
  void aSmallerLaterRequestBackfillsAroundOneThatDoesNotFit() {
    EventQueue q = new EventQueue();
    LrmConfig cfg = new LrmConfig(10, 2.0, 30, 30, List.of());
    Lrm lrm = new Lrm(cfg, q, new SplittableRandom(1));
    List<Grant> grants = new ArrayList<>();
    lrm.submit(8, 0, recorder(grants)); // processed 0, grantable 30
    lrm.submit(5, 0, recorder(grants)); // processed 2, grantable 32: only 2 free
    lrm.submit(2, 0, recorder(grants)); // processed 4, grantable 34: fits, starts first
    drain(q);
    assertThat(grants).containsExactly(new Grant(30, 8), new Grant(34, 2));
    assertThat(lrm.freeCapacity(40)).isZero();
    lrm.release(8, 50);
    assertThat(grants).containsExactly(new Grant(30, 8), new Grant(34, 2), new Grant(50, 5));
  }

  @Test
  void externallyBusyNodesDelayGrantsUntilTheyAreFree() {
    EventQueue q = new EventQueue();
    LrmConfig cfg = new LrmConfig(96, 2.0, 30, 30, List.of(new LrmConfig.Busy(49, 160)));
    Lrm lrm = new Lrm(cfg, q, new SplittableRandom(1));
    List<Grant> grants = new ArrayList<>();
    assertThat(lrm.freeCapacity(0)).isEqualTo(47);
    lrm.submit(48, 0, recorder(grants));
    drain(q);
    assertThat(grants).containsExactly(new Grant(160, 48));
  }

  @Test
  void aRequestLargerThanTheLrmIsRefused() {
    EventQueue q = new EventQueue();
    Lrm lrm = new Lrm(LrmConfig.withCapacity(4), q, new SplittableRandom(1));
    List<Integer> refused = new ArrayList<>();
    lrm.submit(5, 0, new Lrm.Callback() {
      @Override
      public void granted(int nodes, double now) {
        throw new AssertionError("granted");
      }

      @Override
      public void refused(int nodes, double now) {
        refused.add(nodes);
      }
    });
    assertThat(refused).containsExactly(5);
  }

  private static Lrm.Callback recorder(List<Grant> grants) {
    return new Lrm.Callback() {
      @Override
      public void granted(int nodes, double now) {
        grants.add(new Grant(now, nodes));
      }

      @Override
      public void refused(int nodes, double now) {
        throw new AssertionError("refused " + nodes);
      }
    };
  }
}
