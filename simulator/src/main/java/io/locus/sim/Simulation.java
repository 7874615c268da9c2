package io.locus.sim;

import io.locus.core.model.Command;
import io.locus.core.model.Task;
import io.locus.sim.engine.EventQueue;
import io.locus.sim.exec.Cluster;
import io.locus.sim.exec.ClusterListener;
import io.locus.sim.exec.Executor;
import io.locus.sim.exec.TaskRun;
import io.locus.sim.flow.Flow;
import io.locus.sim.flow.FlowNetwork;
import io.locus.sim.metrics.IdealTime;
import io.locus.sim.metrics.MetricsRecorder;
import io.locus.sim.metrics.Percentiles;
import io.locus.sim.metrics.SimulationResult;
import io.locus.sim.metrics.TimeSeries;
import io.locus.sim.provision.Lrm;
import io.locus.sim.workload.JobFeeder;
import io.locus.workloads.TraceJob;
import io.locus.workloads.Workload;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * One simulation run: a workload through the policy core on the modelled cluster, in virtual time.
 *
 * <p>The loop takes the earliest time t among pending events and flow ends, applies everything due
 * at t (events in scheduling order, then flow ends in start order, repeating while that creates more
 * work at t), then lets the scheduler dispatch once, as the spec README requires. Randomness (LRM
 * latencies, failure injection, random eviction) comes from streams split off the seed, so equal
 * configurations give identical decision sequences and results.
 */
public final class Simulation implements ClusterListener, JobFeeder.Sink {
  /** Hears every command the simulation carries out (tests record the decision sequence). */
  @FunctionalInterface
  public interface DecisionListener {
    void decided(double time, Command command);

    DecisionListener NONE = (t, c) -> { };
  }

  /** Hears how far a long run has got (the CLI prints it); called every {@link #PROGRESS_STEP} s. */
  @FunctionalInterface
  public interface Progress {
    void at(double virtualTime, long completed, long released, int queueLength, int nodes);

    Progress NONE = (t, c, r, q, n) -> { };
  }

  /** Virtual seconds between two progress reports. */
  public static final double PROGRESS_STEP = 500.0;

  private static final long FNV_PRIME = 0x100000001b3L;

  private final SimulationConfig cfg;
  private final String workloadName;
  private final EventQueue events = new EventQueue();
  private final FlowNetwork flows = new FlowNetwork(3);
  private final MetricsRecorder metrics;
  private final Cluster cluster;
  private final Lrm lrm;
  private final JobFeeder feeder;
  private final TaskPlacer placer;
  private final IdealTime ideal = new IdealTime();
  private final DecisionListener listener;
  private final Progress progress;
  private final SplittableRandom failureRng;
  private long nextSeq;
  private long decisions;
  private long digest = 0xcbf29ce484222325L;

  private Simulation(SimulationConfig cfg, String workloadName, Iterator<TraceJob> jobs,
      DecisionListener listener, Progress progress) {
    this.cfg = cfg;
    this.workloadName = workloadName;
    this.listener = listener == null ? DecisionListener.NONE : listener;
    this.progress = progress == null ? Progress.NONE : progress;
    SplittableRandom root = new SplittableRandom(cfg.seed());
    SplittableRandom lrmRng = root.split();
    this.failureRng = root.split();
    this.metrics = new MetricsRecorder(cfg.stepSeconds());
    this.cluster = new Cluster(cfg.exec(), flows, events, this, root.nextLong());
    this.lrm = new Lrm(cfg.lrm(), events, lrmRng);
    this.feeder = new JobFeeder(jobs, events, this);
    this.placer = cfg.provisioning() == SimulationConfig.Provisioning.LRM_PER_TASK
        ? new PerTaskPlacer(this)
        : new SchedulerPlacer(this);
  }

  /** Runs {@code workload} (a fresh pass over its jobs) under {@code cfg}. */
  public static SimulationResult run(SimulationConfig cfg, Workload workload) {
    return run(cfg, workload, Progress.NONE);
  }

  /** As {@link #run(SimulationConfig, Workload)}, reporting progress. */
  public static SimulationResult run(SimulationConfig cfg, Workload workload, Progress progress) {
    return new Simulation(cfg, workload.name(), workload.iterator(), DecisionListener.NONE,
        progress).execute();
  }

