package io.locus.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.model.Command;
import io.locus.core.model.InputFile;
import io.locus.sim.SimulationConfig.Provisioning;
import io.locus.sim.engine.RunResult;
import io.locus.sim.exec.ExecConfig;
import io.locus.sim.metrics.DiffusionMetrics;
import io.locus.workloads.TraceJob;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Workflows (DAGs with outputs) in the data-diffusion simulation: release after the parents,
 * outputs created in the node's cache and known to the scheduler, eviction, dropped descendants of
 * failed parents, determinism.
 */
class WorkflowSimulationTest {
  private static final long MB = TestJobs.MB;

  private static InputFile file(String id, long mb) {
    return InputFile.of(id, mb * MB);
  }

  private static TraceJob job(String id, double arrival, double compute, List<InputFile> inputs,
      List<String> parents, List<InputFile> outputs) {
    return new TraceJob(id, null, arrival, inputs, compute, 0, Map.of(), null, parents, outputs,
        null, List.of());
  }

  /**
   * Three levels: roots A and B read a storage file and write a 400 MB output each; A fans out to
   * A1 and A2, B to B1, each reading only its parent's output; M fans in A1, A2 and B1's outputs.
   * The roots differ in compute so they end at different instants. Listed children first within
   * the instant, so release cannot rely on stream order.
   */
  private static List<TraceJob> threeLevels() {
    return List.of(
        job("M", 0, 1, List.of(file("oA1", 20), file("oA2", 20), file("oB1", 20)),
            List.of("A1", "A2", "B1"), List.of(file("oM", 5))),
        job("A1", 0, 2, List.of(file("oA", 400)), List.of("A"), List.of(file("oA1", 20))),
        job("A2", 0, 2, List.of(file("oA", 400)), List.of("A"), List.of(file("oA2", 20))),
        job("B1", 0, 2, List.of(file("oB", 400)), List.of("B"), List.of(file("oB1", 20))),
        job("A", 0, 3, List.of(file("inA", 50)), List.of(), List.of(file("oA", 400))),
        job("B", 0, 7, List.of(file("inB", 50)), List.of(), List.of(file("oB", 400))));
  }

  private static final Map<String, List<String>> PARENTS = Map.of("A1", List.of("A"),
      "A2", List.of("A"), "B1", List.of("B"), "M", List.of("A1", "A2", "B1"));

  private static SimulationConfig.Builder cluster(String policy) {
    return SimulationConfig.builder().policy(policy).nodes(4).slots(2).cacheGb(1)
        .provisioning(Provisioning.SRP).exec(ExecConfig.defaults(4.0)).seed(1);
  }

  /** What one run did: its result, the Run decisions (task → time, node) and every job's end. */
  private record Observed(RunResult<DiffusionMetrics> result, Map<String, Double> runAt,
      Map<String, String> runOn, Map<String, Simulation.TaskRecord> ends, List<Command> other) {}

  private static Observed run(SimulationConfig cfg, List<TraceJob> jobs) {
    Map<String, Double> at = new HashMap<>();
    Map<String, String> on = new HashMap<>();
    Map<String, Simulation.TaskRecord> ends = new HashMap<>();
    List<Command> other = new ArrayList<>();
    RunResult<DiffusionMetrics> r = Simulation.run(cfg, "dag", jobs.iterator(), (t, c) -> {
      if (c instanceof Command.Run run) {
        at.put(run.task().taskId(), t);
        on.put(run.task().taskId(), run.node());
      } else {
        other.add(c);
      }
    }, rec -> ends.put(rec.jobId(), rec));
    return new Observed(r, at, on, ends, other);
  }

  @ParameterizedTest
  @FieldSource("io.locus.sim.SimulationConfig#POLICIES")
  void noChildStartsBeforeItsParentsCompletedAndEveryTaskCompletes(String policy) {
    Observed o = run(cluster(policy).build(), threeLevels());
    assertThat(o.result().complete()).isTrue();
    DiffusionMetrics.Tasks tasks = o.result().detail().tasks();
    assertThat(tasks.completed()).isEqualTo(6);
    assertThat(tasks.dropped()).isZero();
    assertThat(o.ends().values()).allMatch(Simulation.TaskRecord::completed).hasSize(6);
    PARENTS.forEach((child, parents) -> {
      double lastParent = parents.stream().mapToDouble(p -> o.ends().get(p).ended()).max()
          .orElseThrow();
      assertThat(o.ends().get(child).submitted()).as(child + " submitted")
          .isGreaterThanOrEqualTo(lastParent);
      assertThat(o.runAt().get(child)).as(child + " placed").isGreaterThanOrEqualTo(lastParent);
      assertThat(o.ends().get(child).started()).as(child + " started")
          .isGreaterThanOrEqualTo(lastParent);
    });
    // every input byte is read once, from somewhere: outputs are read, never "created" as reads
    long inputBytes = threeLevels().stream().mapToLong(TraceJob::totalBytes).sum();
    assertThat(o.result().detail().io().bytesRead()).isEqualTo(inputBytes);
  }

