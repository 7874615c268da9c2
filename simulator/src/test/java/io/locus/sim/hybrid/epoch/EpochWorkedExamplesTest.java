package io.locus.sim.hybrid.epoch;

import static io.locus.sim.hybrid.WorkedExamples.g1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.core.model.Resource;
import io.locus.core.model.ResourceVector;
import io.locus.workloads.HybridJob;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Hybrid spec §8 in the epoch model: G1 (sort-merge trace and baselines), G2; the §2.3 variants
 * on G1.
 */
class EpochWorkedExamplesTest {
  private static final ResourceVector CAP = ResourceVector.of(100, 100, 100);

  @Test
  void g1GreedySortMergeTrace() {
    EpochSchedule s = new GreedySortMerge().schedule(g1(), CAP);
    assertThat(s.epochs()).containsExactly(
        List.of("J0", "J3"),
        List.of("J2", "J1", "J5"),
        List.of("J4"));
    assertThat(s.ptrAfter().subList(0, 2)).containsExactly(Resource.DISK, Resource.DISK);
    assertThat(s.makespan()).isEqualTo(3);
  }

  @Test
  void g1SortedListsFollowSubmissionOrderOnTies() {
    List<HybridJob> jobs = g1();
    SortedLists l = new SortedLists(jobs, Resource.THESIS_ORDER);
    List<List<String>> lists = new ArrayList<>();
    for (int r = 0; r < 3; r++) {
      List<String> ids = new ArrayList<>();
      SortedLists one = new SortedLists(jobs, List.of(Resource.THESIS_ORDER.get(r)));
      int h;
      while ((h = one.head(0)) >= 0) {
        ids.add(one.job(h).id());
        one.markDone(h);
      }
      lists.add(ids);
    }
    assertThat(l.size()).isEqualTo(3);
    assertThat(lists.get(0)).containsExactly("J0", "J1", "J5", "J3", "J2", "J4");
    assertThat(lists.get(1)).containsExactly("J3", "J5", "J1", "J0", "J2", "J4");
    assertThat(lists.get(2)).containsExactly("J2", "J4", "J3", "J5", "J0", "J1");
  }

  @Test
  void g1Baselines() {
    assertThat(new SingleSorted(Resource.CPU).schedule(g1(), CAP).epochs()).containsExactly(
        List.of("J0"), List.of("J1", "J5"), List.of("J3"), List.of("J2"), List.of("J4"));
    assertThat(new SingleSorted(Resource.DISK).schedule(g1(), CAP).epochs()).containsExactly(
        List.of("J2"), List.of("J4", "J3"), List.of("J5", "J0"), List.of("J1"));
  }

  /** The §2.3 variants on G1, traced by hand. */
  @Test
  void g1Variants() {
    assertThat(new GreedySortMergeBackfill().schedule(g1(), CAP).epochs()).containsExactly(
        List.of("J0", "J3", "J4"), List.of("J1", "J5", "J2"));
    assertThat(new SingleSortedBackfill(Resource.CPU).schedule(g1(), CAP).epochs())
        .containsExactly(List.of("J0", "J5", "J4"), List.of("J1", "J3"), List.of("J2"));
    assertThat(new SingleSortedBackfill(Resource.DISK).schedule(g1(), CAP).epochs())
        .containsExactly(List.of("J2", "J5", "J1"), List.of("J4", "J3", "J0"));
    assertThat(new FifoHead().schedule(g1(), CAP).epochs()).containsExactly(
        List.of("J0"), List.of("J1", "J2"), List.of("J3", "J4"), List.of("J5"));
    assertThat(EpochSchedulers.lowerBound(g1(), CAP)).isEqualTo(2);
  }

