package io.locus.core.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.locus.core.Scheduler;
import io.locus.core.model.Command;
import io.locus.core.model.InputFile;
import io.locus.core.model.InputSource;
import io.locus.core.model.InputFetch;
import io.locus.core.model.Task;
import io.locus.core.staging.CostModel;
import io.locus.core.state.NodeView;
import io.locus.core.state.PoolState;
import io.locus.core.state.StagingState;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Hypergraph spec §8 through the Scheduler: T2 (MCT commit), T7 (VALUE at commit), T8, T10. */
class KhannaWorkedExamplesTest {
  /** Setting U: 1 unit = 1 MiB; transfer 1 s, read 0.3 s, compute 0.2 s per file. */
  static final long UNIT = 1L << 20;
  static final CostModel U = new CostModel(1, 1 / 0.3, 0.2, 4);
  static final Map<String, String> U_PARAMS =
      Map.of("rbw", "1", "lbw", Double.toString(1 / 0.3), "c", "0.2");
  private static final long BIG = 1000 * UNIT;

  static InputFile file(String id, int storage) {
    return new InputFile(id, UNIT, 0, "SN" + storage, null);
  }

  private long seq;

  private Task job(String id, double at, InputFile... files) {
    return Task.of(id, ++seq, at, 0, files);
  }

  private static Scheduler pool(Policy p, int nodes) {
    Scheduler s = new Scheduler("k", new PoolState(), p);
    for (int i = 1; i <= nodes; i++) {
      s.onNodeRegistered("n" + i, 1, BIG, null, 0);
    }
    return s;
  }

  private static Command.Run run(List<Command> cmds, String taskId) {
    return cmds.stream().filter(c -> c instanceof Command.Run r && r.task().taskId().equals(taskId))
        .map(c -> (Command.Run) c).findFirst().orElseThrow();
  }

  @Test
  void policiesAreRegisteredWithTheirParameters() {
    assertThat(Policies.create("met", U_PARAMS)).isInstanceOf(Met.class);
    assertThat(((Mct) Policies.create("MCT", Map.of())).cost()).isEqualTo(CostModel.DEFAULT);
    assertThat(((Jdpdll) Policies.create("JDPDLL", Map.of())).thresh()).isEqualTo(2);
    assertThat(((Jdpdll) Policies.create("JDPDLL", Map.of("thresh", "4"))).thresh()).isEqualTo(4);
    assertThat(Policies.create("SA", Map.of("l", "0.2", "h", "0.8")).name()).isEqualTo("SA");
    assertThat(((Met) Policies.create("MET", U_PARAMS)).cost()).isEqualTo(U);
    assertThat(Policies.NAMES).contains("FA", "GCC", "MET", "MCT", "SA", "JDPDLL");
  }

  /**
   * T2 end to end: node A (n1) commits a job whose SN1 file takes [0,1); MCT sends X to idle B (n2)
   * whose Run carries the plan [(g2, SN2, 0, 1), (g1, SN1, 1, 2)] and planned completion 3.0.
   */
  @Test
  void t2MctCommitCarriesTheStagingPlan() {
    Scheduler s = pool(new Mct(U), 2);
    List<Command> first = s.onJobArrival(job("a", 0, file("a1", 1)), 0);
    assertThat(run(first, "a").node()).isEqualTo("n1");
    assertThat(run(first, "a").inputs().get(0).reservation())
        .isEqualTo(new InputFetch.Reservation(1, 0, 1));

    List<Command> cmds = s.onJobArrival(job("X", 0, file("g1", 1), file("g2", 2)), 0);
    Command.Run x = run(cmds, "X");
    assertThat(x.node()).isEqualTo("n2");
    assertThat(x.plannedCompletion()).isCloseTo(3.0, within(1e-9));
    assertThat(x.inputs()).extracting(InputFetch::reservation).containsExactly(
        new InputFetch.Reservation(1, 1, 2), new InputFetch.Reservation(2, 0, 1));
    assertThat(x.inputs()).extracting(InputFetch::source)
        .containsOnly(InputSource.STORAGE);
    StagingState st = s.state().staging();
    assertThat(st.chart(1).intervals()).containsExactly(Map.entry(0.0, 1.0), Map.entry(1.0, 2.0));
    assertThat(st.cache("n2").isInFlight("g1")).isTrue();
    assertThat(st.fileStats().numCopies("g1")).isEqualTo(1);
    assertThat(st.fileStats().accessFreq("g2")).isEqualTo(1);

    // the driver reports the ends; the files become PRESENT
    s.onTransferEnd("g2", "n2", 1);
    s.onTransferEnd("g1", "n2", 2);
    assertThat(st.cache("n2").isPresent("g1")).isTrue();
    assertThat(s.onTaskCompleted("X", 0, "n2", 0, 0, 0, 3.0)).isEmpty();
    assertThat(st.runningTask("n2")).isNull();
  }

