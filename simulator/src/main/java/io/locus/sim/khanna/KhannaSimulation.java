package io.locus.sim.khanna;

import io.locus.core.Scheduler;
import io.locus.core.model.Command;
import io.locus.core.model.InputFetch;
import io.locus.core.model.InputFile;
import io.locus.core.model.InputSource;
import io.locus.core.model.Task;
import io.locus.core.policy.Policies;
import io.locus.core.staging.CostModel;
import io.locus.core.staging.TransferEngine;
import io.locus.core.state.PoolState;
import io.locus.sim.engine.Engine;
import io.locus.sim.engine.EventQueue;
import io.locus.sim.engine.Model;
import io.locus.sim.engine.RunResult;
import io.locus.workloads.TraceJob;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The Khanna execution model (hypergraph spec §1.4, D34) in virtual time, a {@link Model} of the
 * {@link Engine}, driving the policy core exactly as the {@link Scheduler} javadoc prescribes:
 * Gantt-reserved transfers run exactly in their reserved intervals; JDPDLL's transfers and replicas
 * go through the FIFO {@link TransferEngine} (one transfer per storage node and per destination
 * ingress); a job reads and computes once all its files are on its node; events of one instant
 * (arrivals, completions, transfer ends, in scheduling order) are applied before one dispatch (D1).
 * Deterministic: no clock or randomness enters the model (the scheduler CPU time is measured, not
 * used).
 */
public final class KhannaSimulation implements Model<KhannaSimulation.Metrics> {
  /** The simulator model name in {@link RunResult#model()}. */
  public static final String MODEL = "khanna";

  /** One run's settings: a policy by name with its parameters, P compute nodes, cache size. */
  public record Config(String policy, Map<String, String> params, int computeNodes,
      long cacheBytes) {
    public Config {
      params = Map.copyOf(params);
      if (computeNodes < 1 || cacheBytes < 0) {
        throw new IllegalArgumentException("need ≥ 1 compute node and a cache ≥ 0 bytes");
      }
    }

    /** The spec's defaults (§5): 15 GiB caches. */
    public static Config of(String policy, int computeNodes) {
      return new Config(policy, Map.of(), computeNodes, 15L << 30);
    }
  }

  /** One job's times (spec §1.3): start = first transfer start, or compute start if all local. */
  public record JobTimes(String jobId, double arrival, double start, double completion) {
    public double waitTime() {
      return start - arrival;
    }

    public double execTime() {
      return completion - start;
    }

    public double response() {
      return completion - arrival;
    }
  }

  /** What a run measured (spec §6) beyond the {@link RunResult}'s common fields. */
  public record Metrics(double averageResponse, double averageWait, double averageExec,
      double lastCompletion, long stagingTransfers, long replicationTransfers, long evictedFiles,
      List<JobTimes> perJob) {
    public long remoteTransfers() {
      return stagingTransfers + replicationTransfers;
    }
  }

  private final Config cfg;
  private final Iterable<TraceJob> jobs;
  private final Scheduler sched;
  private final CostModel cost;
  private final TransferEngine transfers;
  private EventQueue events;
  private final Map<String, Set<String>> present = new HashMap<>();
  private final Map<String, Set<String>> inFlight = new HashMap<>();
  private final Map<String, Task> runningOn = new HashMap<>();
  private final Map<String, Set<String>> waitingFor = new HashMap<>();
  /** JDPDLL: the files a node's job fetches itself (its Start is the first of these to start). */
  private final Map<String, Set<String>> ownFetches = new HashMap<>();
  private final Map<String, Double> arrival = new HashMap<>();
  private final Map<String, Double> start = new HashMap<>();
  private final Map<String, JobTimes> done = new LinkedHashMap<>();
  private long staging;
  private long replicas;
  private long evicted;
  private long cpuNanos;
  private final ThreadMXBean mx = ManagementFactory.getThreadMXBean();

  private KhannaSimulation(Config cfg, Iterable<TraceJob> jobs) {
    this.cfg = cfg;
    this.jobs = jobs;
    this.cost = CostModel.fromParams(cfg.params());
    this.sched = new Scheduler("khanna", new PoolState(),
        Policies.create(cfg.policy(), cfg.params()));
    this.transfers = new TransferEngine(cost);
  }

  /** Runs every job of the trace to completion (D30) and returns the spec's metrics. */
  public static RunResult<Metrics> run(Iterable<TraceJob> jobs, Config cfg) {
    return new Engine().run(new KhannaSimulation(cfg, jobs));
  }

  @Override
  public void start(Engine engine) {
    events = engine.queue();
    for (int k = 1; k <= cfg.computeNodes(); k++) {
      sched.onNodeRegistered("n" + k, 1, cfg.cacheBytes(), null, 0);
    }
    long seq = 0;
    for (TraceJob j : jobs) {
      Task t = new Task(j.jobId(), j.jobId(), 0, ++seq, j.inputs(), 0.0, j.arrival(), null,
          List.of(), j.priorityOr(0));
      arrival.put(t.taskId(), j.arrival());
      events.schedule(j.arrival(), () -> timed(() -> sched.applyJobArrival(t)));
    }
  }

  /** Done when nothing is pending: replicas may still land after the last completion. */
  @Override
  public boolean finished() {
    return events.live() == 0;
  }

  /** The one dispatch of the instant; then the transfer engine starts what it can. */
  @Override
  public void afterInstant(double t) {
    List<Command> cmds = timed(() -> sched.dispatch(t));
    execute(cmds, t);
    for (TransferEngine.Transfer tr : transfers.start(t)) {
      start.putIfAbsent(jobFetching(tr.node(), tr.file()), tr.start());
      events.schedule(tr.end(), () -> transferEnded(tr.file(), tr.node(), tr, tr.end()));
    }
  }

