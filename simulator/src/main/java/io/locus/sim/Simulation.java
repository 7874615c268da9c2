package io.locus.sim;

import io.locus.core.model.Command;
import io.locus.core.model.Task;
import io.locus.sim.engine.Engine;
import io.locus.sim.engine.EventQueue;
import io.locus.sim.engine.Model;
import io.locus.sim.engine.RunResult;
import io.locus.sim.exec.Cluster;
import io.locus.sim.exec.ClusterListener;
import io.locus.sim.exec.Executor;
import io.locus.sim.exec.TaskRun;
import io.locus.sim.flow.Flow;
import io.locus.sim.flow.FlowNetwork;
import io.locus.sim.metrics.DiffusionMetrics;
import io.locus.sim.metrics.IdealTime;
import io.locus.sim.metrics.MetricsRecorder;
import io.locus.sim.metrics.Percentiles;
import io.locus.sim.metrics.QueueRecorder;
import io.locus.sim.metrics.TimeSeries;
import io.locus.sim.provision.Lrm;
import io.locus.sim.workload.CancelDraws;
import io.locus.sim.workload.JobFeeder;
import io.locus.workloads.TraceJob;
import io.locus.workloads.Workload;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * One data-diffusion run: a workload through the policy core on the modelled cluster, in virtual
 * time, as a {@link Model} of the {@link Engine}.
 *
 * <p>Per instant t the engine applies the events due at t in scheduling order; this model then
 * applies the flow ends due at t in start order ({@link #runDue}; repeating while that creates more
 * work at t), then lets the placer dispatch once ({@link #afterInstant}), as the spec README
 * requires. Randomness (LRM latencies, failure injection, random eviction, drawn cancels) comes
 * from streams split off the seed, so equal configurations give identical decision sequences and
 * results.
 *
 * <p>Lifecycle (issue 23), as the streaming scheduler: a job is cancelled at its {@code
 * cancelAfter} ({@link JobFeeder}; {@code --cancel} draws some, {@link CancelDraws}). Queued, it
 * leaves the queue; placed or running, its attempt stops, its slot frees and the slot-seconds it
 * ran are counted as wasted; ended, nothing happens. A cancelled job is neither completed nor
 * failed, so it is outside the response-time statistics, and it counts as a failed parent.
 */
public final class Simulation implements Model<DiffusionMetrics>, ClusterListener,
    JobFeeder.Sink {
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

  /**
   * One job's end, for tests and per-task reports: the last attempt's node, when the job was
   * released (submitted to the pool), when that attempt started and when the job ended, and the
   * bytes that attempt read from the node's cache, from peers and from storage.
   */
  public record TaskRecord(String jobId, String node, double submitted, double started,
      double ended, boolean completed, long bytesLocal, long bytesPeer, long bytesStorage) {}

  /** Hears every job that ends (completed, or failed for good). */
  @FunctionalInterface
  public interface TaskListener {
    void ended(TaskRecord record);

    TaskListener NONE = r -> { };
  }

  /** Virtual seconds between two progress reports. */
  public static final double PROGRESS_STEP = 500.0;

  private static final long FNV_PRIME = 0x100000001b3L;

  private final SimulationConfig cfg;
  private final String workloadName;
  private final Engine engine;
  private final EventQueue events;
  private final FlowNetwork flows = new FlowNetwork(3);
  private final MetricsRecorder metrics;
  private final Cluster cluster;
  private final Lrm lrm;
  private final JobFeeder feeder;
  private final TaskPlacer placer;
  private final IdealTime ideal = new IdealTime();
  private final DecisionListener listener;
  private final Progress progress;
  private final TaskListener taskListener;
  private final SplittableRandom failureRng;
  private final QueueRecorder queues;
  private long queueRefused;
  private String firstQueueRefusal;
  private long cancelledQueued;
  private long cancelledRunning;
  private double cancelWastedSlotSeconds;
  private long nextSeq;
  private long decisions;
  private long digest = 0xcbf29ce484222325L;
  private double nextReport = PROGRESS_STEP;

  private Simulation(SimulationConfig cfg, String workloadName, Iterator<TraceJob> jobs,
      DecisionListener listener, Progress progress, TaskListener taskListener) {
    this.cfg = cfg;
    this.taskListener = taskListener == null ? TaskListener.NONE : taskListener;
    this.workloadName = workloadName;
    this.listener = listener == null ? DecisionListener.NONE : listener;
    this.progress = progress == null ? Progress.NONE : progress;
    this.engine = new Engine(new Engine.Limits(cfg.horizonSeconds(), cfg.stallSeconds()));
    this.events = engine.queue();
    SplittableRandom root = new SplittableRandom(cfg.seed());
    SplittableRandom lrmRng = root.split();
    this.failureRng = root.split();
    this.metrics = new MetricsRecorder(cfg.stepSeconds());
    this.queues = cfg.queues() == null ? null : new QueueRecorder(cfg.queues().tree());
    this.cluster = new Cluster(cfg.exec(), flows, events, this, root.nextLong());
    this.lrm = new Lrm(cfg.lrm(), events, lrmRng);
    SimulationConfig.Lifecycle life = cfg.lifecycle();
    if (life.cancelFraction() > 0) {
      // split after every other stream, so a run without --cancel draws exactly as before
      jobs = new CancelDraws(jobs, life.cancelFraction(), life.cancelWithinSeconds(),
          Math.min(cfg.exec().nicInBytesPerSecond(), cfg.exec().fsBytesPerSecond()), root.split());
    }
    this.feeder = new JobFeeder(jobs, events, this,
        life.onFailure() == SimulationConfig.OnFailure.FAIL_WORKFLOW
            ? JobFeeder.OnFailure.FAIL_WORKFLOW : JobFeeder.OnFailure.FAIL_DESCENDANTS);
    this.placer = cfg.provisioning() == SimulationConfig.Provisioning.LRM_PER_TASK
        ? new PerTaskPlacer(this)
        : cfg.cells() > 1 ? new CellPlacer(this)
        : new SchedulerPlacer(this);
  }

  /** Runs {@code workload} (a fresh pass over its jobs) under {@code cfg}. */
  public static RunResult<DiffusionMetrics> run(SimulationConfig cfg, Workload workload) {
    return run(cfg, workload, Progress.NONE);
  }

  /** As {@link #run(SimulationConfig, Workload)}, reporting progress. */
  public static RunResult<DiffusionMetrics> run(SimulationConfig cfg, Workload workload,
      Progress progress) {
    Simulation sim = new Simulation(cfg, workload.name(), workload.iterator(),
        DecisionListener.NONE, progress, TaskListener.NONE);
    return sim.engine.run(sim);
  }

  /** Runs an arrival-sorted job stream; {@code listener} hears every command carried out. */
  public static RunResult<DiffusionMetrics> run(SimulationConfig cfg, String workloadName,
      Iterator<TraceJob> jobs, DecisionListener listener) {
    return run(cfg, workloadName, jobs, listener, TaskListener.NONE);
  }

  /** As above; {@code tasks} also hears every job that ends. */
  public static RunResult<DiffusionMetrics> run(SimulationConfig cfg, String workloadName,
      Iterator<TraceJob> jobs, DecisionListener listener, TaskListener tasks) {
    Simulation sim = new Simulation(cfg, workloadName, jobs, listener, Progress.NONE, tasks);
    return sim.engine.run(sim);
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

  /** The per-queue measures, or null when the run has no queue tree. */
  QueueRecorder queues() {
    return queues;
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

  /**
   * A job ended for good: completed, or failed past its retries. A completed job's outputs enter
   * its node's cache (and the scheduler's index) before its children are released.
   */
  void jobEnded(Task task, TaskRun run, boolean completed, double now) {
    if (completed) {
      metrics.completed(task, run.startTime(), now);
      if (queues != null) {
        queues.completed(task, now - task.submitTime());
      }
      if (!task.outputs().isEmpty()) {
        cluster.storeOutputs(run, now);
      }
    } else {
      metrics.failedPermanently();
    }
    taskListener.ended(new TaskRecord(task.jobId(), run.node(), task.submitTime(),
        run.startTime(), now, completed, run.bytesLocal(), run.bytesPeer(), run.bytesStorage()));
    feeder.finished(task.jobId(), completed ? JobFeeder.End.COMPLETED : JobFeeder.End.FAILED,
        now);
  }

  // ------------------------------------------------------------------ listeners

  @Override
  public void released(TraceJob job, double now) {
    Task t = new Task(job.jobId(), job.jobId(), 0, nextSeq++, job.inputs(), job.computeSeconds(),
        now, null, List.of(), job.priorityOr(0), io.locus.workloads.HybridMix.profile(job),
        job.outputs(), job.queue());
    if (queues != null && queues.leafOf(t) == null) {
      // the streaming scheduler refuses it (dead letter unknown-queue): it never enters the pool;
      // it ends as failed after this instant's releases, so the feeder is not re-entered
      queueRefused++;
      if (firstQueueRefusal == null) {
        firstQueueRefusal = "job " + job.jobId() + ": " + queues.refusal(t);
      }
      events.schedule(now, () -> feeder.finished(job.jobId(), JobFeeder.End.FAILED, now));
      return;
    }
    ideal.add(job.stage(), t.totalComputeSeconds());
    metrics.released(t, now);
    if (queues != null) {
      queues.queued(t);
    }
    placer.released(t, now);
  }

  @Override
  public void cancelReleased(String jobId, double now) {
    TaskPlacer.Cancelled c = placer.cancel(jobId, now);
    if (c.placed()) {
      cancelledRunning++;
      cancelWastedSlotSeconds += c.wastedSlotSeconds();
    } else {
      cancelledQueued++;
    }
    feeder.finished(jobId, JobFeeder.End.CANCELLED, now);
  }

  @Override
  public void cacheChanged(Executor node, long seq, Map<String, Long> added, List<String> removed,
      double now) {
    placer.cacheChanged(node, seq, added, removed, now);
  }

  @Override
  public void readDone(TaskRun run, int source, long bytes, double now) {
    metrics.readDone(source, bytes, now);
    if (queues != null) {
      queues.read(run.task(), source, bytes);
    }
  }

  @Override
  public void bytesAborted(int source, double bytes, double now) {
    metrics.bytesAborted(bytes);
  }

  @Override
  public void taskDone(TaskRun run, double now) {
    placer.taskDone(run, now);
  }

  // ------------------------------------------------------------------ the model's hooks

  @Override
  public void start(Engine engine) {
    placer.setup(0.0);
    feeder.start();
  }

  @Override
  public boolean finished() {
    return feeder.done();
  }

  @Override
  public double nextDue() {
    return flows.nextFinish();
  }

  @Override
  public boolean busy() {
    return flows.activeFlows() > 0;
  }

  @Override
  public void elapse(double from, double to) {
    metrics.advance(from, to, flows, placer);
    if (queues != null) {
      queues.advance(from, to, placer.registeredSlots());
    }
    if (to >= nextReport) {
      progress.at(to, metrics.completedCount(), feeder.released(), placer.queueLength(),
          placer.registeredNodes());
      nextReport = (Math.floor(to / PROGRESS_STEP) + 1) * PROGRESS_STEP;
    }
  }

  /** Flow ends of {@code t}, in start order, after the events of {@code t}. */
  @Override
  public boolean runDue(double t) {
    boolean any = false;
    Flow f;
    while ((f = flows.pollFinished(t)) != null) {
      f.owner().flowDone(f, t);
      any = true;
    }
    flows.settle(t);
    return any;
  }

  /** Every event of {@code t} is applied: the placer dispatches once (spec README). */
  @Override
  public void afterInstant(double t) {
    placer.afterBatch(t);
    flows.settle(t);
  }

  // ------------------------------------------------------------------ results

  @Override
  public RunResult<DiffusionMetrics> result(Engine.Outcome outcome) {
    double clock = outcome.endTime();
    double end = Double.isNaN(metrics.lastCompletion()) ? clock : metrics.lastCompletion();
    metrics.advance(clock, Math.max(clock, end), flows, placer);
    if (queues != null) {
      queues.advance(clock, Math.max(clock, end), placer.registeredSlots());
    }
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
    DiffusionMetrics.Times t = metrics.times(feeder.firstArrival(), idealSeconds);
    long[] bytes = metrics.bytes();
    long bytesRead = bytes[0] + bytes[1] + bytes[2];
    double[] throughput = series.column(TimeSeries.THROUGHPUT_GBPS);
    double[] demand = series.column(TimeSeries.DEMAND_GBPS);
    double arrivalSpan = Math.ceil(feeder.lastArrival() - feeder.firstArrival());
    double peakDemand = 0;
    for (double d : demand) {
      peakDemand = Math.max(peakDemand, d);
    }
    DiffusionMetrics.Io io = new DiffusionMetrics.Io(metrics.accesses(), bytes,
        metrics.abortedBytes(), metrics.integratedBytes(),
        t.completionTime() > 0 ? bytesRead * 8 / 1e9 / t.completionTime() : Double.NaN,
        Percentiles.nearestRank(throughput, 99),
        arrivalSpan > 0 ? metrics.arrivedBytes() * 8 / 1e9 / arrivalSpan : Double.NaN,
        peakDemand, cluster.staleHints(), cluster.dedupWaits(), cluster.maxCacheFill(),
        cluster.evictions(), cluster.outputsCached());
    DiffusionMetrics.Resources res = new DiffusionMetrics.Resources(
        registeredSlotSeconds / 3600.0, registeredSlotSeconds, busy,
        registeredSlotSeconds > 0 ? busy / registeredSlotSeconds : Double.NaN,
        Math.max(0.0, registeredSlotSeconds - busy), lrm.grants(), lrm.grantedNodes(),
        placer.releases(), metrics.maxNodes());
    SchedulerPlacer sc = placer instanceof SchedulerPlacer s ? s : null;
    DiffusionMetrics.Scheduling sched = new DiffusionMetrics.Scheduling(decisions,
        sc == null ? 0 : sc.dispatchCalls(), sc == null ? 0 : sc.skippedDispatches(), digest);
    DiffusionMetrics.Tasks tasks = new DiffusionMetrics.Tasks(feeder.arrived(),
        feeder.released(), metrics.completedCount(),
        feeder.finishedCount() - metrics.completedCount() - cancelledQueued - cancelledRunning,
        placer.retries(), placer.timeouts(), placer.injectedFailures(), feeder.dropped());
    DiffusionMetrics.Lifecycle lifecycle = new DiffusionMetrics.Lifecycle(
        feeder.cancelledUnreleased() + cancelledQueued, cancelledRunning,
        feeder.cancelsTooLate(), cancelWastedSlotSeconds, feeder.droppedByParent(),
        feeder.droppedByWorkflow());
    boolean perTask = cfg.provisioning() == SimulationConfig.Provisioning.LRM_PER_TASK;
    DiffusionMetrics.Setup setup = new DiffusionMetrics.Setup(workloadName,
        cfg.provisioning().cliName(), cfg.nodes(), cfg.slots(), cfg.cacheBytes(),
        cfg.exec().fsBytesPerSecond() * 8 / 1e9, cfg.exec().eviction(), cfg.seed());
    DiffusionMetrics m = new DiffusionMetrics(setup, tasks, lifecycle, t, io, res, sched,
        new DiffusionMetrics.Slowdown(metrics.stepSeconds(), metrics.slowdowns()), series,
        queues == null ? null : queues.result(end, queueRefused, firstQueueRefusal));
    double cpu = sc != null && cfg.measureSchedulerCpu() ? sc.schedulerCpuSeconds() : Double.NaN;
    return RunResult.of(DiffusionMetrics.MODEL, cfg.label(),
        perTask ? "LRM_PER_TASK" : cfg.policy().toUpperCase(Locale.ROOT), outcome,
        metrics.completedCount(), cpu, m);
  }
}
