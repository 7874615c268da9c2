package io.locus.core.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.locus.core.Scheduler;
import io.locus.core.model.Command;
import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import io.locus.core.staging.CostModel;
import io.locus.core.state.PoolState;
import io.locus.core.state.StagingState;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * EFT's rules on constructed cases: in the staged model it maps to the earliest estimated finish
 * (busy node with the data vs free node that must fetch, both ways, and a storage node's queue
 * priced in); in the agent model a task waits for its data's holder no longer than the transfer
 * time that saves, and that bound grows with utilisation.
 */
class EarliestFinishTest {
  /** Setting U of the hypergraph spec: 1 file = 1 MiB; transfer 1 s, read 0.3 s, compute 0.2 s. */
  private static final long UNIT = 1L << 20;
  private static final CostModel U = KhannaWorkedExamplesTest.U;
  private static final long BIG = 1000 * UNIT;
  private static final long MB10 = 10_000_000L;

  private static InputFile file(String id, int storage) {
    return new InputFile(id, UNIT, 0, "SN" + storage, null);
  }

  private static EarliestFinish eft(EarliestFinish.Caches caches) {
    return new EarliestFinish(U, 2500, EarliestFinish.DEFAULT_NIC_GBPS,
        EarliestFinish.DEFAULT_DISK_GBPS, caches);
  }

  /**
   * Two one-slot nodes; n1 holds {@code held} (PRESENT) and runs a job planned to complete at
   * {@code busyUntil}; n2 is idle and empty. Storage node 1 is reserved over [0, sn1BusyUntil).
   */
  private static PoolState staged(List<InputFile> held, double busyUntil, double sn1BusyUntil) {
    PoolState s = new PoolState();
    s.registerNode("n1", 1, BIG, null, 0);
    s.registerNode("n2", 1, BIG, null, 0);
    StagingState st = s.staging();
    for (InputFile u : held) {
      st.addInFlight("n1", u, 0);
      st.transferEnded(u.id(), "n1");
    }
    if (sn1BusyUntil > 0) {
      st.reserve(1, 0, sn1BusyUntil);
    }
    Task running = Task.of("running", 1, 0, 0, file("r", 3));
    s.enqueue(running);
    st.map(running, "n1");
    s.assign(running, "n1", s.plan(running, s.node("n1"), true), "d", 0);
    st.recordStart("n1", "running", busyUntil);
    return s;
  }

  private static String mappedNode(PoolState s, Policy p, Task job) {
    s.enqueue(job);
    new Scheduler("k", s, p).dispatch(0);
    StagingState st = s.staging();
    String mapped = st.mappedNode(job.taskId());
    if (mapped != null) {
      return mapped;
    }
    // started at once: its node is the one running it
    return s.running(job.taskId()).node();
  }

  @Test
  void aFreeNodeThatMustFetchBeatsALongWaitWhereTheDataIs() {
    List<InputFile> g = List.of(file("g1", 1), file("g2", 2));
    Task job = Task.of("j", 2, 0, 0, g.toArray(InputFile[]::new));
    // n1: ready 100, then read + compute 2 × 0.5 = 101; n2: fetch 2 × 1 s + 1 = 3
    assertThat(mappedNode(staged(g, 100, 0), eft(EarliestFinish.Caches.STAGED), job))
        .isEqualTo("n2");
    // MET ignores the wait and stays with the data
    assertThat(mappedNode(staged(g, 100, 0), new Met(U), job)).isEqualTo("n1");
  }

  @Test
  void withABacklogMovingDataIsPricedByTheJobsItDelays() {
    List<InputFile> g = List.of(file("g1", 1), file("g2", 2));
    Task job = Task.of("j", 2, 0, 0, g.toArray(InputFile[]::new));
    // alone: n2 (finish 3) beats n1 (finish 101), as in the first case
    // with 60 jobs waiting behind j: n2 costs 3 + 2 s of transfers × 60 = 123 > 101, n1 moves none
    PoolState s = staged(g, 100, 0);
    for (int i = 0; i < 60; i++) {
      s.enqueue(Task.of("w" + i, 10 + i, 0, 0, file("w" + i, 4)));
    }
    assertThat(mappedNode(s, eft(EarliestFinish.Caches.STAGED), job)).isEqualTo("n1");
    PoolState fewer = staged(g, 100, 0);
    for (int i = 0; i < 40; i++) { // 3 + 2 × 40 = 83 < 101: still worth moving
      fewer.enqueue(Task.of("w" + i, 10 + i, 0, 0, file("w" + i, 4)));
    }
    assertThat(mappedNode(fewer, eft(EarliestFinish.Caches.STAGED), job)).isEqualTo("n2");
  }

