package io.locus.sim.hybrid;

import io.locus.core.model.Resource;
import io.locus.core.model.ResourceVector;
import io.locus.sim.engine.Engine;
import io.locus.sim.engine.Model;
import io.locus.sim.engine.RunResult;
import io.locus.sim.hybrid.cluster.FluidModel;
import io.locus.sim.hybrid.cluster.HybridCluster;
import io.locus.sim.hybrid.cluster.OnlineScheduler;
import io.locus.sim.hybrid.cluster.PowerModel;
import io.locus.workloads.HybridJob;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Cluster mode (§2.4, §2.5, D5) as a {@link Model} of the {@link Engine}: jobs arrive over time on
 * N nodes of capacity ⟨1, 1, 1, 1⟩ with headroom h; an {@link OnlineScheduler} starts them; the
 * {@link FluidModel} (κ = 1, D6) advances them; capacity is freed at completion. Arrivals are
 * events; completions are the fluid model's own timetable ({@link #nextDue}, {@link #runDue}).
 * Everything of one instant is applied before one dispatch. Deterministic: no clock, no
 * randomness.
 *
 * <p>Measured: response (completion − arrival), wait (start − arrival), slowdown (run time /
 * standalone duration; above 1 only where the fluid model slows co-located jobs), makespan (the
 * run's end time, the last completion; the first arrival is at ≥ 0), utilisation per resource (time
 * average over [0, makespan] of Σ_k min(1, load_k[r]) / N: delivered, so an overcommitted node
 * counts as 100 %), and busy node-seconds (time with at least one job, per node) for the energy of
 * §1.6.
 */
public final class ClusterSimulation implements Model<ClusterSimulation.Metrics> {
  /** The simulator model name in {@link RunResult#model()}. */
  public static final String MODEL = "hybrid-cluster";

  /** The cluster: {@code nodes} nodes of unit capacity, headroom {@code h} in every dimension. */
  public record Config(int nodes, double headroom) {
    public Config {
      if (nodes < 1) {
        throw new IllegalArgumentException("nodes must be >= 1, got " + nodes);
      }
      if (!(headroom > 0 && headroom <= 1)) {
        throw new IllegalArgumentException("headroom must be in (0, 1], got " + headroom);
      }
    }
  }

  /** What a run measured beyond the {@link RunResult} (whose end time is the makespan). */
  public record Metrics(double meanResponse, double meanWait, double meanSlowdown,
      double maxSlowdown, Map<Resource, Double> utilisation, double busyNodeSeconds, int nodes) {}

  private final List<HybridJob> jobs;
  private final OnlineScheduler scheduler;
  private final Config cfg;
  private final HybridCluster cluster;
  private final List<HybridCluster.Node> nodes;
  private final FluidModel fluid = new FluidModel();
  private final Map<String, HybridJob> byId = new HashMap<>();
  private final Map<String, Double> started = new HashMap<>();
  private final double[] usage = new double[Resource.values().length];
  private double busy;
  private double sumResponse;
  private double sumWait;
  private double sumSlowdown;
  private double maxSlowdown;
  private int done;
  private int arrived;

  private ClusterSimulation(List<HybridJob> jobs, OnlineScheduler scheduler, Config cfg) {
    this.jobs = jobs;
    this.scheduler = scheduler;
    this.cfg = cfg;
    this.cluster = new HybridCluster(cfg.nodes(), ResourceVector.uniform(1),
        ResourceVector.uniform(cfg.headroom()));
    this.nodes = cluster.nodes();
    for (HybridCluster.Node n : nodes) {
      fluid.addNode(n.id(), n.capacity());
    }
  }

  public static RunResult<Metrics> run(List<HybridJob> jobs, OnlineScheduler scheduler,
      Config cfg) {
    return new Engine().run(new ClusterSimulation(jobs, scheduler, cfg));
  }

  /** Arrivals as events, by arrival time then submission order. */
  @Override
  public void start(Engine engine) {
    List<HybridJob> byArrival = new ArrayList<>(jobs);
    byArrival.sort(Comparator.comparingDouble(HybridJob::arrival)
        .thenComparingLong(HybridJob::seq));
    for (HybridJob j : byArrival) {
      engine.queue().schedule(j.arrival(), () -> {
        arrived++;
        byId.put(j.id(), j);
        scheduler.arrive(j);
      });
    }
  }

  @Override
  public boolean finished() {
    return arrived == jobs.size() && fluid.running() == 0 && scheduler.waiting() == 0;
  }

  @Override
  public double nextDue() {
    return fluid.nextCompletion();
  }

  @Override
  public boolean busy() {
    return fluid.running() > 0;
  }

  /** Busy node-seconds and delivered utilisation over a stretch without events. */
  @Override
  public void elapse(double from, double to) {
    double dt = to - from;
    if (dt > 0) {
      for (HybridCluster.Node n : nodes) {
        if (n.jobs() > 0) {
          busy += dt;
          ResourceVector share = n.share();
          for (Resource r : Resource.values()) {
            usage[r.ordinal()] += Math.min(1, share.get(r)) * dt;
          }
        }
      }
    }
  }

  /** The fluid model's completions by {@code t} (it moves to every instant), in start order. */
  @Override
  public boolean runDue(double t) {
    List<String> ended = fluid.advanceTo(t);
    for (String id : ended) {
      cluster.finish(id);
      HybridJob j = byId.get(id);
      double start = started.get(id);
      sumResponse += t - j.arrival();
      sumWait += start - j.arrival();
      double slowdown = j.duration() == 0 ? 1 : (t - start) / j.duration();
      sumSlowdown += slowdown;
      maxSlowdown = Math.max(maxSlowdown, slowdown);
      done++;
    }
    return !ended.isEmpty();
  }

  @Override
  public void afterInstant(double t) {
    for (OnlineScheduler.Start s : scheduler.dispatch(cluster, t)) {
      HybridJob j = s.job();
      started.put(j.id(), t);
      fluid.start(j.id(), s.node(), j.demand(), j.duration(), j.kappa(), t);
    }
  }

  @Override
  public RunResult<Metrics> result(Engine.Outcome outcome) {
    if (!finished()) {
      throw new IllegalStateException(scheduler.name() + ": " + scheduler.waiting()
          + " jobs wait on an idle cluster; they fit no node");
    }
    double t = outcome.endTime();
    Map<Resource, Double> util = new EnumMap<>(Resource.class);
    for (Resource r : Resource.values()) {
      util.put(r, t == 0 ? 0 : usage[r.ordinal()] / (t * cfg.nodes()));
    }
    int n = Math.max(1, done);
    return RunResult.of(MODEL, scheduler.name(), scheduler.name(), outcome, done, Double.NaN,
        new Metrics(sumResponse / n, sumWait / n, sumSlowdown / n, maxSlowdown, util, busy,
            cfg.nodes()));
  }

  /**
   * E over a window ≥ the makespan with the §1.6 model, powering only nodes with a running job
   * (idle nodes off; chassis always on): ∫ P(x(t)) dt for the linear model is a0·W + a1·busy
   * node-seconds. In joules (W·s).
   */
  public static double energyJoules(RunResult<Metrics> r, PowerModel model, double window) {
    if (window < r.endTime() - 1e-9) {
      throw new IllegalArgumentException("window " + window + " shorter than the makespan "
          + r.endTime());
    }
    if (model.a2() != 0) {
      throw new IllegalArgumentException("only the linear model is integrable from busy "
          + "node-seconds");
    }
    return model.a0() * window + model.a1() * r.detail().busyNodeSeconds();
  }
}
