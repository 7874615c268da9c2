package io.locus.sim.hybrid.cluster;

import static io.locus.sim.hybrid.WorkedExamples.g1;
import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.model.Resource;
import io.locus.core.model.ResourceVector;
import io.locus.workloads.HybridJob;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Hybrid spec §2.4 (online form), §2.5 (node choice) and D14 (aging). */
class GreedySortMergeOnlineTest {
  private static List<String> ids(List<OnlineScheduler.Start> starts) {
    return starts.stream().map(s -> s.job().id() + "@" + s.node()).toList();
  }

  /**
   * With one aggregate bin of ⟨100, 100, 100⟩ and every job ending together, the online form makes
   * the epochs of G1: same sets, same pointer.
   */
  @Test
  void onTheAggregateBinTheOnlineFormReplaysG1() {
    HybridCluster bin = new HybridCluster(List.of("bin"), ResourceVector.uniform(100),
        ResourceVector.uniform(1));
    OnlineGreedySortMerge gsm = new OnlineGreedySortMerge(Resource.THESIS_ORDER,
        NodeChoice.COMPLEMENTARY, Double.POSITIVE_INFINITY);
    for (HybridJob j : g1()) {
      gsm.arrive(j);
    }
    List<List<String>> epochs = new ArrayList<>();
    List<Resource> ptrs = new ArrayList<>();
    double t = 0;
    while (gsm.waiting() > 0) {
      List<OnlineScheduler.Start> starts = gsm.dispatch(bin, t);
      epochs.add(starts.stream().map(s -> s.job().id()).toList());
      ptrs.add(gsm.pointer());
      t += 600;
      for (OnlineScheduler.Start s : starts) {
        bin.finish(s.job().id());
      }
    }
    assertThat(epochs).containsExactly(List.of("J0", "J3"), List.of("J2", "J1", "J5"),
        List.of("J4"));
    assertThat(ptrs.subList(0, 2)).containsExactly(Resource.DISK, Resource.DISK);
  }

  /** §2.5 with G4's loads: a disk job goes to the CPU-loaded node and a CPU job to the other. */
  @Test
  void theNodeChoiceIsComplementary() {
    HybridCluster c = new HybridCluster(2, ResourceVector.uniform(1), ResourceVector.uniform(0.9));
    c.start("cpuLoad", "n0", new ResourceVector(0.4, 0, 0, 0));
    c.start("diskLoad", "n1", new ResourceVector(0, 0, 0.4, 0));
    assertThat(NodeChoice.COMPLEMENTARY.choose(c, new ResourceVector(0, 0, 0.3, 0)).id())
        .isEqualTo("n0");
    assertThat(NodeChoice.COMPLEMENTARY.choose(c, new ResourceVector(0.3, 0, 0, 0)).id())
        .isEqualTo("n1");
    assertThat(NodeChoice.LOWEST_ID.choose(c, new ResourceVector(0.3, 0, 0, 0)).id())
        .isEqualTo("n0");
    // fits nowhere: 0.4 + 0.6 > 0.9 in the loaded dimension of either node
    assertThat(NodeChoice.COMPLEMENTARY.choose(c, new ResourceVector(0.6, 0, 0.6, 0))).isNull();
  }

  @Test
  void tiesGoToTheSmallerPeakThenTheLowestId() {
    HybridCluster c = new HybridCluster(List.of("n10", "n2", "n1"), ResourceVector.uniform(1),
        ResourceVector.uniform(1));
    // n1 and n2 both carry memory only: comp with a CPU job is 1 on both, n10 is empty (comp 1)
    c.start("m1", "n1", new ResourceVector(0, 0.5, 0, 0));
    c.start("m2", "n2", new ResourceVector(0, 0.2, 0, 0));
    ResourceVector cpu = new ResourceVector(0.6, 0, 0, 0);
    // peaks: n1 0.6, n2 0.6, n10 0.6 → lowest id n1 (natural id order)
    assertThat(NodeChoice.COMPLEMENTARY.choose(c, cpu).id()).isEqualTo("n1");
    // a CPU job of 0.3: peaks n1 0.5, n2 0.3, n10 0.3 → n2 beats n1 on the peak, n2 < n10 on id
    assertThat(NodeChoice.COMPLEMENTARY.choose(c, new ResourceVector(0.3, 0, 0, 0)).id())
        .isEqualTo("n2");
  }