  /** Runs an arrival-sorted job stream; {@code listener} hears every command carried out. */
  public static SimulationResult run(SimulationConfig cfg, String workloadName,
      Iterator<TraceJob> jobs, DecisionListener listener) {
    return new Simulation(cfg, workloadName, jobs, listener, Progress.NONE).execute();
  }

  // ------------------------------------------------------------------ accessors for controls

  SimulationConfig config() {
    return cfg;
  }

  EventQueue events() {
    return events;
  }

  Cluster cluster() {
    return cluster;
  }

  Lrm lrm() {
    return lrm;
  }

  MetricsRecorder metrics() {
    return metrics;
  }

  /** Failure injection draws from its own stream so it never shifts other random choices. */
  SplittableRandom failureRng() {
    return failureRng;
  }

  /** Logs a command carried out: counted, hashed into the decision digest, told to the listener. */
  void recordDecision(double now, Command c) {
    if (c instanceof Command.Run run) {
      decisions++;
      mix(Double.doubleToLongBits(now));
      mix(run.node().hashCode());
      mix(run.task().taskId().hashCode());
      mix(run.task().attempt());
    } else {
      mix(Double.doubleToLongBits(now));
      mix(c.hashCode());
    }
    listener.decided(now, c);
  }

  private void mix(long v) {
    digest = (digest ^ v) * FNV_PRIME;
  }

  /** A job ended for good: completed, or failed past its retries. */
  void jobEnded(Task task, TaskRun run, boolean completed, double now) {
    if (completed) {
      metrics.completed(task, run.startTime(), now);
    } else {
      metrics.failedPermanently();
    }
    feeder.finished(task.jobId(), now);
  }

  // ------------------------------------------------------------------ listeners

  @Override
  public void released(TraceJob job, double now) {
    Task t = new Task(job.jobId(), job.jobId(), 0, nextSeq++, job.inputs(), job.computeSeconds(),
        now, null, List.of(), 0, io.locus.workloads.HybridMix.profile(job));
    ideal.add(job.stage(), t.totalComputeSeconds());
    metrics.released(t, now);
    placer.released(t, now);
  }

  @Override
  public void cacheChanged(Executor node, long seq, Map<String, Long> added, List<String> removed,
      double now) {
    placer.cacheChanged(node, seq, added, removed, now);
  }

  @Override
  public void readDone(TaskRun run, int source, long bytes, double now) {
    metrics.readDone(source, bytes, now);
  }

  @Override
  public void bytesAborted(int source, double bytes, double now) {
    metrics.bytesAborted(bytes);
  }

  @Override
  public void taskDone(TaskRun run, double now) {
    placer.taskDone(run, now);
  }

  // ------------------------------------------------------------------ the loop

  private SimulationResult execute() {
    long wallStart = System.nanoTime(); // host measurement for the report only, never in the model
    placer.setup(0.0);
    feeder.start();
    double clock = 0.0;
    double lastProgress = 0.0;
    double nextReport = PROGRESS_STEP;
    boolean truncated = false;
    while (!feeder.done()) {
      double next = Math.min(events.peekTime(), flows.nextFinish());
      if (next == Double.POSITIVE_INFINITY || next > cfg.horizonSeconds()) {
        truncated = true;
        break;
      }
      if (events.live() == 0 && flows.activeFlows() == 0
          && next - lastProgress > cfg.stallSeconds()) {
        truncated = true; // only polls and timers left, and they have not helped for a long time
        break;
      }
      if (next < clock) {
        throw new IllegalStateException("event at " + next + " is before the clock " + clock);
      }
      metrics.advance(clock, next, flows, placer);
      clock = next;
      if (clock >= nextReport) {
        progress.at(clock, metrics.completedCount(), feeder.released(), placer.queueLength(),
            placer.registeredNodes());
        nextReport = (Math.floor(clock / PROGRESS_STEP) + 1) * PROGRESS_STEP;
      }
      runBatch(clock);
      if (events.live() > 0 || flows.activeFlows() > 0) {
        lastProgress = clock;
      }
    }
    double end = Double.isNaN(metrics.lastCompletion()) ? clock : metrics.lastCompletion();
    metrics.advance(clock, Math.max(clock, end), flows, placer);
    return result(end, truncated, (System.nanoTime() - wallStart) / 1e9);
  }

