package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.model.ResourceVector;
import io.locus.core.model.Task;
import io.locus.schemas.DataUnit;
import io.locus.schemas.Decision;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.ResourceProfile;
import io.locus.schemas.internal.SchedulerInput;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * COMPLEMENTARY_PLACE in the scheduler operator on RocksDB: jobs carry profiles (JobSubmitted's
 * {@code profile}), nodes have several slots, so the resource vectors decide how tasks share nodes.
 * A checkpoint restore in the middle changes no decision: node loads come from the running tasks
 * (whose profiles are in keyed state) and the round-robin pointer from the policy memory.
 */
@Timeout(120)
class ComplementaryPlaceOperatorTest {
  private static final String POOL = "hyb";
  private static final long MIB = 1L << 20;

  /** Arrivals from a seeded generator; completions (oldest first) and cache reports in order. */
  private static final class Driver {
    final SplittableRandom rnd = new SplittableRandom(8);
    final Map<String, Decision> running = new LinkedHashMap<>();
    final Map<String, ResourceVector> profiles = new HashMap<>();
    final Map<String, List<String>> onNode = new HashMap<>();
    final Map<String, Long> cacheSeq = new HashMap<>();
    final List<String> log = new ArrayList<>();
    long clock = 1000;
    int jobs;
    int maxTogether;
    boolean mixedPair;

    List<SchedulerInput> next(int step) {
      List<SchedulerInput> out = new ArrayList<>();
      clock += 500;
      if (step < 3) {
        out.add(in(NodeReport.newBuilder().setPool(POOL).setNode("n" + step)
            .setType(NodeReportType.REGISTER).setTimeMs(clock).setSlots(3)
            .setCacheCapacityBytes(500 * MIB).build()));
        return out;
      }
      if (step % 3 != 0 || running.isEmpty()) {
        boolean cpu = rnd.nextBoolean();
        double hi = 0.45 + 0.3 * rnd.nextDouble();
        double lo = 0.25 * rnd.nextDouble();
        double mem = 0.2 * rnd.nextDouble();
        ResourceProfile p = cpu ? new ResourceProfile(hi, lo, mem, 0.0) : new ResourceProfile(lo, hi, mem, 0.0);
        String id = "j" + (jobs++);
        profiles.put(id, Conversions.profile(p));
        List<DataUnit> files = List.of(DataUnit.newBuilder().setId("f-" + rnd.nextInt(8))
            .setBytes(16 * MIB).build());
        out.add(in(JobSubmitted.newBuilder().setJobId(id).setPool(POOL).setSubmitTimeMs(clock)
            .setInputs(files).setProfile(p).build()));
      } else {
        Decision d = running.values().iterator().next();
        PlaceTask pt = (PlaceTask) d.getAction();
        running.remove(pt.getTaskId());
        onNode.get(d.getNode()).remove(pt.getTaskId());
        out.addAll(OperatorHarness.finish(POOL, d, pt, clock, cacheSeq));
      }
      return out;
    }

    void saw(List<Decision> decisions) {
      for (Decision d : decisions) {
        if (d.getAction() instanceof PlaceTask p) {
          running.put(p.getTaskId(), d);
          List<String> here = onNode.computeIfAbsent(d.getNode(), k -> new ArrayList<>());
          here.add(p.getTaskId());
          maxTogether = Math.max(maxTogether, here.size());
          if (here.size() >= 2) {
            long cpuHeavy = here.stream().filter(t -> profiles.get(t).cpu() > 0.4).count();
            mixedPair |= cpuHeavy >= 1 && cpuHeavy < here.size();
          }
          log.add(d.getDecisionId() + "@" + d.getNode() + " t=" + d.getTimeMs() + " "
              + p.getReason().getPolicy() + " " + p.getReason().getScore());
        }
      }
    }
  }

  private static SchedulerInput in(Object event) {
    return SchedulerInput.newBuilder().setPool(POOL).setEvent(event).build();
  }

  private static KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> open(
      OperatorSubtaskState from) throws Exception {
    return OperatorHarness.open(SchedulerConfig.defaults("complementary_place"), from);
  }

  private static Driver run(int steps, java.util.Set<Integer> restoreAt) throws Exception {
    Driver drv = new Driver();
    var h = open(null);
    try {
      for (int step = 0; step < steps; step++) {
        if (restoreAt.contains(step)) {
          OperatorSubtaskState snap = h.snapshot(1, drv.clock);
          h.close();
          h = open(snap);
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
    return drv;
  }

  @Test
  void placesByProfileAndARestoreChangesNoDecision() throws Exception {
    Driver straight = run(180, java.util.Set.of());
    // several restarts, so some land where the pointer is not at its first list
    java.util.Set<Integer> restarts = new java.util.HashSet<>();
    for (int step = 20; step < 180; step += 13) {
      restarts.add(step);
    }
    Driver restored = run(180, restarts);
    assertThat(straight.log).hasSizeGreaterThan(60);
    assertThat(straight.log).allMatch(l -> l.contains(" COMPLEMENTARY_PLACE "));
    // the vectors, not the 3 slots, bound sharing: two tasks at most, complementary ones
    assertThat(straight.maxTogether).isEqualTo(2);
    assertThat(straight.mixedPair).isTrue();
    assertThat(restored.log).isEqualTo(straight.log);
  }

  @Test
  void profilesSurviveTheRoundTripThroughKeyedState() {
    JobSubmitted job = JobSubmitted.newBuilder().setJobId("j").setPool(POOL).setSubmitTimeMs(5)
        .setInputs(List.of()).setProfile(new ResourceProfile(0.7, 0.2, 0.1, 0.0)).build();
    Task t = Conversions.toTask(job, 3);
    assertThat(t.profile()).isEqualTo(new ResourceVector(0.7, 0.1, 0.2, 0));
    Task back = Conversions.fromState(Conversions.toState(POOL, t, null));
    assertThat(back.profile()).isEqualTo(t.profile());
    JobSubmitted none = JobSubmitted.newBuilder(job).setProfile(null).build();
    assertThat(Conversions.toTask(none, 4).profile()).isNull();
    assertThat(Conversions.toJob(POOL, Conversions.toTask(none, 4)).getProfile()).isNull();
  }
}
