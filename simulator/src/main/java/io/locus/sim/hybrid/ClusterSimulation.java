package io.locus.sim.hybrid;

import io.locus.sim.hybrid.cluster.FluidModel;
import io.locus.sim.hybrid.cluster.HybridCluster;
import io.locus.workloads.HybridJob;
import io.locus.sim.hybrid.cluster.OnlineScheduler;
import io.locus.sim.hybrid.cluster.PowerModel;
import io.locus.core.model.Resource;
import io.locus.core.model.ResourceVector;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Cluster mode (§2.4, §2.5, D5): jobs arrive over time on N nodes of capacity ⟨1, 1, 1, 1⟩ with
 * headroom h; an {@link OnlineScheduler} starts them; the {@link FluidModel} (κ = 1, D6) advances
 * them; capacity is freed at completion. Events at equal times are applied together (completions,
 * then arrivals) before one dispatch. Deterministic: no clock, no randomness.
 *
 * <p>Measured: response (completion − arrival), wait (start − arrival), slowdown (run time /
 * standalone duration; above 1 only where the fluid model slows co-located jobs), makespan (last
 * completion; the first arrival is at ≥ 0), utilisation per resource (time average over
 * [0, makespan] of Σ_k min(1, load_k[r]) / N: delivered, so an overcommitted node counts as 100 %),
 * and busy node-seconds (time with at least one job, per node) for the energy of §1.6.
 */
public final class ClusterSimulation {
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

  /** What a run measured. */
  public record Result(String policy, int jobs, double makespan, double meanResponse,
      double meanWait, double meanSlowdown, double maxSlowdown, Map<Resource, Double> utilisation,
      double busyNodeSeconds, int nodes) {
    /**
     * E over a window ≥ the makespan with the §1.6 model, powering only nodes with a running job
     * (idle nodes off; chassis always on): ∫ P(x(t)) dt for the linear model is a0·W + a1·busy
     * node-seconds. In joules (W·s).
     */
    public double energyJoules(PowerModel model, double window) {
      if (window < makespan - 1e-9) {
        throw new IllegalArgumentException("window " + window + " shorter than the makespan "
            + makespan);
      }
      if (model.a2() != 0) {
        throw new IllegalArgumentException("only the linear model is integrable from busy "
            + "node-seconds");
      }
      return model.a0() * window + model.a1() * busyNodeSeconds;
    }

    public double throughputPerHour() {
      return makespan == 0 ? 0 : jobs / makespan * 3600;
    }
  }

  private ClusterSimulation() {}

  public static Result run(List<HybridJob> jobs, OnlineScheduler scheduler, Config cfg) {
    List<HybridJob> byArrival = new ArrayList<>(jobs);
    byArrival.sort(Comparator.comparingDouble(HybridJob::arrival)
        .thenComparingLong(HybridJob::seq));
    ResourceVector unit = ResourceVector.uniform(1);
    HybridCluster cluster = new HybridCluster(cfg.nodes(), unit,
        ResourceVector.uniform(cfg.headroom()));
    FluidModel fluid = new FluidModel();
    for (HybridCluster.Node n : cluster.nodes()) {
      fluid.addNode(n.id(), n.capacity());
    }
    Map<String, HybridJob> byId = new HashMap<>();
    Map<String, Double> started = new HashMap<>();
    double[] usage = new double[Resource.values().length];
    double busy = 0;
    double sumResponse = 0;
    double sumWait = 0;
    double sumSlowdown = 0;
    double maxSlowdown = 0;
    int done = 0;
    int next = 0;
    double t = 0;
    List<HybridCluster.Node> nodes = cluster.nodes();
    while (next < byArrival.size() || fluid.running() > 0 || scheduler.waiting() > 0) {
      double tArrival = next < byArrival.size() ? byArrival.get(next).arrival()
          : Double.POSITIVE_INFINITY;
      double tEnd = fluid.nextCompletion();
      double tn = Math.min(tArrival, tEnd);
      if (Double.isInfinite(tn)) {
        throw new IllegalStateException(scheduler.name() + ": " + scheduler.waiting()
            + " jobs wait on an idle cluster; they fit no node");
      }
      double dt = tn - t;
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
      t = tn;
      for (String id : fluid.advanceTo(t)) {
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
      while (next < byArrival.size() && byArrival.get(next).arrival() <= t) {
        HybridJob j = byArrival.get(next++);
        byId.put(j.id(), j);
        scheduler.arrive(j);
      }
      for (OnlineScheduler.Start s : scheduler.dispatch(cluster, t)) {
        HybridJob j = s.job();
        started.put(j.id(), t);
        fluid.start(j.id(), s.node(), j.demand(), j.duration(), j.kappa(), t);
      }
    }
    Map<Resource, Double> util = new java.util.EnumMap<>(Resource.class);
    for (Resource r : Resource.values()) {
      util.put(r, t == 0 ? 0 : usage[r.ordinal()] / (t * cfg.nodes()));
    }
    int n = Math.max(1, done);
    return new Result(scheduler.name(), done, t, sumResponse / n, sumWait / n, sumSlowdown / n,
        maxSlowdown, util, busy, cfg.nodes());
  }
}