  private void runBatch(double t) {
    while (true) {
      boolean progress = false;
      EventQueue.Event e;
      while ((e = events.pollAt(t)) != null) {
        EventQueue.run(e);
        progress = true;
      }
      Flow f;
      while ((f = flows.pollFinished(t)) != null) {
        f.owner().flowDone(f, t);
        progress = true;
      }
      flows.settle(t);
      if (!progress || (events.peekTime() > t && flows.nextFinish() > t)) {
        break;
      }
    }
    placer.afterBatch(t);
    flows.settle(t);
  }

  // ------------------------------------------------------------------ results

  private SimulationResult result(double end, boolean truncated, double wallSeconds) {
    double registeredSlotSeconds = 0;
    for (Executor e : cluster.executors()) {
      double until = e.alive() ? end : e.releasedAt();
      registeredSlotSeconds += Math.max(0.0, until - e.registeredAt()) * e.slots();
    }
    double busy = metrics.busySlotSeconds();
    TimeSeries series = metrics.series((int) Math.floor(end));
    double idealSeconds = Double.isNaN(cfg.idealTime())
        ? ideal.ideal(workloadName, feeder.firstArrival(), feeder.lastArrival(),
            cfg.nodes() * cfg.slots())
        : cfg.idealTime();
    SimulationResult.Times t = metrics.times(feeder.firstArrival(), idealSeconds);
    long[] bytes = metrics.bytes();
    long bytesRead = bytes[0] + bytes[1] + bytes[2];
    double[] throughput = series.column(TimeSeries.THROUGHPUT_GBPS);
    double[] demand = series.column(TimeSeries.DEMAND_GBPS);
    double arrivalSpan = Math.ceil(feeder.lastArrival() - feeder.firstArrival());
    double peakDemand = 0;
    for (double d : demand) {
      peakDemand = Math.max(peakDemand, d);
    }
    SimulationResult.Io io = new SimulationResult.Io(metrics.accesses(), bytes,
        metrics.abortedBytes(), metrics.integratedBytes(),
        t.completionTime() > 0 ? bytesRead * 8 / 1e9 / t.completionTime() : Double.NaN,
        Percentiles.nearestRank(throughput, 99),
        arrivalSpan > 0 ? metrics.arrivedBytes() * 8 / 1e9 / arrivalSpan : Double.NaN,
        peakDemand, cluster.staleHints(), cluster.dedupWaits(), cluster.maxCacheFill());
    SimulationResult.Resources res = new SimulationResult.Resources(
        registeredSlotSeconds / 3600.0, registeredSlotSeconds, busy,
        registeredSlotSeconds > 0 ? busy / registeredSlotSeconds : Double.NaN,
        Math.max(0.0, registeredSlotSeconds - busy), lrm.grants(), lrm.grantedNodes(),
        placer.releases(), metrics.maxNodes());
    SchedulerPlacer sc = placer instanceof SchedulerPlacer s ? s : null;
    SimulationResult.Scheduling sched = new SimulationResult.Scheduling(decisions,
        sc == null ? 0 : sc.dispatchCalls(), sc == null ? 0 : sc.skippedDispatches(), digest,
        sc == null ? 0.0 : sc.schedulerCpuSeconds());
    SimulationResult.Tasks tasks = new SimulationResult.Tasks(feeder.arrived(), feeder.released(),
        metrics.completedCount(), feeder.finishedCount() - metrics.completedCount(),
        placer.retries(), placer.timeouts(), placer.injectedFailures(), truncated);
    SimulationResult.Run run = new SimulationResult.Run(cfg.label(), workloadName,
        cfg.provisioning() == SimulationConfig.Provisioning.LRM_PER_TASK ? "LRM_PER_TASK"
            : cfg.policy().toUpperCase(java.util.Locale.ROOT),
        cfg.provisioning().cliName(), cfg.nodes(), cfg.slots(), cfg.cacheBytes(),
        cfg.exec().fsBytesPerSecond() * 8 / 1e9, cfg.exec().eviction(), cfg.seed());
    return new SimulationResult(run, tasks, t, io, res, sched,
        new SimulationResult.Slowdown(metrics.stepSeconds(), metrics.slowdowns()), series,
        wallSeconds);
  }
}