  /**
   * Both roots start on n00001 (no cache hits anywhere yet, first node with free slots). When A
   * ends, one slot of its node is free: A1 (first in the queue) goes there and reads A's output
   * locally. MCH waits for a slot there for A2 too; GCC, below its utilisation threshold, places
   * A2 on an idle node, which reads A's output from the peer, not from storage. B1 then runs on
   * B's node, locally, under both.
   */
  @ParameterizedTest
  @ValueSource(strings = {"MCH", "GCC"})
  void dataAwarePoliciesPlaceAChildOnItsParentsNodeAndItReadsTheOutputLocally(String policy) {
    Observed o = run(cluster(policy).build(), threeLevels());
    List<String> local = policy.equals("MCH") ? List.of("A1", "A2", "B1") : List.of("A1", "B1");
    for (String child : local) {
      String parent = PARENTS.get(child).get(0);
      Simulation.TaskRecord c = o.ends().get(child);
      assertThat(c.node()).as(child + "'s node").isEqualTo(o.ends().get(parent).node());
      assertThat(c.bytesLocal()).as(child + " local bytes").isEqualTo(400 * MB);
      assertThat(c.bytesStorage()).as(child + " storage bytes").isZero();
      assertThat(c.bytesPeer()).as(child + " peer bytes").isZero();
    }
    if (policy.equals("GCC")) {
      Simulation.TaskRecord a2 = o.ends().get("A2");
      assertThat(a2.node()).isNotEqualTo(o.ends().get("A").node());
      assertThat(a2.bytesPeer()).isEqualTo(400 * MB);
    }
    long[] bytes = o.result().detail().io().bytes();
    assertThat(bytes[0]).isGreaterThanOrEqualTo(local.size() * 400 * MB);
    // only the roots' own inputs come from storage: outputs are read from caches or peers
    assertThat(bytes[2]).isEqualTo(100 * MB);
  }

  @Test
  void firstAvailableReadsOutputsFromStorage() {
    Observed o = run(cluster("FA").build(), threeLevels());
    long[] bytes = o.result().detail().io().bytes();
    assertThat(bytes[0]).isZero(); // FA never reads from caches
    assertThat(bytes[1]).isZero();
    assertThat(bytes[2]).isEqualTo(threeLevels().stream().mapToLong(TraceJob::totalBytes).sum());
  }

  /**
   * One node, one slot, 500 MB of cache: A's 400 MB output is cached, B's output evicts it (LRU);
   * D reads B's output from the cache, then C reads A's evicted output from storage.
   */
  @Test
  void outputsFillTheNodeCacheAndAreEvictedLikeAnyFile() {
    List<TraceJob> jobs = List.of(
        job("A", 0, 1, List.of(), List.of(), List.of(file("oA", 400))),
        job("B", 0, 1, List.of(), List.of("A"), List.of(file("oB", 400))),
        job("D", 0, 1, List.of(file("oB", 400)), List.of("B"), List.of()),
        job("C", 0, 1, List.of(file("oA", 400)), List.of("B", "D"), List.of()));
    SimulationConfig cfg = cluster("MCH").nodes(1).slots(1).cacheBytes(500 * MB).build();
    Observed o = run(cfg, jobs);
    assertThat(o.result().complete()).isTrue();
    assertThat(o.ends().get("D").bytesLocal()).isEqualTo(400 * MB);
    assertThat(o.ends().get("D").bytesStorage()).isZero();
    assertThat(o.ends().get("C").bytesStorage()).isEqualTo(400 * MB);
    assertThat(o.ends().get("C").bytesLocal()).isZero();
    assertThat(o.result().detail().io().maxCacheFill()).isEqualTo(0.8); // one 400 MB file at a time
    assertThat(o.result().detail().io().outputsCached()).isEqualTo(2);
    // oB evicted oA; C's read of oA from storage then evicted oB
    assertThat(o.result().detail().io().evictions()).isEqualTo(2);
    // an output larger than the cache is not kept: its reader goes to storage
    List<TraceJob> huge = List.of(
        job("A", 0, 1, List.of(), List.of(), List.of(file("oA", 600))),
        job("B", 0, 1, List.of(file("oA", 600)), List.of("A"), List.of()));
    Observed h = run(cfg, huge);
    assertThat(h.ends().get("B").bytesStorage()).isEqualTo(600 * MB);
    assertThat(h.result().detail().io().maxCacheFill()).isZero();
  }

