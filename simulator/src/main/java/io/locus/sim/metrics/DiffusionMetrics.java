package io.locus.sim.metrics;

import io.locus.sim.engine.RunResult;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a data-diffusion run measured (data-diffusion spec §6) beyond the common {@link RunResult}
 * fields, grouped by topic, plus the per-second {@link TimeSeries}. All values come from virtual
 * time and are reproducible for a seed; the host measurements (scheduler CPU, wall time) and how
 * the run ended are the {@link RunResult}'s. {@code queues}: the per-queue measures of a run with a
 * queue tree (issue 24), null without one.
 */
public record DiffusionMetrics(
    Setup setup,
    Tasks tasks,
    Lifecycle lifecycle,
    Times times,
    Io io,
    Resources resources,
    Scheduling scheduling,
    Slowdown slowdown,
    TimeSeries series,
    QueueMetrics queues) {

  /** The simulator model name in {@link RunResult#model()}. */
  public static final String MODEL = "data-diffusion";

  /** What ran, besides the label and policy of the {@link RunResult}. */
  public record Setup(String workload, String provisioning, int nodes, int slots, long cacheBytes,
      double fsGbps, String eviction, long seed) {}

  /**
   * Task accounting, when the run was complete ({@link RunResult#complete()}; otherwise it was
   * truncated: horizon, stall or nothing left): {@code completed + failedPermanently + cancelled
   * after release = released} and {@code released + dropped + cancelled before release = arrived}
   * ({@link Lifecycle}). {@code dropped}: workflow jobs never released because a parent failed for
   * good, was cancelled or never arrived, or (FAIL_WORKFLOW) their workflow failed ({@link
   * io.locus.sim.workload.JobFeeder}).
   */
  public record Tasks(long arrived, long released, long completed, long failedPermanently,
      long retries, long timeouts, long injectedFailures, long dropped) {}

  /**
   * Cancels and workflow failures (issue 23). {@code cancelledQueued}: cancelled before a slot was
   * taken (waiting for parents or a stage, or in the pool's queue); {@code cancelledRunning}: an
   * attempt was placed or running and stopped, {@code wastedSlotSeconds} in all; {@code
   * cancelsTooLate}: the job had ended (nothing happened). {@code failedByParent}: jobs dropped
   * because a parent failed for good or was cancelled (transitively); {@code failedByWorkflow}:
   * jobs dropped under FAIL_WORKFLOW because another job of their workflow did.
   */
  public record Lifecycle(long cancelledQueued, long cancelledRunning, long cancelsTooLate,
      double wastedSlotSeconds, long failedByParent, long failedByWorkflow) {

    public long cancelled() {
      return cancelledQueued + cancelledRunning;
    }
  }

  /**
   * Times in seconds. Completion time T_N = last completion − first arrival; efficiency = ideal /
   * T_N; response = queue wait + execution + delivery (AR); execution-time share = mean of
   * exec / (exec + queue).
   */
  public record Times(double firstArrival, double lastCompletion, double completionTime,
      double idealTime, double efficiency, double meanResponse, double meanQueue, double meanExec,
      double execTimeShare) {}

  /**
   * Reads. Accesses and bytes are indexed LOCAL, PEER, STORAGE (local hit, global hit, miss).
   * {@code flowBytes} is the integral of all flow rates; it equals the completed reads plus the
   * aborted bytes, up to rounding. {@code evictions}: files the nodes evicted to make room for a
   * fetched file or a created output (Evict commands not counted); {@code outputsCached}: workflow
   * outputs that entered the cache of the node that created them.
   */
  public record Io(long[] accesses, long[] bytes, double abortedBytes, double flowBytes,
      double avgThroughputGbps, double peakThroughputGbps, double meanDemandGbps,
      double peakDemandGbps, long staleHints, long dedupWaits, double maxCacheFill,
      long evictions, long outputsCached) {

    public long totalAccesses() {
      return accesses[0] + accesses[1] + accesses[2];
    }

    /** Bytes read by completed accesses: local + peer + storage. */
    public long bytesRead() {
      return bytes[0] + bytes[1] + bytes[2];
    }

    public double share(int source) {
      long n = totalAccesses();
      return n == 0 ? 0.0 : (double) accesses[source] / n;
    }

    public double localShare() {
      return share(0);
    }

    public double peerShare() {
      return share(1);
    }

    public double missShare() {
      return share(2);
    }

    /** Local + peer hits over all accesses. */
    public double hitRatio() {
      long n = totalAccesses();
      return n == 0 ? 0.0 : (double) (accesses[0] + accesses[1]) / n;
    }
  }

  /**
   * Resources. CPU_T = Σ (release − registration) × slots in hours, idle time included (D17);
   * utilisation = busy / registered slot time; wasted = registered idle slot-seconds.
   */
  public record Resources(double cpuHours, double registeredSlotSeconds, double busySlotSeconds,
      double utilisation, double wastedCpuSeconds, long allocations, long nodesGranted,
      long releases, int maxNodes) {}

  /**
   * Dispatch decisions; {@code digest} hashes the whole decision sequence. {@code dispatchCalls}
   * counts calls into the policy, {@code skippedDispatches} the batches the dispatch gate proved
   * idle (neither changes a decision).
   */
  public record Scheduling(long decisions, long dispatchCalls, long skippedDispatches,
      long digest) {}

  /** Slowdown SL_i per arrival step of {@code stepSeconds} (NaN for a step without tasks). */
  public record Slowdown(double stepSeconds, double[] perStep) {
    public double max() {
      return Arrays.stream(perStep).filter(v -> !Double.isNaN(v)).max().orElse(Double.NaN);
    }
  }

  /** SP = T_N(baseline) / T_N(this); the baseline is normally FA on the same workload. */
  public double speedupOver(DiffusionMetrics baseline) {
    return baseline.times.completionTime / times.completionTime;
  }

  /** DD6: decisions per second of scheduler CPU time (NaN if not measured). */
  public static double decisionsPerCpuSecond(RunResult<DiffusionMetrics> r) {
    double cpu = r.schedulerCpuSeconds();
    return cpu > 0 ? r.detail().scheduling().decisions() / cpu : Double.NaN;
  }

  /** Every model output of a run as text (not the host-dependent ones): equal for equal runs. */
  public static String fingerprint(RunResult<DiffusionMetrics> r) {
    DiffusionMetrics m = r.detail();
    return r.label() + "|" + r.policy() + "|" + r.ending() + "|" + m.fingerprint();
  }

  private String fingerprint() {
    return setup + "|" + tasks + "|" + times + "|" + Arrays.toString(io.accesses) + "|"
        + Arrays.toString(io.bytes) + "|" + io.abortedBytes + "|" + io.flowBytes + "|"
        + io.avgThroughputGbps + "|" + io.peakThroughputGbps + "|" + io.staleHints + "|"
        + io.dedupWaits + "|" + resources + "|" + scheduling.decisions + "|" + scheduling.digest
        + "|" + Arrays.toString(slowdown.perStep) + (queues == null ? "" : "|"
        + queues.fingerprint());
  }

  /** A run's summary as ordered name → value pairs (summary.csv and tables). */
  public static Map<String, String> summary(RunResult<DiffusionMetrics> r) {
    DiffusionMetrics d = r.detail();
    Setup setup = d.setup;
    Tasks tasks = d.tasks;
    Times times = d.times;
    Io io = d.io;
    Resources resources = d.resources;
    Scheduling scheduling = d.scheduling;
    Map<String, String> m = new LinkedHashMap<>();
    m.put("label", r.label());
    m.put("workload", setup.workload());
    m.put("policy", r.policy());
    m.put("provisioning", setup.provisioning());
    m.put("nodes", Integer.toString(setup.nodes()));
    m.put("slots", Integer.toString(setup.slots()));
    m.put("cache_gb", num(setup.cacheBytes() / 1e9));
    m.put("fs_gbps", num(setup.fsGbps()));
    m.put("eviction", setup.eviction());
    m.put("seed", Long.toString(setup.seed()));
    m.put("tasks", Long.toString(tasks.released()));
    m.put("completed", Long.toString(tasks.completed()));
    m.put("failed", Long.toString(tasks.failedPermanently()));
    m.put("retries", Long.toString(tasks.retries()));
    Lifecycle life = d.lifecycle;
    m.put("cancelled", Long.toString(life.cancelled()));
    m.put("cancelled_running", Long.toString(life.cancelledRunning()));
    m.put("cancel_too_late", Long.toString(life.cancelsTooLate()));
    m.put("cancel_wasted_slot_s", num(life.wastedSlotSeconds()));
    m.put("failed_by_parent", Long.toString(life.failedByParent()));
    m.put("failed_by_workflow", Long.toString(life.failedByWorkflow()));
    m.put("truncated", Boolean.toString(!r.complete()));
    m.put("completion_time_s", num(times.completionTime()));
    m.put("ideal_time_s", num(times.idealTime()));
    m.put("efficiency", num(times.efficiency()));
    m.put("mean_response_s", num(times.meanResponse()));
    m.put("mean_queue_s", num(times.meanQueue()));
    m.put("mean_exec_s", num(times.meanExec()));
    m.put("exec_time_share", num(times.execTimeShare()));
    m.put("cpu_hours", num(resources.cpuHours()));
    m.put("utilisation", num(resources.utilisation()));
    m.put("wasted_cpu_s", num(resources.wastedCpuSeconds()));
    m.put("allocations", Long.toString(resources.allocations()));
    m.put("nodes_granted", Long.toString(resources.nodesGranted()));
    m.put("releases", Long.toString(resources.releases()));
    m.put("max_nodes", Integer.toString(resources.maxNodes()));
    m.put("local_share", num(io.localShare()));
    m.put("peer_share", num(io.peerShare()));
    m.put("miss_share", num(io.missShare()));
    m.put("bytes_local", Long.toString(io.bytes()[0]));
    m.put("bytes_peer", Long.toString(io.bytes()[1]));
    m.put("bytes_storage", Long.toString(io.bytes()[2]));
    m.put("bytes_read", Long.toString(io.bytesRead()));
    m.put("bytes_aborted", num(io.abortedBytes()));
    m.put("avg_throughput_gbps", num(io.avgThroughputGbps()));
    m.put("peak_throughput_gbps", num(io.peakThroughputGbps()));
    m.put("mean_demand_gbps", num(io.meanDemandGbps()));
    m.put("peak_demand_gbps", num(io.peakDemandGbps()));
    m.put("stale_hints", Long.toString(io.staleHints()));
    m.put("dedup_waits", Long.toString(io.dedupWaits()));
    m.put("max_slowdown", num(d.slowdown.max()));
    m.put("decisions", Long.toString(scheduling.decisions()));
    m.put("decision_digest", Long.toHexString(scheduling.digest()));
    m.put("dispatch_calls", Long.toString(scheduling.dispatchCalls()));
    m.put("skipped_dispatches", Long.toString(scheduling.skippedDispatches()));
    // an unmeasured run has always been written as 0 s of scheduler CPU
    m.put("scheduler_cpu_s", num(Double.isNaN(r.schedulerCpuSeconds()) ? 0.0
        : r.schedulerCpuSeconds()));
    m.put("decisions_per_cpu_s", num(decisionsPerCpuSecond(r)));
    m.put("wall_s", num(r.wallSeconds()));
    return m;
  }

  static String num(double v) {
    return Numbers.format(v);
  }
}
