package io.locus.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.core.model.Command;
import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import io.locus.core.policy.Policies;
import io.locus.core.state.PoolState;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The facade every driver changes a pool's state through (the operator and the simulator). */
class SchedulerFacadeTest {
  private static Scheduler scheduler(String policy) {
    return new Scheduler("p", new PoolState(), Policies.create(policy, Map.of()));
  }

  private static Task task(String id, long seq, String file) {
    return Task.of(id, seq, 0, 1.0, InputFile.of(file, 100));
  }

  private static List<String> placedOn(List<Command> cmds) {
    return cmds.stream().filter(c -> c instanceof Command.Run).map(c -> ((Command.Run) c).node())
        .toList();
  }

  @Test
  void aCacheDeltaIsAppliedOnceAndMovesTheDataAwarePlacement() {
    Scheduler s = scheduler("MCH");
    s.applyNodeRegistered("n1", 1, 1_000, null, 0);
    s.applyNodeRegistered("n2", 1, 1_000, null, 0);
    assertThat(s.applyCacheDelta("n2", 1, Map.of("f", 100L), List.of())).isTrue();
    // A duplicate (same sequence number) changes nothing.
    assertThat(s.applyCacheDelta("n2", 1, Map.of(), List.of("f"))).isFalse();
    assertThat(s.state().holders("f")).isEqualTo(Set.of("n2"));
    // An unknown node's delta is not applied.
    assertThat(s.applyCacheDelta("n9", 1, Map.of("f", 100L), List.of())).isFalse();
    s.applyJobArrival(task("t", 1, "f"));
    assertThat(placedOn(s.dispatch(1))).containsExactly("n2");
  }

  @Test
  void aDrainedNodeTakesNoWorkUntilItResumes() {
    Scheduler s = scheduler("FA");
    s.applyNodeRegistered("n1", 1, 1_000, null, 0);
    s.applyDrain("n1", true);
    s.applyJobArrival(task("t", 1, "f"));
    assertThat(s.dispatch(1)).isEmpty();
    s.applyDrain("n1", false);
    assertThat(placedOn(s.dispatch(2))).containsExactly("n1");
  }

  @Test
  void aNodeThatLeavesGivesItsRunningTaskBackAndItsCacheLeavesTheIndex() {
    Scheduler s = scheduler("FA");
    s.applyNodeRegistered("n1", 1, 1_000, null, 0);
    s.applyCacheSnapshot("n1", 1, Map.of("f", 100L));
    s.applyJobArrival(task("t", 1, "f"));
    assertThat(placedOn(s.dispatch(1))).containsExactly("n1");
    assertThat(s.applyNodeReleased("n1")).extracting(Task::taskId).containsExactly("t");
    assertThat(s.state().holders("f")).isEmpty();
    assertThat(s.state().queueLength()).isEqualTo(1);
  }

  @Test
  void aRegistryKeepsNodesButNeverDispatches() {
    Scheduler r = Scheduler.registry("p", new PoolState());
    r.applyNodeRegistered("n1", 2, 1_000, "http://n1", 0);
    assertThat(r.state().node("n1").slots()).isEqualTo(2);
    assertThatThrownBy(() -> r.dispatch(0)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("no file policy");
  }
}