  @Test
  void aShortWaitWhereTheDataIsBeatsFetching() {
    List<InputFile> g = List.of(file("g1", 1), file("g2", 2));
    Task job = Task.of("j", 2, 0, 0, g.toArray(InputFile[]::new));
    // n1: 0.5 + 1 = 1.5; n2: 2 + 1 = 3
    assertThat(mappedNode(staged(g, 0.5, 0), eft(EarliestFinish.Caches.STAGED), job))
        .isEqualTo("n1");
  }

  @Test
  void aBusyStorageNodeIsPricedIntoTheTransfer() {
    List<InputFile> g = List.of(file("g", 1));
    Task job = Task.of("j", 2, 0, 0, g.toArray(InputFile[]::new));
    // SN1 is reserved until 10: n2 would receive g at 11 and finish at 11.5; n1 finishes at 5.5
    assertThat(mappedNode(staged(g, 5, 10), eft(EarliestFinish.Caches.STAGED), job))
        .isEqualTo("n1");
    // MCT prices the transfer nominally (1 s, D19) and goes to n2 (1.5 < 5.5)
    assertThat(mappedNode(staged(g, 5, 10), new Mct(U), job)).isEqualTo("n2");
  }

  @Test
  void autoPicksStagedForOneSlotNodesAndAgentOtherwise() {
    EarliestFinish auto = eft(EarliestFinish.Caches.AUTO);
    PoolState one = new PoolState();
    one.registerNode("n1", 1, BIG, null, 0);
    assertThat(auto.staged(one)).isTrue();
    PoolState two = new PoolState();
    two.registerNode("n1", 2, BIG, null, 0);
    assertThat(auto.staged(two)).isFalse();
    assertThat(eft(EarliestFinish.Caches.STAGED).staged(two)).isTrue();
    assertThat(eft(EarliestFinish.Caches.AGENT).staged(one)).isFalse();
  }

  // ---------------------------------------------------------------- agent caches

  /**
   * e1 (2 slots) caches a and runs two tasks placed at 0, of compute {@code holderCompute[0]}
   * and {@code [1]} s; e2 (2 slots) is free and empty; t reads a.
   */
  private static PoolState agent(int extraBusyNodes, double... holderCompute) {
    PoolState s = new PoolState();
    s.registerNode("e1", 2, 100 * MB10, null, 0);
    s.registerNode("e2", 2, 100 * MB10, null, 0);
    for (int i = 0; i < extraBusyNodes; i++) {
      s.registerNode("x" + i, 2, 100 * MB10, null, 0);
    }
    int k = 0;
    for (var n : List.copyOf(s.nodes())) {
      if (n.id().equals("e2")) {
        continue;
      }
      for (int i = 0; i < 2; i++) {
        double compute = n.id().equals("e1") ? holderCompute[i] : 1.0;
        Task busy = Task.of("busy" + k, 100 + k, 0, compute, InputFile.of("z" + k, 1));
        k++;
        s.enqueue(busy);
        s.assign(busy, n.id(), s.plan(busy, n, true), "d" + k, 0);
      }
    }
    s.applyCacheDelta("e1", 1, Map.of("a", MB10), List.of());
    s.enqueue(Task.of("t", 1, 0, 0.01, InputFile.of("a", MB10)));
    return s;
  }

  private static List<String> placements(List<Command> cmds) {
    return cmds.stream().map(c -> (Command.Run) c)
        .map(r -> r.node() + "<-" + r.task().taskId() + " " + r.reason().policy()).toList();
  }

  @Test
  void theHeadWaitsForItsHolderOnlyAsLongAsThePeerReadWouldCost() {
    EarliestFinish p = eft(EarliestFinish.Caches.AGENT);
    PoolState s = agent(0, 0.001, 1.0); // e1's first task is forecast to end at 0.001 s
    // 2 busy slots over 2 nodes: the NIC is shared by 1 reader; 10 MB at 125 MB/s from a peer
    // against 148.4375 MB/s from the local disk: D = 0.08 − 0.0673684... s
    double d = MB10 / 125e6 - MB10 / 148.4375e6;
    assertThat(p.localityWait(s, s.queued("t"), s.node("e2"))).isCloseTo(d, within(1e-12));

    assertThat(new Scheduler("p", s, p).dispatch(d * 0.9)).isEmpty();
    assertThat(s.queueLength()).isEqualTo(1);
    List<Command> later = new Scheduler("p", s, p).dispatch(d * 1.01);
    assertThat(placements(later)).containsExactly("e2<-t EFT/FAR");
  }