  @Override
  public RunResult<Metrics> result(Engine.Outcome outcome) {
    if (done.size() != arrival.size()) {
      throw new IllegalStateException("only " + done.size() + " of " + arrival.size()
          + " jobs completed under " + cfg.policy());
    }
    List<JobTimes> times = new ArrayList<>(done.values());
    double resp = 0;
    double wait = 0;
    double exec = 0;
    double last = 0;
    for (JobTimes t : times) {
      resp += t.response();
      wait += t.waitTime();
      exec += t.execTime();
      last = Math.max(last, t.completion());
    }
    int n = times.size();
    String policy = sched.policy().name();
    return RunResult.of(MODEL, policy, policy, outcome, n, cpuNanos / 1e9,
        new Metrics(resp / n, wait / n, exec / n, last, staging, replicas, evicted, times));
  }

  /** Scheduler CPU time: every call into the policy core (host measurement, never used). */
  private <T> T timed(Supplier<T> call) {
    long t0 = mx.getCurrentThreadCpuTime();
    T r = call.get();
    cpuNanos += mx.getCurrentThreadCpuTime() - t0;
    return r;
  }

  private Set<String> set(Map<String, Set<String>> m, String node) {
    return m.computeIfAbsent(node, k -> new HashSet<>());
  }

  private void completed(Task job, String node, double t) {
    if (timed(() -> sched.applyTaskCompleted(job.taskId(), job.attempt(), node, 0, 0, 0))
        != PoolState.EndOutcome.COMPLETED) {
      throw new IllegalStateException("completion of " + job.taskId() + " not accepted");
    }
    runningOn.remove(node);
    done.put(job.taskId(), new JobTimes(job.taskId(), arrival.get(job.taskId()),
        start.get(job.taskId()), t));
  }

  private void completeAt(double time, Task job, String node) {
    events.schedule(time, () -> completed(job, node, time));
  }

  /** The job a transfer is for; a replica is for no job and starts nobody. */
  private String jobFetching(String node, String file) {
    Task j = runningOn.get(node);
    Set<String> own = ownFetches.get(node);
    if (j != null && own != null && own.contains(file)) {
      return j.taskId();
    }
    return "\u0000replica";
  }

  private void transferEnded(String file, String node, TransferEngine.Transfer tr, double t) {
    if (tr != null) {
      transfers.finish(tr);
    }
    if (!set(inFlight, node).remove(file)) {
      throw new IllegalStateException(file + " was not in flight to " + node);
    }
    set(present, node).add(file);
    timed(() -> sched.applyTransferEnd(file, node));
    Set<String> w = waitingFor.get(node);
    if (w != null && w.remove(file) && w.isEmpty()) {
      waitingFor.remove(node);
      Task job = runningOn.get(node);
      completeAt(t + cost.readComputeSeconds(job.totalBytes()), job, node);
    }
  }

  private void execute(List<Command> cmds, double t) {
    for (Command c : cmds) {
      if (c instanceof Command.Evict ev) {
        for (String f : ev.files()) {
          if (!set(present, ev.node()).remove(f)) {
            throw new IllegalStateException("evicted " + f + " is not present on " + ev.node());
          }
        }
        evicted += ev.files().size();
      } else if (c instanceof Command.Run r) {
        if (runningOn.put(r.node(), r.task()) != null) {
          throw new IllegalStateException("two jobs on " + r.node());
        }
        if (r.hasPlannedCompletion()) {
          runGantt(r, t);
        } else {
          runFifo(r, t);
        }
      } else if (c instanceof Command.Replicate rep) {
        set(inFlight, rep.node()).add(rep.unit().id());
        transfers.submit(rep.unit().id(), rep.unit().bytes(), cost.storageOf(rep.unit()),
            rep.node());
        replicas++;
      } else {
        throw new IllegalStateException("unexpected command " + c);
      }
    }
  }

  /** Gantt policies: transfers exactly as reserved; completion = the planned ECT. */
  private void runGantt(Command.Run r, double t) {
    double first = Double.POSITIVE_INFINITY;
    for (InputFetch in : r.inputs()) {
      if (in.reservation() == null) {
        continue;
      }
      InputFetch.Reservation res = in.reservation();
      set(inFlight, r.node()).add(in.unit().id());
      String file = in.unit().id();
      events.schedule(res.end(), () -> transferEnded(file, r.node(), null, res.end()));
      first = Math.min(first, res.start());
      staging++;
    }
    start.put(r.task().taskId(), first == Double.POSITIVE_INFINITY ? t : first);
    completeAt(r.plannedCompletion(), r.task(), r.node());
  }

  /** JDPDLL: missing inputs through the FIFO engine; read + compute once all are on the node. */
  private void runFifo(Command.Run r, double t) {
    Set<String> waiting = new HashSet<>();
    Set<String> own = new HashSet<>();
    for (InputFetch in : r.inputs()) {
      InputFile u = in.unit();
      if (in.source() == InputSource.STORAGE) {
        set(inFlight, r.node()).add(u.id());
        transfers.submit(u.id(), u.bytes(), cost.storageOf(u), r.node());
        waiting.add(u.id());
        own.add(u.id());
        staging++;
      } else if (!set(present, r.node()).contains(u.id())) {
        waiting.add(u.id()); // a replica on its way
      }
    }
    ownFetches.put(r.node(), own);
    if (own.isEmpty()) {
      start.put(r.task().taskId(), t); // nothing to fetch: Start = now (§2.7)
    }
    if (waiting.isEmpty()) {
      completeAt(t + cost.readComputeSeconds(r.task().totalBytes()), r.task(), r.node());
    } else {
      waitingFor.put(r.node(), waiting);
    }
  }
}