  @Test
  void g2TheBoundaryFits() {
    ResourceVector cpu = ResourceVector.of(100, 0, 0);
    ResourceVector disk = ResourceVector.of(0, 0, 100);
    List<HybridJob> two = List.of(HybridJob.of("a", 0, cpu), HybridJob.of("b", 1, disk));
    assertThat(new GreedySortMerge().schedule(two, CAP).epochs())
        .containsExactly(List.of("a", "b"));
    assertThat(new SingleSorted(Resource.CPU).schedule(two, CAP).makespan()).isEqualTo(1);
    // what is left is ⟨0, 100, 0⟩: a pure-memory job of 100 still fits, 1 % of CPU does not
    ResourceVector left = CAP.minus(cpu).minus(disk);
    assertThat(left).isEqualTo(ResourceVector.of(0, 100, 0));
    assertThat(ResourceVector.of(0, 100, 0).fitsIn(left)).isTrue();
    assertThat(ResourceVector.of(1, 0, 0).fitsIn(left)).isFalse();
    List<HybridJob> three = List.of(two.get(0), two.get(1),
        HybridJob.of("c", 2, ResourceVector.of(0, 100, 0)));
    assertThat(new GreedySortMerge().schedule(three, CAP).makespan()).isEqualTo(1);
  }

  @Test
  void aJobLargerThanTheCapacityIsRejected() {
    List<HybridJob> jobs = List.of(HybridJob.of("big", 0, ResourceVector.of(101, 0, 0)));
    for (String name : EpochSchedulers.names()) {
      assertThatThrownBy(() -> EpochSchedulers.create(name).schedule(jobs, CAP))
          .as(name).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("larger than the capacity");
    }
    assertThatThrownBy(() -> EpochSchedulers.create("nope"))
        .hasMessageContaining("GREEDY_SORT_MERGE");
  }

  @Test
  void idealMixPairsOneCpuWithOneDiskJobPerEpoch() {
    List<HybridJob> jobs = new ArrayList<>();
    SplittableRandom rnd = new SplittableRandom(3);
    List<Integer> kinds = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      kinds.add(i < 50 ? 0 : 1);
    }
    Collections.shuffle(kinds, new java.util.Random(rnd.nextLong()));
    for (int i = 0; i < kinds.size(); i++) {
      jobs.add(HybridJob.of("j" + i, i, kinds.get(i) == 0
          ? ResourceVector.of(100, 0, 0) : ResourceVector.of(0, 0, 100)));
    }
    assertThat(new GreedySortMerge().schedule(jobs, CAP).makespan()).isEqualTo(50);
    // one list holds all of one class first: one job per epoch, except that the last job of the
    // first class shares its epoch with the first job of the other: 50 + 49
    assertThat(new SingleSorted(Resource.CPU).schedule(jobs, CAP).makespan()).isEqualTo(99);
    assertThat(new SingleSorted(Resource.DISK).schedule(jobs, CAP).makespan()).isEqualTo(99);
  }

  /** Every scheduler: every job exactly once, no epoch over capacity, same output for the same input. */
  @Test
  void schedulesAreFeasibleCompleteAndDeterministic() {
    SplittableRandom rnd = new SplittableRandom(11);
    List<HybridJob> jobs = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      jobs.add(HybridJob.of("r" + i, i, ResourceVector.of(100 * rnd.nextDouble(),
          100 * rnd.nextDouble(), 100 * rnd.nextDouble())));
    }
    List<HybridJob> shuffled = new ArrayList<>(jobs);
    Collections.shuffle(shuffled, new java.util.Random(5));
    int bound = EpochSchedulers.lowerBound(jobs, CAP);
    for (String name : EpochSchedulers.names()) {
      EpochSchedule s = EpochSchedulers.create(name).schedule(jobs, CAP);
      assertThat(EpochSchedulers.create(name).schedule(jobs, CAP)).as(name).isEqualTo(s);
      assertThat(EpochSchedulers.create(name).schedule(shuffled, CAP)).as(name).isEqualTo(s);
      List<String> all = new ArrayList<>();
      for (List<String> epoch : s.epochs()) {
        assertThat(epoch).as(name).isNotEmpty();
        ResourceVector sum = ResourceVector.ZERO;
        for (String id : epoch) {
          sum = sum.plus(jobs.get(Integer.parseInt(id.substring(1))).demand());
        }
        assertThat(sum.fitsIn(CAP)).as(name).isTrue();
        all.addAll(epoch);
      }
      assertThat(all).as(name).hasSize(300).doesNotHaveDuplicates();
      assertThat(s.makespan()).as(name).isGreaterThanOrEqualTo(bound);
    }
  }
}
