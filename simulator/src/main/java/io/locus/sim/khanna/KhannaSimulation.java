package io.locus.sim.khanna;

import io.locus.core.Scheduler;
import io.locus.core.model.Command;
import io.locus.core.model.InputFile;
import io.locus.core.model.InputSource;
import io.locus.core.model.InputFetch;
import io.locus.core.model.Task;
import io.locus.core.policy.Policies;
import io.locus.core.staging.CostModel;
import io.locus.core.staging.TransferEngine;
import io.locus.core.state.PoolState;
import io.locus.workloads.TraceJob;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * The Khanna execution model (hypergraph spec §1.4, D34) in virtual time, driving the policy core
 * exactly as the {@link Scheduler} javadoc prescribes: Gantt-reserved transfers run exactly in
 * their reserved intervals; JDPDLL's transfers and replicas go through the FIFO
 * {@link TransferEngine} (one transfer per storage node and per destination ingress); a job reads
 * and computes once all its files are on its node; events of one instant are applied before one
 * dispatch (D1). Deterministic: no clock or randomness enters the model (the scheduler CPU time is
 * measured, not used).
 */
public final class KhannaSimulation {
  private static final int TRANSFER_END = 0;
  private static final int COMPLETION = 1;
  private static final int ARRIVAL = 2;

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

  /** What a run measured (spec §6). */
  public record Result(String policy, int jobs, double averageResponse, double averageWait,
      double averageExec, double lastCompletion, long stagingTransfers,
      long replicationTransfers, long evictedFiles, double schedulerCpuSeconds,
      List<JobTimes> perJob) {
    public long remoteTransfers() {
      return stagingTransfers + replicationTransfers;
    }
  }

  private record Ev(double time, long seq, int kind, String file, String node, Task task,
      TransferEngine.Transfer transfer) {}

  private final Scheduler sched;
  private final CostModel cost;
  private final TransferEngine engine;
  private final PriorityQueue<Ev> events =
      new PriorityQueue<>(Comparator.comparingDouble(Ev::time).thenComparingLong(Ev::seq));
  private long evSeq;
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
  private double now;
  private long cpuNanos;
  private final ThreadMXBean mx = ManagementFactory.getThreadMXBean();

  private KhannaSimulation(Scheduler sched, CostModel cost) {
    this.sched = sched;
    this.cost = cost;
    this.engine = new TransferEngine(cost);
  }

  /** Runs every job of the trace to completion (D30) and returns the spec's metrics. */
  public static Result run(Iterable<TraceJob> jobs, Config cfg) {
    CostModel cost = CostModel.fromParams(cfg.params());
    Scheduler s = new Scheduler("khanna", new PoolState(),
        Policies.create(cfg.policy(), cfg.params()));
    for (int k = 1; k <= cfg.computeNodes(); k++) {
      s.onNodeRegistered("n" + k, 1, cfg.cacheBytes(), null, 0);
    }
    KhannaSimulation sim = new KhannaSimulation(s, cost);
    long seq = 0;
    for (TraceJob j : jobs) {
      Task t = new Task(j.jobId(), j.jobId(), 0, ++seq, j.inputs(), 0.0, j.arrival(), null,
          List.of(), 0);
      sim.arrival.put(t.taskId(), j.arrival());
      sim.push(j.arrival(), ARRIVAL, null, null, t, null);
    }
    while (!sim.events.isEmpty()) {
      sim.step();
    }
    if (sim.done.size() != sim.arrival.size()) {
      throw new IllegalStateException("only " + sim.done.size() + " of " + sim.arrival.size()
          + " jobs completed under " + cfg.policy());
    }
    return sim.result(s.policy().name());
  }

  private Result result(String policy) {
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
    return new Result(policy, n, resp / n, wait / n, exec / n, last, staging, replicas, evicted,
        cpuNanos / 1e9, times);
  }

  private void push(double time, int kind, String file, String node, Task task,
      TransferEngine.Transfer tr) {
    events.add(new Ev(time, evSeq++, kind, file, node, task, tr));
  }

  private Set<String> set(Map<String, Set<String>> m, String node) {
    return m.computeIfAbsent(node, k -> new HashSet<>());
  }

  private void step() {
    double t = events.peek().time();
    now = t;
    long cpu0 = mx.getCurrentThreadCpuTime();
    while (!events.isEmpty() && events.peek().time() == t) {
      Ev e = events.poll();
      switch (e.kind()) {
        case TRANSFER_END -> transferEnded(e, t);
        case COMPLETION -> {
          Task job = e.task();
          if (sched.applyTaskCompleted(job.taskId(), job.attempt(), e.node(), 0, 0, 0)
              != PoolState.EndOutcome.COMPLETED) {
            throw new IllegalStateException("completion of " + job.taskId() + " not accepted");
          }
          runningOn.remove(e.node());
          done.put(job.taskId(), new JobTimes(job.taskId(), arrival.get(job.taskId()),
              start.get(job.taskId()), t));
        }
        default -> sched.applyJobArrival(e.task());
      }
    }
    List<Command> cmds = sched.dispatch(t);
    cpuNanos += mx.getCurrentThreadCpuTime() - cpu0;
    execute(cmds, t);
    for (TransferEngine.Transfer tr : engine.start(t)) {
      start.putIfAbsent(jobFetching(tr.node(), tr.file()), tr.start());
      push(tr.end(), TRANSFER_END, tr.file(), tr.node(), null, tr);
    }
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

  private void transferEnded(Ev e, double t) {
    if (e.transfer() != null) {
      engine.finish(e.transfer());
    }
    if (!set(inFlight, e.node()).remove(e.file())) {
      throw new IllegalStateException(e.file() + " was not in flight to " + e.node());
    }
    set(present, e.node()).add(e.file());
    sched.applyTransferEnd(e.file(), e.node());
    Set<String> w = waitingFor.get(e.node());
    if (w != null && w.remove(e.file()) && w.isEmpty()) {
      waitingFor.remove(e.node());
      Task job = runningOn.get(e.node());
      push(t + cost.readComputeSeconds(job.totalBytes()), COMPLETION, null, e.node(), job, null);
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
        engine.submit(rep.unit().id(), rep.unit().bytes(), cost.storageOf(rep.unit()), rep.node());
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
      push(res.end(), TRANSFER_END, in.unit().id(), r.node(), null, null);
      first = Math.min(first, res.start());
      staging++;
    }
    start.put(r.task().taskId(), first == Double.POSITIVE_INFINITY ? t : first);
    push(r.plannedCompletion(), COMPLETION, null, r.node(), r.task(), null);
  }

  /** JDPDLL: missing inputs through the FIFO engine; read + compute once all are on the node. */
  private void runFifo(Command.Run r, double t) {
    Set<String> waiting = new HashSet<>();
    Set<String> own = new HashSet<>();
    for (InputFetch in : r.inputs()) {
      InputFile u = in.unit();
      if (in.source() == InputSource.STORAGE) {
        set(inFlight, r.node()).add(u.id());
        engine.submit(u.id(), u.bytes(), cost.storageOf(u), r.node());
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
      push(t + cost.readComputeSeconds(r.task().totalBytes()), COMPLETION, null, r.node(),
          r.task(), null);
    } else {
      waitingFor.put(r.node(), waiting);
    }
  }
}
