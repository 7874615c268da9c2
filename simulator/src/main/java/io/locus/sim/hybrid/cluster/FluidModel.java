package io.locus.sim.hybrid.cluster;

import io.locus.core.model.Resource;
import io.locus.core.model.ResourceVector;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The continuous fluid model of §1.4 (cluster mode, D5, D6). A job j has standalone work T_j
 * seconds and demand p_j (shares of its node's capacity). On a node hosting S, load_r = Σ_{i∈S}
 * p_i[r] and j progresses at ρ_j = 1 / (κ_j · max(1, max_{r: p_j[r] > 0} load_r)). Memory is a
 * hard constraint of the fit test, not a rate, so it is left out of the rate. Rates are recomputed
 * at every start and completion; between them they are constant, so the model is exact.
 *
 * <p>Drive it in time order: {@link #start} at the start time, {@link #nextCompletion} to know the
 * next end, {@link #advanceTo} to move to a time and collect the jobs that end there.
 */
public final class FluidModel {
  /** A completion within this many seconds of work of the end counts as the end (rounding). */
  private static final double TOLERANCE = 1e-9;

  private final Map<String, ResourceVector> capacities = new HashMap<>();
  private final Map<String, Job> jobs = new LinkedHashMap<>();
  private double now;

  private static final class Job {
    final String id;
    final String node;
    final ResourceVector share;
    final double work;
    final double kappa;
    double remaining;
    double rate;

    Job(String id, String node, ResourceVector share, double work, double kappa) {
      this.id = id;
      this.node = node;
      this.share = share;
      this.work = work;
      this.kappa = kappa;
      this.remaining = work;
    }
  }

  /** A node and its capacity (the demand vectors are divided by it). */
  public void addNode(String id, ResourceVector capacity) {
    capacities.put(id, capacity);
  }

  public double now() {
    return now;
  }

  /** Starts job {@code id} on {@code node} at {@code at} (≥ the model's time) with T = work. */
  public void start(String id, String node, ResourceVector demand, double work, double kappa,
      double at) {
    ResourceVector cap = capacities.get(node);
    if (cap == null) {
      throw new IllegalArgumentException("unknown node " + node);
    }
    if (jobs.containsKey(id)) {
      throw new IllegalStateException("job " + id + " already runs");
    }
    if (!(work >= 0) || !(kappa >= 1)) {
      throw new IllegalArgumentException("work must be >= 0 and kappa >= 1");
    }
    progress(at);
    jobs.put(id, new Job(id, node, demand.dividedBy(cap), work, kappa));
    rerate(node);
  }

  /** The earliest completion time of a running job; +∞ when none runs. */
  public double nextCompletion() {
    double t = Double.POSITIVE_INFINITY;
    for (Job j : jobs.values()) {
      t = Math.min(t, j.remaining <= 0 ? now : now + j.remaining / j.rate);
    }
    return t;
  }

  /**
   * Moves to time {@code t} and returns the jobs that complete by then, in start order; their
   * nodes' rates are recomputed. Call with t ≤ {@link #nextCompletion()} to see every completion
   * at its own time.
   */
  public List<String> advanceTo(double t) {
    progress(t);
    List<String> done = new ArrayList<>();
    List<String> nodes = new ArrayList<>();
    for (Job j : jobs.values()) {
      if (j.remaining <= TOLERANCE * Math.max(1, j.work)) {
        done.add(j.id);
        if (!nodes.contains(j.node)) {
          nodes.add(j.node);
        }
      }
    }
    for (String id : done) {
      jobs.remove(id);
    }
    for (String n : nodes) {
      rerate(n);
    }
    return done;
  }

  /** The current rate of a running job (1 = its standalone speed). */
  public double rate(String id) {
    return job(id).rate;
  }

  /** The remaining work (standalone seconds) of a running job. */
  public double remaining(String id) {
    return job(id).remaining;
  }

  public int running() {
    return jobs.size();
  }

  /** load_r on a node as shares of its capacity (memory included, for reporting). */
  public ResourceVector load(String node) {
    ResourceVector sum = ResourceVector.ZERO;
    for (Job j : jobs.values()) {
      if (j.node.equals(node)) {
        sum = sum.plus(j.share);
      }
    }
    return sum;
  }

  private Job job(String id) {
    Job j = jobs.get(id);
    if (j == null) {
      throw new IllegalArgumentException("job " + id + " is not running");
    }
    return j;
  }

  private void progress(double t) {
    if (t < now) {
      throw new IllegalArgumentException("time goes back: " + t + " < " + now);
    }
    double dt = t - now;
    if (dt > 0) {
      for (Job j : jobs.values()) {
        j.remaining -= j.rate * dt;
      }
    }
    now = t;
  }

  private void rerate(String node) {
    ResourceVector load = load(node);
    for (Job j : jobs.values()) {
      if (j.node.equals(node)) {
        j.rate = rate(j.share, load, j.kappa);
      }
    }
  }

  /**
   * §1.4: ρ = 1 / (κ · max(1, max over the resources the job uses of the node's load)), memory
   * left out (a hard constraint, not a rate). {@code share} and {@code load} as shares of the
   * node's capacity, the load including the job itself.
   */
  public static double rate(ResourceVector share, ResourceVector load, double kappa) {
    double worst = 1.0;
    for (Resource r : Resource.values()) {
      if (r != Resource.MEM && share.get(r) > 0) {
        worst = Math.max(worst, load.get(r));
      }
    }
    return 1.0 / (kappa * worst);
  }
}
