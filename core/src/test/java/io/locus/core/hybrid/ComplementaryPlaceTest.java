package io.locus.core.hybrid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.core.Scheduler;
import io.locus.core.model.Command;
import io.locus.core.model.InputFile;
import io.locus.core.model.ResourceVector;
import io.locus.core.model.Task;
import io.locus.core.policy.Policies;
import io.locus.core.policy.Policy;
import io.locus.core.state.PoolState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Hybrid spec §2.6 on small hand-built pools. */
class ComplementaryPlaceTest {
  private static final long MB = 1_000_000L;
  private static final ResourceVector CPU_HEAVY = ResourceVector.of(0.4, 0, 0.05);
  private static final ResourceVector IO_HEAVY = ResourceVector.of(0.05, 0, 0.4);

  private static Task task(String id, long seq, double submit, ResourceVector p,
      InputFile... inputs) {
    return Task.of(id, seq, submit, 1.0, inputs).withProfile(p);
  }

  /** Two 4-slot nodes: n1 runs a CPU-heavy task, n2 an I/O-heavy one. */
  private static PoolState loaded() {
    PoolState s = new PoolState();
    s.registerNode("n1", 4, 1000 * MB, null, 0);
    s.registerNode("n2", 4, 1000 * MB, null, 0);
    run(s, task("cpu0", 100, 0, CPU_HEAVY), "n1");
    run(s, task("io0", 101, 0, IO_HEAVY), "n2");
    return s;
  }

  private static void run(PoolState s, Task t, String node) {
    s.enqueue(t);
    s.assign(t, node, s.plan(t, s.node(node), true), "d-" + t.taskId(), 0);
  }

  private static List<String> placements(List<Command> cmds) {
    return cmds.stream().filter(c -> c instanceof Command.Run).map(c -> (Command.Run) c)
        .map(r -> r.task().taskId() + "@" + r.node()).toList();
  }

  private static Policy policy(Map<String, String> params) {
    return Policies.create("complementary_place", params);
  }

  @Test
  void aCpuHeavyTaskGoesToTheIoLoadedNodeAndViceVersa() {
    PoolState s = loaded();
    s.enqueue(task("c", 1, 0, CPU_HEAVY));
    s.enqueue(task("i", 2, 0, IO_HEAVY));
    List<Command> cmds = new Scheduler("p", s, policy(Map.of())).dispatch(0.5);
    assertThat(placements(cmds)).containsExactlyInAnyOrder("c@n2", "i@n1");
    assertThat(((Command.Run) cmds.get(0)).reason().policy()).isEqualTo("COMPLEMENTARY_PLACE");
  }

  /** c's input is on n1 (CPU-loaded): with w_loc 1 locality wins, with w_loc 0.1 comp does. */
  @Test
  void localityWinsWhenItsWeightDominates() {
    for (String wLoc : List.of("1.0", "0.1")) {
      PoolState s = loaded();
      s.applyCacheDelta("n1", 1, Map.of("f", 10 * MB), List.of());
      s.enqueue(task("c", 1, 0, CPU_HEAVY, InputFile.of("f", 10 * MB)));
      // D_node = D_rack = 0: no delay filter, only the score decides
      Policy p = policy(Map.of("w_loc", wLoc, "D_node", "0", "D_rack", "0"));
      List<Command> cmds = new Scheduler("p", s, p).dispatch(0.5);
      assertThat(placements(cmds)).as("w_loc " + wLoc)
          .containsExactly(wLoc.equals("1.0") ? "c@n1" : "c@n2");
    }
  }

  /** Scores by hand: n1 = w_loc·1 + 0 − 0.25·0.8; n2 = 0 + 0.5·comp − 0.25·0.45. */
  @Test
  void theScoreIsTheSpecsFormula() {
    ComplementaryPlace cp = ComplementaryPlace.defaults();
    double comp = ResourceVector.comp(IO_HEAVY, CPU_HEAVY);
    assertThat(cp.score(CPU_HEAVY, CPU_HEAVY, 1.0)).isEqualTo(1.0 - 0.25 * 0.8);
    assertThat(cp.score(IO_HEAVY, CPU_HEAVY, 0.0)).isEqualTo(0.5 * comp - 0.25 * 0.45);
    // soft anti-affinity: parallel demands above 0.5 on a shared resource cost another w_comp
    ResourceVector big = ResourceVector.of(0.55, 0, 0);
    assertThat(cp.score(big, big, 0.0)).isEqualTo(0.5 * 0 - 0.25 * 1.1 - 0.5);
  }