  /**
   * T7 on a scheduler-managed cache: A (64 MiB, freq 3, copies 2), B (4, 5, 1), C (64, 1, 1),
   * D (4, 2, 2); 80 MiB needed with 10 free → evicts D, B, C (free 14, 18, 82) and keeps A.
   */
  @Test
  void t7ValueEvictionAtCommitUsesPoolWideStatistics() {
    long mib = UNIT;
    PoolState pool = new PoolState();
    pool.registerNode("n1", 1, (64 + 4 + 64 + 4 + 10) * mib, null, 0);
    pool.registerNode("n2", 1, BIG, null, 0);
    StagingState st = pool.staging();
    InputFile a = InputFile.of("A", 64 * mib);
    InputFile b = InputFile.of("B", 4 * mib);
    InputFile c = InputFile.of("C", 64 * mib);
    InputFile d = InputFile.of("D", 4 * mib);
    double t = 0;
    for (InputFile u : List.of(a, b, c, d)) {
      st.addInFlight("n1", u, t++);
      st.transferEnded(u.id(), "n1");
    }
    st.addInFlight("n2", a, t); // second copies of A and D live on n2
    st.addInFlight("n2", d, t);
    access(st, "A", 3);
    access(st, "B", 5);
    access(st, "C", 1);
    access(st, "D", 2);
    assertThat(st.cache("n1").capacity() - st.cache("n1").used()).isEqualTo(10 * mib);

    List<String> evicted = st.makeSpace("n1", 80 * mib, f -> false);
    assertThat(evicted).containsExactly("D", "B", "C");
    assertThat(st.cache("n1").files()).containsExactly("A");
    assertThat(st.cache("n1").capacity() - st.cache("n1").used()).isEqualTo(82 * mib);
    assertThat(st.fileStats().numCopies("D")).isEqualTo(1);
    assertThat(st.fileStats().numCopies("C")).isZero();
  }

  private static void access(StagingState st, String f, int n) {
    for (int i = 0; i < n; i++) {
      st.recordAccess(f);
    }
  }

  @Test
  void inFlightAndProtectedFilesAreNeverEvicted() {
    PoolState pool = new PoolState();
    pool.registerNode("n1", 1, 3 * UNIT, null, 0);
    StagingState st = pool.staging();
    st.addInFlight("n1", file("x", 1), 0); // stays in flight
    st.addInFlight("n1", file("y", 1), 0);
    st.transferEnded("y", "n1");
    st.addInFlight("n1", file("z", 1), 0);
    st.transferEnded("z", "n1");
    assertThat(st.makeSpace("n1", 3 * UNIT, f -> f.equals("z"))).containsExactly("y");
    assertThat(st.cache("n1").files()).containsExactlyInAnyOrder("x", "z");
    assertThat(st.cache("n1").used()).isEqualTo(2 * UNIT); // proceeds over capacity (§3.1)
  }

  /**
   * Builds T8's situation at t = 2: n1 holds f1 (PRESENT) and runs a job planned to complete at
   * 3.5 (backlog 1.5, its file p IN_FLIGHT); n2 is empty and idle. Returns the scheduler.
   */
  private Scheduler t8(Policy p) {
    Scheduler s = pool(p, 2);
    Command.Run r1 = run(s.onJobArrival(job("r1", 0, file("f1", 1)), 0), "r1");
    assertThat(r1.node()).isEqualTo("n1"); // all equal: lowest id
    s.onTransferEnd("f1", "n1", 1);
    s.onTaskCompleted("r1", 0, "n1", 0, 0, 0, 1.5);
    Command.Run r2 = run(s.onJobArrival(job("r2", 1.5, file("f1", 1), file("p", 2)), 1.5), "r2");
    assertThat(r2.node()).isEqualTo("n1");
    assertThat(r2.plannedCompletion()).isCloseTo(3.5, within(1e-9));
    return s;
  }

  private static NodeView node(Scheduler s, String id) {
    return s.state().node(id);
  }

  @Test
  void t8MetMapsToTheLeastExecutionTime() {
    Scheduler s = t8(new Met(U));
    StagingState st = s.state().staging();
    Task j = job("j", 2, file("f1", 1), file("f2", 3));
    assertThat(StagingRules.exec(U, j, StagingRules.local(st, node(s, "n1"), false)))
        .isCloseTo(2.0, within(1e-9));
    assertThat(StagingRules.exec(U, j, StagingRules.local(st, node(s, "n2"), false)))
        .isCloseTo(3.0, within(1e-9));
    List<Command> cmds = s.onJobArrival(j, 2);
    assertThat(cmds).isEmpty(); // n1 is busy: j waits in its queue
    assertThat(st.mappedNode("j")).isEqualTo("n1");
    assertThat(st.queue("n1")).extracting(Task::taskId).containsExactly("j");
  }