  @Test
  void coldStartJobsRunAloneOnIdleNodes() {
    HybridCluster c = new HybridCluster(2, ResourceVector.uniform(1), ResourceVector.uniform(0.9));
    ResourceVector cold = ResourceVector.coldStart(0.1);
    assertThat(c.node("n0").fits(cold)).isTrue();
    c.start("x", "n0", cold);
    assertThat(c.node("n0").fits(new ResourceVector(0.01, 0, 0, 0))).isFalse();
    assertThat(NodeChoice.COMPLEMENTARY.choose(c, cold).id()).isEqualTo("n1");
    assertThat(c.node("n1").fits(ResourceVector.coldStart(1.2))).isFalse(); // memory is hard
  }

  /** D14: a job waiting more than 10 min heads every list, so it blocks jobs that would fit. */
  @Test
  void agingPutsTheOldestJobAtTheHeadOfEveryList() {
    for (double now : new double[] {150, 700}) {
      HybridCluster c = new HybridCluster(1, ResourceVector.uniform(1), ResourceVector.uniform(1));
      c.start("running", "n0", new ResourceVector(0.6, 0, 0, 0));
      OnlineGreedySortMerge gsm = new OnlineGreedySortMerge();
      gsm.arrive(new HybridJob("x", 0, new ResourceVector(0.5, 0, 0, 0), 0, 10));
      gsm.arrive(new HybridJob("y", 1, new ResourceVector(0, 0, 0.3, 0), 120, 10));
      List<String> started = ids(gsm.dispatch(c, now));
      if (now < 600) {
        assertThat(started).as("x misses at the CPU head, y hits at the DISK head")
            .containsExactly("y@n0");
      } else {
        assertThat(started).as("x aged: it heads every list and misses all four").isEmpty();
        assertThat(gsm.waiting()).isEqualTo(2);
      }
    }
  }

  @Test
  void fifoHeadBlocksAndFirstFitScans() {
    HybridCluster c1 = new HybridCluster(1, ResourceVector.uniform(1), ResourceVector.uniform(1));
    c1.start("running", "n0", new ResourceVector(0.6, 0, 0, 0));
    OnlineScheduler fifo = new OnlineFifoHead(NodeChoice.COMPLEMENTARY);
    OnlineScheduler ff = new OnlineFirstFit();
    for (OnlineScheduler s : List.of(fifo, ff)) {
      s.arrive(new HybridJob("x", 0, new ResourceVector(0.5, 0, 0, 0), 0, 10));
      s.arrive(new HybridJob("y", 1, new ResourceVector(0, 0, 0.3, 0), 0, 10));
    }
    assertThat(fifo.dispatch(c1, 0)).isEmpty();
    HybridCluster c2 = new HybridCluster(1, ResourceVector.uniform(1), ResourceVector.uniform(1));
    c2.start("running", "n0", new ResourceVector(0.6, 0, 0, 0));
    assertThat(ids(ff.dispatch(c2, 0))).containsExactly("y@n0");
  }

  /** Same arrivals, same decisions; every start fits its node when it starts. */
  @Test
  void onlineRunsAreDeterministicAndFeasible() {
    List<List<String>> runs = new ArrayList<>();
    for (int rep = 0; rep < 2; rep++) {
      SplittableRandom rnd = new SplittableRandom(9);
      HybridCluster c = new HybridCluster(4, ResourceVector.uniform(1),
          ResourceVector.uniform(0.9));
      OnlineGreedySortMerge gsm = new OnlineGreedySortMerge();
      List<String> log = new ArrayList<>();
      List<String> running = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        gsm.arrive(new HybridJob("j" + i, i, new ResourceVector(0.8 * rnd.nextDouble(),
            0.2 * rnd.nextDouble(), 0.8 * rnd.nextDouble(), 0), i, 10));
        if (i % 3 == 0 && !running.isEmpty()) {
          c.finish(running.remove(0));
        }
        for (OnlineScheduler.Start s : gsm.dispatch(c, i)) {
          log.add(s.job().id() + "@" + s.node());
          running.add(s.job().id());
        }
        for (HybridCluster.Node n : c.nodes()) {
          assertThat(n.load().fitsIn(ResourceVector.uniform(0.9)) || n.jobs() == 1)
              .as(n.id() + " " + n.load()).isTrue();
        }
      }
      runs.add(log);
    }
    assertThat(runs.get(0)).hasSizeGreaterThan(50).isEqualTo(runs.get(1));
  }
}