  @Test
  void theHeadroomIsAHardLimit() {
    PoolState s = new PoolState();
    s.registerNode("n1", 4, 1000 * MB, null, 0);
    run(s, task("a", 100, 0, ResourceVector.of(0.6, 0.1, 0)), "n1");
    s.enqueue(task("b", 1, 0, ResourceVector.of(0.35, 0.1, 0)));
    assertThat(new Scheduler("p", s, policy(Map.of())).dispatch(1)).isEmpty();
    assertThat(new Scheduler("p", s, policy(Map.of("h", "1.0"))).dispatch(1)).hasSize(1);
  }

  /** Cold start (§2.8): tasks without a profile run alone, so the third waits for an idle node. */
  @Test
  void tasksWithoutAProfileRunAlone() {
    PoolState s = new PoolState();
    s.registerNode("n1", 2, 1000 * MB, null, 0);
    s.registerNode("n2", 2, 1000 * MB, null, 0);
    for (int i = 0; i < 3; i++) {
      s.enqueue(Task.of("t" + i, i, 0, 1.0));
    }
    Scheduler sch = new Scheduler("p", s, policy(Map.of()));
    assertThat(placements(sch.dispatch(0))).containsExactly("t0@n1", "t1@n2");
    assertThat(s.queueLength()).isEqualTo(1);
    sch.applyTaskCompleted("t1", 0, "n2", 0, 0, 0);
    assertThat(placements(sch.dispatch(1))).containsExactly("t2@n2");
  }

  /**
   * Delay levels: x reads two 10 MB files; n1 holds both but has no free slot, n2 holds one (loc
   * 0.5), n3 none. Before D_node x waits for n1; from D_node n2 qualifies; from D_rack anything.
   */
  @Test
  void localityLevelsRelaxWithTheWaitingTime() {
    Map<Double, String> expected = new java.util.LinkedHashMap<>();
    expected.put(1.0, null);
    expected.put(4.0, "x@n2");
    expected.put(7.0, "x@n3");
    for (Map.Entry<Double, String> e : expected.entrySet()) {
      PoolState s = new PoolState();
      s.registerNode("n1", 1, 1000 * MB, null, 0);
      s.registerNode("n2", 2, 1000 * MB, null, 0);
      s.registerNode("n3", 1, 1000 * MB, null, 0);
      s.applyCacheDelta("n1", 1, Map.of("a", 10 * MB, "b", 10 * MB), List.of());
      s.applyCacheDelta("n2", 1, Map.of("a", 10 * MB), List.of());
      run(s, task("busy", 100, 0, ResourceVector.of(0.1, 0, 0)), "n1");
      // n2 (2 slots) half loaded, so the score prefers the empty n3 once locality stops filtering
      run(s, task("io", 101, 0, ResourceVector.of(0.3, 0, 0.3)), "n2");
      s.enqueue(task("x", 1, 0, ResourceVector.of(0.3, 0, 0.3), InputFile.of("a", 10 * MB),
          InputFile.of("b", 10 * MB)));
      Policy p = policy(Map.of("w_loc", "0.1"));
      List<String> placed = placements(new Scheduler("p", s, p).dispatch(e.getKey())).stream()
          .filter(x -> x.startsWith("x@")).toList();
      if (e.getValue() == null) {
        assertThat(placed).as("t = " + e.getKey()).isEmpty();
      } else {
        assertThat(placed).as("t = " + e.getKey()).containsExactly(e.getValue());
      }
    }
  }

  /** Capped (default) places a task whose data nobody holds at once; strict waits D_rack. */
  @Test
  void cappedAndStrictDelay() {
    for (String delay : List.of("capped", "strict")) {
      for (double now : new double[] {0.5, 6.0}) {
        PoolState s = new PoolState();
        s.registerNode("n1", 2, 1000 * MB, null, 0);
        s.enqueue(task("x", 1, 0, CPU_HEAVY, InputFile.of("cold", 10 * MB)));
        List<Command> cmds = new Scheduler("p", s, policy(Map.of("delay", delay))).dispatch(now);
        boolean placed = !cmds.isEmpty();
        assertThat(placed).as(delay + " at " + now).isEqualTo(delay.equals("capped") || now >= 6);
      }
    }
  }