  @Test
  void theWaitIsBoundedAndGrowsWithUtilisation() {
    EarliestFinish p = eft(EarliestFinish.Caches.AGENT);
    PoolState low = agent(0, 0.001, 0.001);
    PoolState high = agent(6, 0.001, 0.001); // 14 of 16 slots busy: 1.75 readers per NIC
    double dLow = p.localityWait(low, low.queued("t"), low.node("e2"));
    double dHigh = p.localityWait(high, high.queued("t"), high.node("e2"));
    assertThat(dHigh).isGreaterThan(dLow);
    assertThat(dHigh).isCloseTo(MB10 / (125e6 / 1.75) - MB10 / 148.4375e6, within(1e-12));
    // never more than reading those bytes over the shared NIC
    assertThat(dHigh).isLessThan(MB10 / (125e6 / 1.75));
    // MCH would wait for e1 without bound; EFT places t on e2 once the bound has passed
    assertThat(new Scheduler("p", agent(6, 0.001, 0.001), new MaxCacheHit(2500)).dispatch(1000))
        .isEmpty();
    assertThat(placements(new Scheduler("p", high, p).dispatch(dHigh * 1.01)))
        .containsExactly("e2<-t EFT/FAR");
  }

  @Test
  void theHeadGoesAtOnceWhenItsHolderCannotBeFreeBeforeItsDeadline() {
    EarliestFinish p = eft(EarliestFinish.Caches.AGENT);
    double d = MB10 / 125e6 - MB10 / 148.4375e6;
    // e1's tasks compute 1 s each: its first slot frees at 1 s at the earliest, past t's D
    PoolState late = agent(0, 1.0, 1.0);
    assertThat(p.holderFreeAt(late, late.queued("t"), 0))
        .isCloseTo(1.0 + 1 / 148.4375e6, within(1e-12));
    assertThat(placements(new Scheduler("p", late, p).dispatch(0)))
        .containsExactly("e2<-t EFT/FAR");
    // one of e1's two tasks ends within D: the earliest slot decides, t waits for it
    PoolState soon = agent(0, 1.0, 0.001);
    assertThat(p.holderFreeAt(soon, soon.queued("t"), 0)).isLessThan(d);
    assertThat(new Scheduler("p", soon, p).dispatch(0)).isEmpty();
    // an attempt past its forecast counts as ending now: still worth waiting until D
    assertThat(p.holderFreeAt(soon, soon.queued("t"), d * 0.5)).isEqualTo(d * 0.5);
    assertThat(new Scheduler("p", soon, p).dispatch(d * 0.5)).isEmpty();
    // no node holds any of u's bytes: nothing to wait for
    soon.enqueue(Task.of("u", 2, 0, 0.01, InputFile.of("b", MB10)));
    assertThat(p.holderFreeAt(soon, soon.queued("u"), 0)).isInfinite();
  }

  /** e1 and e2 free, e2 caches a; t reads a, u reads uncached b. */
  private static PoolState holderFree() {
    PoolState s = new PoolState();
    s.registerNode("e1", 2, 100 * MB10, null, 0);
    s.registerNode("e2", 2, 100 * MB10, null, 0);
    s.applyCacheDelta("e2", 1, Map.of("a", MB10), List.of());
    s.enqueue(Task.of("t", 1, 0, 0.01, InputFile.of("a", MB10)));
    s.enqueue(Task.of("u", 2, 0, 0.01, InputFile.of("b", MB10)));
    return s;
  }

  @Test
  void aTaskWhoseHolderIsFreeGoesThereAtOnceAsUnderMch() {
    List<Command> eft = new Scheduler("p", holderFree(), eft(EarliestFinish.Caches.AUTO))
        .dispatch(0);
    List<Command> mch = new Scheduler("p", holderFree(), new MaxCacheHit(2500)).dispatch(0);
    assertThat(placements(eft)).startsWith("e2<-t EFT").hasSize(2);
    assertThat(placements(eft)).containsExactlyElementsOf(
        placements(mch).stream().map(x -> x.replace("MCH", "EFT")).toList());
  }

  @Test
  void registeredWithItsParametersAndRefusesUnknownOnes() {
    assertThat(Policies.NAMES).contains("EFT");
    assertThat(Policies.create("eft", Map.of()).name()).isEqualTo("EFT");
    assertThat(Policies.create("EFT", Map.of("caches", "staged", "rbw", "50", "window", "10",
        "nicGbps", "10", "diskGbps", "2"))).isInstanceOf(EarliestFinish.class);
    assertThatThrownBy(() -> Policies.create("EFT", Map.of("theta", "0.9")))
        .hasMessageContaining("unknown parameter 'theta'");
    assertThatThrownBy(() -> Policies.create("EFT", Map.of("caches", "disk")))
        .hasMessageContaining("caches must be auto, staged or agent");
    assertThatThrownBy(() -> Policies.create("EFT", Map.of("nicGbps", "0")))
        .hasMessageContaining("nicGbps must be > 0");
    assertThatThrownBy(() -> Policies.create("EFT", Map.of("diskGbps", "NaN")))
        .hasMessageContaining("diskGbps");
  }
}
