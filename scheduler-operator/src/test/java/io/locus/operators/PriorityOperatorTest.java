package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.policy.PolicyRegistry;
import io.locus.schemas.DataUnit;
import io.locus.schemas.Decision;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.internal.SchedulerInput;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * JobSubmitted.priority orders a file pool's queue in the operator (docs/policies.md, "Priority"),
 * and a restore in the middle of a run with priorities in flight changes no decision (the queue
 * order is derived from the persisted jobs' priorities).
 */
@Timeout(120)
class PriorityOperatorTest {
  private static final String POOL = "p";
  private static final long MIB = 1L << 20;

  private static SchedulerInput in(Object event) {
    return SchedulerInput.newBuilder().setPool(POOL).setEvent(event).build();
  }

  private static JobSubmitted job(String id, int priority, long clock, String file, long bytes) {
    return JobSubmitted.newBuilder().setJobId(id).setPool(POOL).setSubmitTimeMs(clock)
        .setPriority(priority)
        .setInputs(List.of(DataUnit.newBuilder().setId(file).setBytes(bytes)
            .setLocation("sn-0").build()))
        .build();
  }

  private static List<PlaceTask> places(List<Decision> ds) {
    return ds.stream().filter(d -> d.getAction() instanceof PlaceTask)
        .map(d -> (PlaceTask) d.getAction()).toList();
  }

  static List<String> filePolicies() {
    return PolicyRegistry.fileNames();
  }

  /**
   * One node with one slot runs j0; low1 and low2 (priority 0) then high (priority 9) arrive. When
   * j0 completes, the operator places high; with equal priorities, low1.
   */
  @ParameterizedTest
  @MethodSource("filePolicies")
  void aHigherPriorityJobSubmittedLaterIsPlacedFirst(String policy) throws Exception {
    assertThat(nextPlaced(policy, 9)).isEqualTo("high");
    assertThat(nextPlaced(policy, 0)).isIn("low1", "low2");
  }

  private static String nextPlaced(String policy, int high) throws Exception {
    try (var h = OperatorHarness.open(SchedulerConfig.defaults(policy))) {
      long clock = 1000;
      h.processElement(in(NodeReport.newBuilder().setPool(POOL).setNode("n1")
          .setType(NodeReportType.REGISTER).setTimeMs(clock).setSlots(1)
          .setCacheCapacityBytes(300 * MIB).build()), clock);
      h.processElement(in(job("j0", 0, clock += 10, "f0", MIB)), clock);
      List<Decision> first = h.extractOutputValues();
      h.getOutput().clear();
      assertThat(places(first)).extracting(PlaceTask::getJobId).containsExactly("j0");
      h.processElement(in(job("low1", 0, clock += 10, "f1", MIB)), clock);
      h.processElement(in(job("low2", 0, clock += 10, "f2", MIB)), clock);
      // worse by every other measure than the low ones: more bytes, arrives last
      h.processElement(in(job("high", high, clock += 10, "f3", 8 * MIB)), clock);
      assertThat(places(h.extractOutputValues())).isEmpty();
      h.getOutput().clear();
      Decision d0 = first.stream().filter(d -> d.getAction() instanceof PlaceTask).findFirst()
          .orElseThrow();
      for (SchedulerInput e : OperatorHarness.finish(POOL, d0, (PlaceTask) d0.getAction(),
          clock += 1000, new HashMap<>())) {
        h.processElement(e, clock);
      }
      List<PlaceTask> next = places(h.extractOutputValues());
      assertThat(next).hasSize(1);
      return next.get(0).getJobId();
    }
  }

  /** A scripted pool: jobs of random priority arrive, placements complete in order. */
  private static final class Driver {
    final SplittableRandom rnd = new SplittableRandom(11);
    final ArrayDeque<Decision> running = new ArrayDeque<>();
    final Map<String, Long> cacheSeq = new HashMap<>();
    final List<String> log = new ArrayList<>();
    long clock = 1000;
    int jobs;

    List<SchedulerInput> next(int step) {
      List<SchedulerInput> out = new ArrayList<>();
      clock += 250;
      if (step < 3) {
        out.add(in(NodeReport.newBuilder().setPool(POOL).setNode("n" + step)
            .setType(NodeReportType.REGISTER).setTimeMs(clock).setSlots(1)
            .setCacheCapacityBytes(300 * MIB).build()));
      } else if (step % 3 != 0 || running.isEmpty()) {
        int f = rnd.nextInt(12);
        out.add(in(job("j" + (jobs++), rnd.nextInt(5) - 2, clock, "img-" + f,
            (f % 3 == 0 ? 64 : 4) * MIB)));
      } else {
        Decision d = running.poll();
        out.addAll(OperatorHarness.finish(POOL, d, (PlaceTask) d.getAction(), clock, cacheSeq));
      }
      return out;
    }

    void saw(List<Decision> decisions) {
      for (Decision d : decisions) {
        if (d.getAction() instanceof PlaceTask p) {
          running.add(d);
          log.add(d.getDecisionId() + " " + p.getJobId() + "@" + d.getNode() + " "
              + p.getInputs());
        }
      }
    }
  }

  private static List<String> run(String policy, int steps, int restoreAt) throws Exception {
    Driver drv = new Driver();
    KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> h =
        OperatorHarness.open(SchedulerConfig.defaults(policy));
    try {
      for (int step = 0; step < steps; step++) {
        if (step == restoreAt) {
          OperatorSubtaskState snap = h.snapshot(1, drv.clock);
          h.close();
          h = OperatorHarness.open(SchedulerConfig.defaults(policy), snap);
        }
        for (SchedulerInput e : drv.next(step)) {
          h.processElement(e, drv.clock);
          drv.saw(h.extractOutputValues());
          h.getOutput().clear();
        }
      }
    } finally {
      h.close();
    }
    return drv.log;
  }

  @ParameterizedTest
  @MethodSource("filePolicies")
  void aRestoreWithPrioritiesInFlightChangesNoDecision(String policy) throws Exception {
    List<String> straight = run(policy, 150, -1);
    List<String> restored = run(policy, 150, 75);
    assertThat(straight).hasSizeGreaterThan(30);
    assertThat(restored).isEqualTo(straight);
  }
}
