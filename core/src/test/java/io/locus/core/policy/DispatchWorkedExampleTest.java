package io.locus.core.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.Scheduler;
import io.locus.core.model.Command;
import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import io.locus.core.state.PoolState;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Data-diffusion spec §8, example E3: one setup, the decisions of MCU, MCH and GCC (θ = 0.5). */
class DispatchWorkedExampleTest {
  private static final long MB10 = 10_000_000L;

  /** e1 free (2 slots, caches a), e2 busy (2/2, caches b, c), e3 free (1 slot), free pool [e3, e1]. */
  private static PoolState setup() {
    PoolState s = new PoolState();
    s.registerNode("e2", 2, 100 * MB10, null, 0);
    s.registerNode("e3", 1, 100 * MB10, null, 0);
    s.registerNode("e1", 2, 100 * MB10, null, 0);
    // keep e2 busy with two running tasks that are not part of the example's queue
    for (int i = 0; i < 2; i++) {
      Task busy = Task.of("busy" + i, 100 + i, 0, 1.0, InputFile.of("z" + i, 1));
      s.enqueue(busy);
      s.assign(busy, "e2", s.plan(busy, s.node("e2"), true), "d" + i, 0);
    }
    s.applyCacheDelta("e1", 1, Map.of("a", MB10), List.of());
    s.applyCacheDelta("e2", 1, Map.of("b", MB10, "c", MB10), List.of());
    s.enqueue(Task.of("t1", 1, 0, 0.01, InputFile.of("b", MB10)));
    s.enqueue(Task.of("t2", 2, 0, 0.01, InputFile.of("a", MB10)));
    s.enqueue(Task.of("t3", 3, 0, 0.01, InputFile.of("c", MB10)));
    s.enqueue(Task.of("t4", 4, 0, 0.01, InputFile.of("d", MB10)));
    assertThat(s.freePool()).extracting(n -> n.id()).containsExactly("e3", "e1");
    assertThat(s.registeredSlots()).isEqualTo(5);
    return s;
  }

  private static List<String> placements(List<Command> cmds) {
    return cmds.stream()
        .map(c -> (Command.Run) c)
        .map(r -> r.node() + "<-" + r.task().taskId())
        .toList();
  }

  @Test
  void mcuFillsEveryFreeSlotPreferringLocalData() {
    PoolState s = setup();
    List<Command> cmds = new Scheduler("p", s, new MaxComputeUtil(10)).dispatch(1.0);
    assertThat(placements(cmds)).containsExactly("e3<-t1", "e1<-t2", "e1<-t3");
    assertThat(s.queue()).extracting(Task::taskId).containsExactly("t4");
  }

  @Test
  void mchDefersTasksWhoseBestHolderIsBusy() {
    PoolState s = setup();
    List<Command> cmds = new Scheduler("p", s, new MaxCacheHit(10)).dispatch(1.0);
    assertThat(placements(cmds)).containsExactly("e1<-t2", "e1<-t4");
    assertThat(s.queue()).extracting(Task::taskId).containsExactly("t1", "t3");
    assertThat(s.firstFree().id()).isEqualTo("e3"); // e3 stays idle
  }

  @Test
  void gccSwitchesFromMcuToMchAtTheThreshold() {
    PoolState s = setup();
    List<Command> cmds = new Scheduler("p", s, new GoodCacheCompute(10, 0.5)).dispatch(1.0);
    assertThat(placements(cmds)).containsExactly("e3<-t1", "e1<-t2", "e1<-t4");
    assertThat(cmds).extracting(c -> ((Command.Run) c).reason().policy())
        .containsExactly("GCC/MCU", "GCC/MCH", "GCC/MCH");
    assertThat(s.queue()).extracting(Task::taskId).containsExactly("t3");
  }

  @Test
  void reasonsCarryTheByteSplit() {
    PoolState s = setup();
    List<Command> cmds = new Scheduler("p", s, new MaxComputeUtil(10)).dispatch(1.0);
    Command.Run t1 = (Command.Run) cmds.get(0);
    // t1 reads b, which only busy e2 caches: a peer read
    assertThat(t1.reason().peerBytes()).isEqualTo(MB10);
    assertThat(t1.inputs().get(0).peer()).isEqualTo("e2");
    Command.Run t2 = (Command.Run) cmds.get(1);
    assertThat(t2.reason().localBytes()).isEqualTo(MB10);
    assertThat(t2.reason().score()).isEqualTo(1.0);
  }

  @Test
  void faReadsEverythingFromStorageInQueueOrder() {
    PoolState s = setup();
    List<Command> cmds = new Scheduler("p", s, new FirstAvailable()).dispatch(1.0);
    assertThat(placements(cmds)).containsExactly("e3<-t1", "e1<-t2", "e1<-t3");
    assertThat(cmds).allSatisfy(c -> assertThat(((Command.Run) c).inputs())
        .allSatisfy(f -> {
          assertThat(f.source().name()).isEqualTo("STORAGE");
          assertThat(f.cache()).isFalse();
        }));
  }

  @Test
  void fcaPlacesLikeFaButUsesCachesAndPeers() {
    PoolState s = setup();
    List<Command> cmds = new Scheduler("p", s, new FirstCacheAvailable()).dispatch(1.0);
    assertThat(placements(cmds)).containsExactly("e3<-t1", "e1<-t2", "e1<-t3");
    assertThat(((Command.Run) cmds.get(1)).reason().localBytes()).isEqualTo(MB10);
    assertThat(((Command.Run) cmds.get(2)).inputs().get(0).peer()).isEqualTo("e2");
  }
}