  @Test
  void t8MctMapsToTheEarliestCompletion() {
    Scheduler s = t8(new Mct(U));
    StagingState st = s.state().staging();
    Task j = job("j", 2, file("f1", 1), file("f2", 3));
    double ct1 = StagingRules.ready(st, U, node(s, "n1"), StagingRules.local(st, node(s, "n1"), true), 2)
        + StagingRules.exec(U, j, StagingRules.local(st, node(s, "n1"), true));
    double ct2 = StagingRules.ready(st, U, node(s, "n2"), StagingRules.local(st, node(s, "n2"), true), 2)
        + StagingRules.exec(U, j, StagingRules.local(st, node(s, "n2"), true));
    assertThat(ct1 - 2).isCloseTo(3.5, within(1e-9));
    assertThat(ct2 - 2).isCloseTo(3.0, within(1e-9));
    assertThat(run(s.onJobArrival(j, 2), "j").node()).isEqualTo("n2");
  }

  @Test
  void t8SaStaysMctThenSwitchesToMetAfterTheNextJob() {
    Scheduler s = t8(new Sa(U, 0.3, 0.7));
    StagingState st = s.state().staging();
    assertThat(Sa.mode(st)).isEqualTo(Sa.MCT);
    Command.Run j = run(s.onJobArrival(job("j", 2, file("f1", 1), file("f2", 3)), 2), "j");
    assertThat(j.node()).isEqualTo("n2");
    assertThat(j.plannedCompletion() - 2).isCloseTo(3.0, within(1e-9)); // backlog of n2
    assertThat(Sa.mode(st)).isEqualTo(Sa.MCT); // ib = 1.5 / 3.0 = 0.5

    assertThat(s.onJobArrival(job("k", 2, file("f3", 4)), 2)).isEmpty();
    assertThat(st.mappedNode("k")).isEqualTo("n1"); // CT 3.0 vs 4.5
    assertThat(Sa.mode(st)).isEqualTo(Sa.MET); // backlogs 3.0 and 3.0: ib = 1.0 ≥ 0.7
  }

  /** T10: the 2nd job starting on k with f triggers one replica to the least-loaded node without f. */
  @Test
  void t10JdpdllReplicatesAtTheThreshold() {
    Scheduler s = pool(new Jdpdll(U, 2), 3);
    StagingState st = s.state().staging();
    List<Command> first = s.onJobArrival(job("a", 0, file("f", 1)), 0);
    assertThat(first).hasSize(1);
    Command.Run a = run(first, "a");
    assertThat(a.node()).isEqualTo("n1");
    assertThat(a.hasPlannedCompletion()).isFalse();
    assertThat(a.inputs()).extracting(InputFetch::source).containsExactly(InputSource.STORAGE);
    assertThat(a.inputs().get(0).reservation()).isNull(); // the FIFO engine schedules it
    assertThat(st.ref("n1", "f")).isEqualTo(1);
    // while n1 is busy a job goes to n2 and keeps it loaded, so the replica must go to n3
    assertThat(run(s.onJobArrival(job("busy", 0.5, file("g", 2)), 0.5), "busy").node())
        .isEqualTo("n2");
    s.onTransferEnd("f", "n1", 1);
    s.onTaskCompleted("a", 0, "n1", 0, 0, 0, 1.5);

    List<Command> second = s.onJobArrival(job("b", 2, file("f", 1)), 2);
    assertThat(second).hasSize(2);
    Command.Run b = (Command.Run) second.get(0);
    assertThat(b.node()).isEqualTo("n1");
    assertThat(b.inputs()).extracting(InputFetch::source).containsExactly(InputSource.LOCAL);
    assertThat(second.get(1)).isEqualTo(
        new Command.Replicate("n3", file("f", 1), InputSource.STORAGE, null, "DLL"));
    assertThat(st.ref("n1", "f")).isZero(); // reset after the trigger
    assertThat(st.cache("n3").isInFlight("f")).isTrue();
    assertThat(st.fileStats().numCopies("f")).isEqualTo(2);
    assertThat(s.state().counters().replicationTransfers).isEqualTo(1);
    assertThat(s.state().counters().stagingTransfers).isEqualTo(2);

    s.onTaskCompleted("b", 0, "n1", 0, 0, 0, 2.5);
    List<Command> third = s.onJobArrival(job("c", 3, file("f", 1)), 3);
    assertThat(third).hasSize(1); // ref back to 1: nothing to replicate
    assertThat(run(third, "c").node()).isEqualTo("n1");
    assertThat(st.ref("n1", "f")).isEqualTo(1);
  }

  /** JobDataPresent ignores in-flight files, then prefers the least-loaded node. */
  @Test
  void jdpdllMapsByPresentDataThenLoad() {
    Scheduler s = pool(new Jdpdll(U, 2), 2);
    StagingState st = s.state().staging();
    run(s.onJobArrival(job("a", 0, file("f", 1)), 0), "a"); // n1, f in flight
    // f is only in flight on n1: both nodes miss it equally; n2 is less loaded
    Command.Run b = run(s.onJobArrival(job("b", 0.5, file("f", 1)), 0.5), "b");
    assertThat(b.node()).isEqualTo("n2");
    s.onTransferEnd("f", "n1", 1);
    assertThat(s.onJobArrival(job("c", 1.2, file("f", 1)), 1.2)).isEmpty();
    assertThat(st.mappedNode("c")).isEqualTo("n1"); // f PRESENT on n1 now, though n1 is busy
  }
}
