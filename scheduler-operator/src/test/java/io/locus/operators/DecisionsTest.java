package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.Decision;
import io.locus.schemas.EvictFiles;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.PlacementReason;
import io.locus.schemas.state.PoolMeta;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every decision is built by {@link Decisions}: ids, epoch and clock as the agents expect. */
class DecisionsTest {
  private static PoolMeta meta() {
    return PoolMeta.newBuilder().setEpoch(4).setNextSeq(1).setPolicy("FA").setClockMs(9_000)
        .setDecisionSeq(41).build();
  }

  @Test
  void aPlacementIsNamedByItsTaskAndAttemptAndCarriesEpochAndClock() {
    PoolMeta m = meta();
    PlaceTask p = PlaceTask.newBuilder().setTaskId("job-1/3").setJobId("job-1").setAttempt(2)
        .setInputs(List.of()).setComputeSeconds(1).setSubmitTimeMs(0)
        .setReason(PlacementReason.newBuilder().setPolicy("FA").setScore(0).setLocalBytes(0)
            .setPeerBytes(0).setStorageBytes(0).build())
        .build();
    Decision d = Decisions.placement("pool-a", m, "n3", p);
    assertThat(d.getDecisionId()).isEqualTo("pool-a/job-1/3/2")
        .isEqualTo(Decisions.placementId("pool-a", "job-1/3", 2));
    assertThat(d.getEpoch()).isEqualTo(4);
    assertThat(d.getTimeMs()).isEqualTo(9_000);
    assertThat(d.getNode()).isEqualTo("n3");
    assertThat(m.getDecisionSeq()).isEqualTo(41); // placements do not use the sequence
  }

  @Test
  void otherDecisionsTakeTheNextNumberOfThePoolSequence() {
    PoolMeta m = meta();
    EvictFiles ev = EvictFiles.newBuilder().setFiles(List.of("f")).setReason("r").build();
    Decision a = Decisions.sequenced("pool-a", m, "evict", "n1", ev);
    Decision b = Decisions.sequenced("pool-a", m, "shrink", "n2", ev);
    assertThat(a.getDecisionId()).isEqualTo("pool-a/evict/42");
    assertThat(b.getDecisionId()).isEqualTo("pool-a/shrink/43");
    assertThat(m.getDecisionSeq()).isEqualTo(43);
  }
}
