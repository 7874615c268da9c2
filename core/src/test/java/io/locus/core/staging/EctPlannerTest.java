package io.locus.core.staging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Hypergraph spec §8, setting U: 1 unit = 1 MiB, transfer 1 s, read 0.3 s, compute 0.2 s per file. */
class EctPlannerTest {
  static final long UNIT = 1L << 20;
  static final CostModel U = new CostModel(1, 1 / 0.3, 0.2, 4);

  private final Map<Integer, GanttChart> charts = new HashMap<>();
  private final EctPlanner planner = new EctPlanner(U);

  static InputFile file(String id, int storage) {
    return new InputFile(id, UNIT, 0, "SN" + storage, null);
  }

  static Task job(String id, InputFile... files) {
    return Task.of(id, 1, 0, 0, files);
  }

  private Ect ect(Task j, Set<String> local) {
    return planner.ect(j, 0, local::contains, s -> charts.computeIfAbsent(s, x -> new GanttChart()));
  }

  /** T1: two files on storage nodes 1 and 3 → 3.0 (ingress serialised, not 2.0). */
  @Test
  void t1TwoFilesOnDistinctStorageNodes() {
    Ect e = ect(job("4", file("a", 1), file("b", 3)), Set.of());
    assertThat(e.completion()).isCloseTo(3.0, within(1e-9));
    assertThat(e.plan()).extracting(PlannedTransfer::start).containsExactly(0.0, 1.0);
  }

  /** T1: three files on three storage nodes → 4.5 = 3 + 0.9 + 0.6. */
  @Test
  void t1ThreeFilesOnThreeStorageNodes() {
    Ect e = ect(job("5", file("a", 1), file("b", 2), file("c", 3)), Set.of());
    assertThat(e.completion()).isCloseTo(4.5, within(1e-9));
    assertThat(e.readStart()).isCloseTo(3.0, within(1e-9));
  }

  /** T2: [0,1) taken on SN1 → g2 goes first at [0,1), g1 at [1,2); ECT 3.0. */
  @Test
  void t2MinTctOrderUnderContention() {
    charts.computeIfAbsent(1, s -> new GanttChart()).reserve(0, 1);
    InputFile g1 = file("g1", 1);
    InputFile g2 = file("g2", 2);
    Ect e = ect(job("X", g1, g2), Set.of());
    assertThat(e.plan()).containsExactly(
        new PlannedTransfer(g2, 2, 0, 1), new PlannedTransfer(g1, 1, 1, 2));
    assertThat(e.completion()).isCloseTo(3.0, within(1e-9));
    assertThat(charts.get(1).size()).isEqualTo(1); // evaluating reserves nothing
  }

  /** T3: one of three files cached → 2 + 0.9 + 0.6 = 3.5. */
  @Test
  void t3OneOfThreeFilesCached() {
    Ect e = ect(job("Y", file("a", 1), file("b", 2), file("c", 3)), Set.of("b"));
    assertThat(e.completion()).isCloseTo(3.5, within(1e-9));
    assertThat(e.plan()).extracting(p -> p.unit().id()).containsExactly("a", "c");
  }

  @Test
  void allLocalMeansNoStaging() {
    Ect e = planner.ect(job("Z", file("a", 1)), 7, f -> true, s -> null);
    assertThat(e.plan()).isEmpty();
    assertThat(e.start(7)).isEqualTo(7.0);
    assertThat(e.completion()).isCloseTo(7.5, within(1e-9));
  }

  /** Two files on the same storage node: the second waits for the first (and for the ingress). */
  @Test
  void sameStorageNodeIsSerialisedAndTiesGoToTheLowerFileId() {
    Ect e = ect(job("W", file("f10", 2), file("f9", 2)), Set.of());
    assertThat(e.plan()).extracting(p -> p.unit().id()).containsExactly("f9", "f10");
    assertThat(e.plan()).extracting(PlannedTransfer::end).containsExactly(1.0, 2.0);
  }

  /** A gap in a chart is used when it fits after the ingress cursor (first fit, D9). */
  @Test
  void gapsAreUsed() {
    GanttChart sn1 = charts.computeIfAbsent(1, s -> new GanttChart());
    sn1.reserve(0, 0.5);
    sn1.reserve(2.5, 4);
    Ect e = ect(job("V", file("a", 1), file("b", 1)), Set.of());
    assertThat(e.plan()).extracting(PlannedTransfer::start).containsExactly(0.5, 1.5);
    assertThat(e.completion()).isCloseTo(2.5 + 1.0, within(1e-9));
    List<PlannedTransfer> plan = e.plan();
    assertThat(plan.get(1).end()).isEqualTo(2.5);
  }
}
