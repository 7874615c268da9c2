package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.policy.PolicyRegistry;
import io.locus.schemas.DataUnit;
import io.locus.schemas.Decision;
import io.locus.schemas.EvictFiles;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.ReplicateFile;
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
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The operator decides the same with or without a checkpoint restore in the middle: every policy's
 * state (for the Khanna family: scheduler-managed caches, VALUE statistics, Gantt charts, per-node
 * mappings, DLL counters, SA's mode) is fully in keyed state. The event stream is driven by the
 * decisions themselves (files arrive, tasks complete), so any difference after the restore shows.
 */
@Timeout(120)
class OperatorRestoreDeterminismTest {
  private static final String POOL = "k";
  private static final long MIB = 1L << 20;

  /** A scripted cluster: arrivals from a seeded generator, transfers and completions in order. */
  private static final class Driver {
    final SplittableRandom rnd = new SplittableRandom(5);
    final ArrayDeque<Decision> running = new ArrayDeque<>();
    final Map<String, Long> cacheSeq = new HashMap<>();
    final List<String> log = new ArrayList<>();
    /** Jobs the scheduler said are cancelled: their placed attempts get no completion. */
    final java.util.Set<String> cancelled = new java.util.HashSet<>();
    long clock = 1000;
    int jobs;
    /** Issue 23: jobs with priorities and workflows, and cancels of earlier jobs in between. */
    boolean lifecycle;
    /**
     * Issue 23, retries with backoff: some attempts fail (a third of the tasks, each at most
     * twice, chosen by task id and attempt), so retries wait out their backoff across the restore.
     */
    boolean failures;
    /**
     * Issue 24, fair share: 0 none; 1 a tree of a (guarantee 1 of the 4 slots) and b (guarantee
     * 3) before any job, three jobs of four in a (which borrows b's idle guarantee) and one in b
     * (below its guarantee while a holds the slots); 2 the same jobs naming no queue, no tree;
     * 3 as 1 with cache bytes per queue (a: limit 64 MiB, guarantee 8 MiB; b: guarantee 128 MiB).
     */
    int queues;

    List<SchedulerInput> next(int step) {
      List<SchedulerInput> out = new ArrayList<>();
      clock += 250;
      if ((queues == 1 || queues == 3) && step == 0) {
        boolean cache = queues == 3;
        out.add(in(io.locus.schemas.Control.newBuilder().setPool(POOL)
            .setType(io.locus.schemas.ControlType.SET_QUEUES).setTimeMs(0)
            .setRequestId("fair").setQueues(List.of(
                io.locus.schemas.QueueConfig.newBuilder(queue("a")).setGuaranteedSlots(1)
                    .setCacheLimitBytes(cache ? 64 * MIB : null)
                    .setCacheGuaranteeBytes(cache ? 8 * MIB : null).build(),
                io.locus.schemas.QueueConfig.newBuilder(queue("b")).setGuaranteedSlots(3)
                    .setCacheGuaranteeBytes(cache ? 128 * MIB : null).build())).build()));
      }
      if (lifecycle && (step == 0 || step == 150)) {
        // issue 24: a queue tree before any job; at step 150 one without b (refused while b has
        // unfinished jobs: either way, the same in both runs)
        List<io.locus.schemas.QueueConfig> qs = new ArrayList<>(List.of(queue("a")));
        if (step == 0) {
          qs.add(queue("b"));
        }
        out.add(in(io.locus.schemas.Control.newBuilder().setPool(POOL)
            .setType(io.locus.schemas.ControlType.SET_QUEUES).setTimeMs(0)
            .setRequestId("q" + step).setQueues(qs).build()));
      }
      if (step < 4) {
        out.add(in(NodeReport.newBuilder().setPool(POOL).setNode("n" + step)
            .setType(NodeReportType.REGISTER).setTimeMs(clock).setSlots(1)
            .setCacheCapacityBytes(300 * MIB).build()));
        return out;
      }
      if (lifecycle && step % 7 == 0 && jobs > 0) {
        out.add(in(io.locus.schemas.JobCommand.newBuilder().setPool(POOL)
            .setJobId("j" + rnd.nextInt(jobs)).setType(io.locus.schemas.JobCommandType.CANCEL)
            .setTimeMs(clock).setRequestId("c" + step).build()));
        return out;
      }
      if (step % 3 != 0 || running.isEmpty()) {
        List<DataUnit> files = new ArrayList<>();
        int n = 2 + rnd.nextInt(3);
        java.util.Set<Integer> chosen = new java.util.TreeSet<>();
        while (chosen.size() < n) {
          chosen.add(rnd.nextInt(24));
        }
        for (int f : chosen) {
          files.add(DataUnit.newBuilder().setId("img-" + f).setBytes((f % 3 == 0 ? 64 : 4) * MIB)
              .setLocation("sn-" + (f % 4)).build());
        }
        JobSubmitted.Builder j = JobSubmitted.newBuilder().setJobId("j" + (jobs++)).setPool(POOL)
            .setSubmitTimeMs(clock).setInputs(files);
        if (queues == 1 || queues == 3) {
          j.setQueue(jobs % 4 == 0 ? "b" : "a");
        }
        if (lifecycle) {
          j.setPriority(rnd.nextInt(11) - 5).setWorkflow(jobs % 3 == 0 ? null : "w" + jobs % 3)
              .setQueue(jobs % 5 == 0 ? "nope" : jobs % 2 == 0 ? "a" : "b");
        }
        out.add(in(j.build()));
      } else {
        Decision d = running.poll();
        PlaceTask p = (PlaceTask) d.getAction();
        if (cancelled.contains(p.getTaskId())) {
          return out;
        }
        if (failures && p.getAttempt() < 2
            && Math.floorMod(p.getTaskId().hashCode() + p.getAttempt(), 3) == 0) {
          out.add(in(io.locus.schemas.TaskEvent.newBuilder().setPool(POOL)
              .setTaskId(p.getTaskId()).setJobId(p.getJobId()).setAttempt(p.getAttempt())
              .setNode(d.getNode()).setType(io.locus.schemas.TaskEventType.FAILED)
              .setDecisionId(d.getDecisionId()).setTimeMs(clock).setMessage("exit 1").build()));
        } else {
          out.addAll(OperatorHarness.finish(POOL, d, p, clock, cacheSeq));
        }
      }
      return out;
    }

    void saw(List<Decision> decisions) {
      for (Decision d : decisions) {
        Object a = d.getAction();
        if (a instanceof PlaceTask p) {
          running.add(d);
          log.add(d.getDecisionId() + "@" + d.getNode() + " " + p.getInputs() + " "
              + p.getPlannedCompletionMs() + " " + p.getReason());
        } else if (a instanceof EvictFiles e) {
          log.add(d.getDecisionId() + "@" + d.getNode() + " evict " + e.getFiles());
        } else if (a instanceof ReplicateFile r) {
          log.add(d.getDecisionId() + "@" + d.getNode() + " replicate " + r.getFileId());
        }
      }
    }
  }

  /** The statuses and refusals a lifecycle run published, in order, as text. */
  static void sawSide(Driver drv, KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput,
      Decision> h) {
    var st = h.getSideOutput(SchedulerOperator.JOB_STATUS);
    if (st != null) {
      st.forEach(r -> {
        var x = r.getValue();
        drv.log.add("status " + x.getJobId() + " " + x.getState() + " #" + x.getAttempt() + " "
            + x.getNode() + " " + x.getPendingCode() + " " + x.getWorkflow() + " "
            + x.getQueue() + " " + x.getTimeMs() + " " + x.getReason());
        if (x.getState() == io.locus.schemas.JobState.CANCELLED) {
          drv.cancelled.add(x.getJobId());
        }
      });
      st.clear();
    }
    var acks = h.getSideOutput(SchedulerOperator.CONTROL_ACKS);
    if (acks != null) {
      acks.forEach(r -> drv.log.add("ack " + r.getValue().getRequestId() + " "
          + r.getValue().getAccepted() + " " + r.getValue().getChanges() + " "
          + r.getValue().getReasons()));
      acks.clear();
    }
    var dl = h.getSideOutput(SchedulerOperator.REJECTED);
    if (dl != null) {
      dl.forEach(r -> drv.log.add("refused " + r.getValue().getCode() + " "
          + r.getValue().getReason()));
      dl.clear();
    }
  }

  private static io.locus.schemas.QueueConfig queue(String name) {
    return io.locus.schemas.QueueConfig.newBuilder().setName(name).build();
  }

  private static SchedulerInput in(Object event) {
    return SchedulerInput.newBuilder().setPool(POOL).setEvent(event).build();
  }

  private static KeyedOneInputStreamOperatorTestHarness<String, SchedulerInput, Decision> open(
      String policy, OperatorSubtaskState from, boolean failures) throws Exception {
    SchedulerConfig config = SchedulerConfig.defaults(policy);
    // 4 s doubling to 16 s: 16 to 64 steps of 250 ms, so retries are parked across the restore
    return OperatorHarness.open(failures ? config.withRetryBackoff(
        new io.locus.core.state.RetryBackoff(4, 16)) : config, from);
  }

  private static List<String> run(String policy, int steps, int restoreAt) throws Exception {
    return run(policy, steps, restoreAt, -1, null, new ArrayList<>());
  }

  /**
   * As above, with a SET_POLICY to {@code changeTo} before step {@code changeAt} (its acks go to
   * {@code acks}).
   */
  private static List<String> run(String policy, int steps, int restoreAt, int changeAt,
      String changeTo, List<io.locus.schemas.ControlAck> acks) throws Exception {
    return run(policy, steps, restoreAt, changeAt, changeTo, acks, false);
  }

  private static List<String> run(String policy, int steps, int restoreAt, int changeAt,
      String changeTo, List<io.locus.schemas.ControlAck> acks, boolean lifecycle)
      throws Exception {
    return run(policy, steps, restoreAt, changeAt, changeTo, acks, lifecycle, false);
  }

  private static List<String> run(String policy, int steps, int restoreAt, int changeAt,
      String changeTo, List<io.locus.schemas.ControlAck> acks, boolean lifecycle,
      boolean failures) throws Exception {
    return run(policy, steps, restoreAt, changeAt, changeTo, acks, lifecycle, failures, 0);
  }

  private static List<String> run(String policy, int steps, int restoreAt, int changeAt,
      String changeTo, List<io.locus.schemas.ControlAck> acks, boolean lifecycle,
      boolean failures, int queues) throws Exception {
    Driver drv = new Driver();
    drv.lifecycle = lifecycle;
    drv.failures = failures;
    drv.queues = queues;
    var h = open(policy, null, failures);
    try {
      for (int step = 0; step < steps; step++) {
        if (step == changeAt) {
          h.processElement(in(io.locus.schemas.Control.newBuilder().setPool(POOL)
              .setType(io.locus.schemas.ControlType.SET_POLICY).setPolicy(changeTo)
              .setTimeMs(0).setRequestId("change").build()), drv.clock);
          drv.log.add("SET_POLICY " + changeTo);
          drv.saw(h.extractOutputValues());
          h.getOutput().clear();
          h.getSideOutput(SchedulerOperator.CONTROL_ACKS).forEach(r -> acks.add(r.getValue()));
        }
        if (step == restoreAt) {
          OperatorSubtaskState snap = h.snapshot(1, drv.clock);
          h.close();
          h = open(policy, snap, failures);
        }
        for (SchedulerInput e : drv.next(step)) {
          h.processElement(e, drv.clock);
          drv.saw(h.extractOutputValues());
          h.getOutput().clear();
          if (lifecycle || queues > 0) {
            sawSide(drv, h);
          }
        }
      }
    } finally {
      h.close();
    }
    return drv.log;
  }

  /** Every registered file policy: a policy added to the registry is covered without an edit. */
  static List<String> filePolicies() {
    return PolicyRegistry.fileNames();
  }

  @ParameterizedTest
  @MethodSource("filePolicies")
  void aRestoreInTheMiddleChangesNoDecision(String policy) throws Exception {
    List<String> straight = run(policy, 240, -1);
    List<String> restored = run(policy, 240, 120);
    assertThat(straight).hasSizeGreaterThan(60);
    assertThat(restored).isEqualTo(straight);
  }

  /**
   * A policy changed at run time re-evaluates the queue (Khanna mappings undone, Online-HPS
   * re-partitioning) in keyed state: a restore right after the change decides the same, and every
   * placement after it carries the new policy.
   */
  @ParameterizedTest
  @ValueSource(strings = {"MET>ONLINE_HPS", "ONLINE_HPS>MCT", "MCT>JDPDLL", "SA>MET", "MCH>SA",
      "MET>GCC"})
  void aPolicyChangeReEvaluatesTheQueueAndARestoreAfterItChangesNoDecision(String change)
      throws Exception {
    String from = change.substring(0, change.indexOf('>'));
    String to = change.substring(change.indexOf('>') + 1);
    List<io.locus.schemas.ControlAck> acks = new ArrayList<>();
    List<String> straight = run(from, 200, -1, 100, to, acks);
    List<String> restored = run(from, 200, 101, 100, to, new ArrayList<>());
    assertThat(acks).hasSize(1);
    assertThat(acks.get(0).getAccepted()).as(acks.get(0).getMessage()).isTrue();
    assertThat(acks.get(0).getReevaluated()).as("tasks were queued at the change").isPositive();
    assertThat(restored).isEqualTo(straight);
    List<String> after = straight.subList(straight.indexOf("SET_POLICY " + to) + 1,
        straight.size());
    assertThat(after).filteredOn(l -> l.contains("\"policy\":")).hasSizeGreaterThan(10)
        // GCC names its mode: "GCC/MCU"
        .allSatisfy(l -> assertThat(l).contains("\"policy\": \"" + to));
  }

  /**
   * Issue 23: with priorities, workflow jobs and cancels (of queued, placed and finished jobs) in
   * flight, a restore in the middle changes no decision, no job-status record and no refusal.
   * Issue 24: with a queue tree applied before the jobs, jobs naming its queues and an unknown
   * one, and a second tree after the restore (whose verdict depends on the restored queues of the
   * unfinished jobs), the same, acknowledgements included.
   */
  @ParameterizedTest
  @ValueSource(strings = {"FA", "MCH", "GCC", "EFT", "MET"})
  void aRestoreWithCancelsPrioritiesAndWorkflowsInFlightChangesNothing(String policy)
      throws Exception {
    List<String> straight = run(policy, 240, -1, -1, null, new ArrayList<>(), true);
    List<String> restored = run(policy, 240, 120, -1, null, new ArrayList<>(), true);
    assertThat(straight).filteredOn(l -> l.startsWith("status ") && l.contains(" CANCELLED "))
        .as("cancels applied").isNotEmpty();
    assertThat(straight).filteredOn(l -> l.startsWith("refused job-finished"))
        .as("cancels of finished jobs refused").isNotEmpty();
    assertThat(straight).filteredOn(l -> l.startsWith("status ") && l.contains(" w1 "))
        .as("workflow jobs").isNotEmpty();
    assertThat(straight).filteredOn(l -> l.startsWith("status ") && l.contains(" COMPLETED ")
        && l.contains(" b ")).as("jobs of queue b completed, their status naming it")
        .isNotEmpty();
    assertThat(straight).filteredOn(l -> l.startsWith("refused unknown-queue unknown queue 'nope'"))
        .as("jobs of an unknown queue refused").isNotEmpty();
    assertThat(straight).filteredOn(l -> l.startsWith("ack q0 true") || l.startsWith("ack q150 "))
        .as("both queue trees acknowledged").hasSize(2);
    assertThat(restored).isEqualTo(straight);
  }

  /**
   * Issue 23, retries with backoff: with failed attempts waiting out their backoff (and cancels,
   * priorities and workflows) in flight, a restore in the middle changes no decision, no
   * job-status record and no refusal: the parked tasks and their release times are in keyed
   * state, and the release follows the record clock.
   */
  @ParameterizedTest
  @ValueSource(strings = {"FA", "MCH", "GCC", "EFT", "MET"})
  void aRestoreWithRetriesInBackoffChangesNothing(String policy) throws Exception {
    List<String> straight = run(policy, 240, -1, -1, null, new ArrayList<>(), true, true);
    List<String> restored = run(policy, 240, 120, -1, null, new ArrayList<>(), true, true);
    assertThat(straight).filteredOn(l -> l.startsWith("status ") && l.contains(" backoff "))
        .as("retries waited out their backoff").hasSizeGreaterThan(5);
    assertThat(straight).filteredOn(l -> l.startsWith("status ") && l.contains(" QUEUED #1 ")
        && l.contains(" backoff ")).as("queued again in backoff").isNotEmpty();
    assertThat(restored).isEqualTo(straight);
  }

  /**
   * Issue 24: with a queue tree whose queue a borrows b's idle guarantee while b is below its own,
   * under every policy fair share places with, a restore in the middle changes no decision: the
   * tree comes back from keyed state and the per-queue book and locality-wait clock are derived
   * from the restored tasks. The same jobs without queues are placed otherwise (so the tree was in
   * force on both sides of the restore).
   */
  @ParameterizedTest
  @ValueSource(strings = {"FA", "FCA", "MCU", "MCH", "GCC", "EFT"})
  void aRestoreWithQueuesBorrowingAndBelowGuaranteeChangesNoDecision(String policy)
      throws Exception {
    List<String> straight = run(policy, 240, -1, -1, null, new ArrayList<>(), false, false, 1);
    List<String> restored = run(policy, 240, 120, -1, null, new ArrayList<>(), false, false, 1);
    List<String> fifo = run(policy, 240, -1, -1, null, new ArrayList<>(), false, false, 2);
    assertThat(straight).filteredOn(l -> l.startsWith("ack fair true ")).as("tree applied")
        .hasSize(1);
    assertThat(straight).filteredOn(l -> l.contains("@")).hasSizeGreaterThan(60);
    assertThat(restored).isEqualTo(straight);
    assertThat(straight.stream().filter(l -> l.contains("@")).toList())
        .isNotEqualTo(fifo.stream().filter(l -> l.contains("@")).toList());
  }

  /**
   * Issue 24, cache bytes per queue in the staged caches: the charge of each staged file is
   * persisted with it, so a restore changes no eviction and no streamed file; and the cache fields
   * do change decisions (the same run without them differs).
   */
  @ParameterizedTest
  @ValueSource(strings = {"MET", "MCT", "SA", "JDPDLL", "ONLINE_HPS"})
  void aRestoreWithQueueCacheBytesChangesNoDecision(String policy) throws Exception {
    List<String> straight = run(policy, 240, -1, -1, null, new ArrayList<>(), false, false, 3);
    List<String> restored = run(policy, 240, 120, -1, null, new ArrayList<>(), false, false, 3);
    List<String> noCache = run(policy, 240, -1, -1, null, new ArrayList<>(), false, false, 1);
    assertThat(straight).filteredOn(l -> l.startsWith("ack fair true ")).as("tree applied")
        .hasSize(1);
    assertThat(straight).filteredOn(l -> l.contains("@")).hasSizeGreaterThan(60);
    assertThat(restored).isEqualTo(straight);
    assertThat(straight.stream().filter(l -> l.contains("@")).toList())
        .isNotEqualTo(noCache.stream().filter(l -> l.contains("@")).toList());
  }
}