  @Test
  void aParentThatCompletedBeforeItsChildArrivesReleasesItAtItsArrival() {
    List<TraceJob> jobs = List.of(
        job("A", 0, 1, List.of(), List.of(), List.of(file("oA", 100))),
        job("B", 50, 1, List.of(file("oA", 100)), List.of("A"), List.of()));
    Observed o = run(cluster("GCC").build(), jobs);
    assertThat(o.result().complete()).isTrue();
    assertThat(o.ends().get("B").submitted()).isEqualTo(50.0);
    assertThat(o.ends().get("B").bytesLocal()).isEqualTo(100 * MB);
  }

  @Test
  void aChildThatArrivesBeforeItsParentWaitsForTheParentToArriveAndComplete() {
    List<TraceJob> jobs = List.of(
        job("B", 0, 1, List.of(file("oA", 100)), List.of("A", "A"), List.of()),
        job("A", 20, 4, List.of(), List.of(), List.of(file("oA", 100))));
    Observed o = run(cluster("MCH").build(), jobs);
    assertThat(o.result().complete()).isTrue();
    assertThat(o.ends().get("A").ended()).isEqualTo(24.0);
    assertThat(o.ends().get("B").submitted()).isEqualTo(24.0);
    assertThat(o.ends().get("B").node()).isEqualTo(o.ends().get("A").node());
    assertThat(o.result().detail().tasks().dropped()).isZero();
  }

  @Test
  void descendantsOfAJobThatFailedForGoodAreDroppedAndTheRunEnds() {
    // every attempt fails, no retries: the roots fail for good and nothing else is released
    SimulationConfig.Replay off = SimulationConfig.Replay.off();
    SimulationConfig cfg = cluster("GCC").maxRetries(0)
        .replay(new SimulationConfig.Replay(false, off.minTimeoutSeconds(), off.runtimeFactor(),
            1.0, 1000, off.suspendWindowSeconds()))
        .build();
    Observed o = run(cfg, threeLevels());
    assertThat(o.result().complete()).isTrue();
    DiffusionMetrics.Tasks tasks = o.result().detail().tasks();
    assertThat(tasks.arrived()).isEqualTo(6);
    assertThat(tasks.released()).isEqualTo(2);
    assertThat(tasks.failedPermanently()).isEqualTo(2);
    assertThat(tasks.dropped()).isEqualTo(4);
    assertThat(tasks.completed()).isZero();
    assertThat(o.runAt()).containsOnlyKeys("A", "B");
  }

  @Test
  void aChildOfAParentThatNeverArrivesIsDroppedWhenNothingElseCanRun() {
    List<TraceJob> jobs = List.of(
        job("A", 0, 1, List.of(), List.of(), List.of()),
        job("X", 0, 1, List.of(), List.of("missing"), List.of()),
        job("Y", 0, 1, List.of(), List.of("X"), List.of()),
        job("Z", 0, 1, List.of(), List.of("A"), List.of()));
    Observed o = run(cluster("MCH").build(), jobs);
    assertThat(o.result().complete()).isTrue();
    assertThat(o.result().detail().tasks().completed()).isEqualTo(2);
    assertThat(o.result().detail().tasks().dropped()).isEqualTo(2);
    assertThat(o.runAt()).containsOnlyKeys("A", "Z");
  }

  @ParameterizedTest
  @ValueSource(strings = {"FA", "MCH", "GCC"})
  void twoRunsOfAWorkflowDecideTheSame(String policy) {
    List<TraceJob> jobs = new ArrayList<>();
    // ten copies of the three-level workflow, ids prefixed like instances
    for (int i = 0; i < 10; i++) {
      String p = "w" + i + "/";
      for (TraceJob j : threeLevels()) {
        jobs.add(new TraceJob(p + j.jobId(), null, i * 3.0, j.inputs().stream()
            .map(f -> InputFile.of(p + f.id(), f.bytes())).toList(), j.computeSeconds(), 0,
            Map.of(), null, j.parents().stream().map(x -> p + x).toList(),
            j.outputs().stream().map(f -> InputFile.of(p + f.id(), f.bytes())).toList(), null,
            List.of()));
      }
    }
    SimulationConfig cfg = cluster(policy).cacheBytes(900 * MB).build();
    Observed a = run(cfg, jobs);
    Observed b = run(cfg, jobs);
    assertThat(a.result().detail().tasks().completed()).isEqualTo(60);
    assertThat(b.result().detail().scheduling().digest())
        .isEqualTo(a.result().detail().scheduling().digest());
    assertThat(DiffusionMetrics.fingerprint(b.result()))
        .isEqualTo(DiffusionMetrics.fingerprint(a.result()));
    assertThat(b.runOn()).isEqualTo(a.runOn());
    assertThat(b.other()).isEqualTo(a.other());
  }
}