  /** The pointer persists across dispatches, and a restored pointer decides like the original. */
  @Test
  void thePointerIsTheOnlyMemoryAndRestoresExactly() {
    List<String> straight = new ArrayList<>();
    List<String> restored = new ArrayList<>();
    boolean coLocated = false;
    for (int mode = 0; mode < 2; mode++) {
      SplittableRandom rnd = new SplittableRandom(17);
      PoolState s = new PoolState();
      for (int k = 1; k <= 3; k++) {
        s.registerNode("n" + k, 3, 1000 * MB, null, 0);
      }
      ComplementaryPlace cp = (ComplementaryPlace) policy(Map.of("D_node", "0", "D_rack", "0"));
      Scheduler sch = new Scheduler("p", s, cp);
      List<String> log = mode == 0 ? straight : restored;
      List<Command.Run> running = new ArrayList<>();
      for (int step = 0; step < 120; step++) {
        boolean cpu = rnd.nextBoolean();
        ResourceVector p = cpu
            ? ResourceVector.of(0.5 + 0.3 * rnd.nextDouble(), 0.1 * rnd.nextDouble(),
                0.2 * rnd.nextDouble())
            : ResourceVector.of(0.2 * rnd.nextDouble(), 0.1 * rnd.nextDouble(),
                0.5 + 0.3 * rnd.nextDouble());
        sch.applyJobArrival(task("t" + step, step, step, p,
            InputFile.of("f" + rnd.nextInt(6), 5 * MB)));
        if (step % 2 == 1 && !running.isEmpty()) {
          Command.Run done = running.remove(rnd.nextInt(running.size()));
          sch.applyTaskCompleted(done.task().taskId(), 0, done.node(), 0, 0, 0);
          s.applyCacheDelta(done.node(), step + 1, Map.of(done.task().inputs().get(0).id(),
              5 * MB), List.of());
        }
        if (mode == 1 && step == 60) {
          // a restart: a new policy object gets the saved pointer back
          ComplementaryPlace fresh = (ComplementaryPlace) policy(Map.of("D_node", "0",
              "D_rack", "0"));
          fresh.restoreMemory(cp.memory());
          cp = fresh;
          sch.setPolicy(fresh);
        }
        for (Command c : sch.dispatch(step)) {
          Command.Run r = (Command.Run) c;
          running.add(r);
          log.add(step + ":" + r.task().taskId() + "@" + r.node() + "/" + cp.pointer());
        }
        for (var n : s.nodes()) {
          coLocated |= n.busy() >= 2;
        }
      }
    }
    assertThat(straight).hasSizeGreaterThan(50);
    assertThat(restored).isEqualTo(straight);
    // the vectors let nodes share: some node ran two tasks at once (profiles cap it at ~2)
    assertThat(coLocated).isTrue();
  }

  @Test
  void badParametersSayWhatIsWrongAndTheRange() {
    Map<String, String> cases = new HashMap<>();
    cases.put("w_loc=-1", "w_loc must be a finite number >= 0, got '-1'");
    cases.put("w_comp=abc", "w_comp must be a finite number >= 0, got 'abc'");
    cases.put("w_pk=NaN", "w_pk must be a finite number >= 0");
    cases.put("h=1.5", "h must be in (0, 1], got '1.5'");
    cases.put("h=0", "h must be in (0, 1]");
    cases.put("D_node=-2", "D_node".toLowerCase() + " must be a finite number of seconds >= 0");
    cases.put("D_rack=1", "d_rack must be a finite number of seconds >= D_node (3.0)");
    cases.put("aging=0", "aging must be a number of seconds > 0");
    cases.put("delay=sometimes", "delay must be capped or strict, got 'sometimes'");
    cases.put("window=0", "window must be ≥ 1");
    cases.forEach((kv, message) -> {
      String[] p = kv.split("=");
      assertThatThrownBy(() -> policy(Map.of(p[0], p[1]))).as(kv)
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
    });
    ComplementaryPlace ok = (ComplementaryPlace) policy(Map.of("W_LOC", "2", "aging",
        "Infinity", "D_node", "10"));
    assertThat(ok.params().wLoc()).isEqualTo(2);
    assertThat(ok.params().aging()).isInfinite();
    assertThat(ok.params().dRack()).isEqualTo(10);
    assertThat(ok.name()).isEqualTo("COMPLEMENTARY_PLACE");
    assertThat(Policies.NAMES).contains("COMPLEMENTARY_PLACE");
    assertThatThrownBy(() -> ok.restoreMemory("7")).hasMessageContaining("outside [0, 3]");
  }
}
