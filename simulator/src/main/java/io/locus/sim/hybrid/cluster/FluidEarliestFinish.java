package io.locus.sim.hybrid.cluster;

import io.locus.core.model.Resource;
import io.locus.core.model.ResourceVector;
import io.locus.workloads.HybridJob;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * EFT-FLUID, EFT's form in cluster mode (issue 16): the rule of Locus's file policy, a job goes
 * where the response time it adds is least, priced with the fluid model of §1.4 instead of bytes
 * to move. A simulator scheduler, not a registered policy: its own name keeps it apart from the
 * deployable EFT ({@link io.locus.core.policy.EarliestFinish}) in tables and logs.
 *
 * <p>Waiting jobs are considered in submission order (a job that waits does not block the ones
 * behind it). For job j and node k, with the node's running jobs as they are now (no later
 * arrivals):
 *
 * <ul>
 *   <li><b>start now</b> costs j's own time to finish on k plus the time its start adds to each
 *       job already there, both from the fluid model run forward on k with and without j (the
 *       sum of completion times the start adds). Memory is a hard constraint (D7): j may start on
 *       k only if the node's memory holds it; CPU, disk and network may be overcommitted, since
 *       their contention is what the price counts;
 *   <li><b>wait</b> costs the time until some node's running jobs (run forward the same way)
 *       leave j room to run unslowed, plus j's standalone time; waiting slows nobody.
 * </ul>
 *
 * j starts on the cheapest node (ties: lowest id) unless waiting is cheaper. So an idle node (or
 * one whose load leaves j room) is taken at once; with every node loaded, a job shares one when
 * the slowdown it causes and suffers costs less than the wait, which is what decides between
 * FIRST_FIT (never share) and the profile-blind slots (always share two) at a given load. No
 * constant: the prices are seconds of response time. The scheduler keeps its own copy of the
 * fluid model's state (the remaining work of what it started), advanced at every event: the
 * same model the spec defines, fed by its own starts and the cluster's completions; durations
 * and profiles are the jobs' declared ones (T_j, p_j, κ_j).
 */
public final class FluidEarliestFinish implements OnlineScheduler {
  /** The label it prints. */
  public static final String NAME = "EFT-FLUID";

  private final TreeMap<Long, HybridJob> queue = new TreeMap<>();
  /** The duration every job is priced at, or NaN to price each at its declared T_j. */
  private final double assumedDuration;
  /** What runs, by job id, in start order: node, shares of its node, remaining standalone work. */
  private final Map<String, Work> running = new LinkedHashMap<>();
  private double last;

  /** A running (or forecast) job: standalone work left, its node shares and κ. */
  private static final class Work {
    final String node;
    final ResourceVector share;
    final double kappa;
    double remaining;
    double rate;

    Work(String node, ResourceVector share, double kappa, double remaining) {
      this.node = node;
      this.share = share;
      this.kappa = kappa;
      this.remaining = remaining;
    }

    Work copy() {
      Work w = new Work(node, share, kappa, remaining);
      w.rate = rate;
      return w;
    }
  }

  /** Prices each job at its declared duration T_j. */
  public FluidEarliestFinish() {
    this(Double.NaN);
  }

  /**
   * Prices every job at {@code assumedDuration} seconds instead of its own T_j (NaN: its own):
   * the ablation that shows what knowing durations is worth.
   */
  public FluidEarliestFinish(double assumedDuration) {
    if (!Double.isNaN(assumedDuration) && !(assumedDuration > 0)) {
      throw new IllegalArgumentException("assumed duration must be > 0, got " + assumedDuration);
    }
    this.assumedDuration = assumedDuration;
  }

  @Override
  public String name() {
    return Double.isNaN(assumedDuration) ? NAME : NAME + " (durations unknown)";
  }

  private double duration(HybridJob j) {
    return Double.isNaN(assumedDuration) ? j.duration() : assumedDuration;
  }

  @Override
  public void arrive(HybridJob job) {
    if (queue.putIfAbsent(job.seq(), job) != null) {
      throw new IllegalArgumentException("submission sequence " + job.seq() + " already waiting");
    }
  }

  @Override
  public int waiting() {
    return queue.size();
  }

  @Override
  public List<Start> dispatch(HybridCluster cluster, double now) {
    advance(cluster, now);
    List<Start> starts = new ArrayList<>();
    for (Iterator<HybridJob> it = queue.values().iterator(); it.hasNext(); ) {
      HybridJob j = it.next();
      HybridCluster.Node k = choose(cluster, j, now);
      if (k != null) {
        cluster.start(j.id(), k.id(), j.demand());
        Work w = new Work(k.id(), j.demand().dividedBy(k.capacity()), j.kappa(), duration(j));
        running.put(j.id(), w);
        rate(onNode(running.values(), k.id()));
        it.remove();
        starts.add(new Start(j, k.id()));
      }
    }
    return starts;
  }

  /** The node to start j on now, or null when waiting is cheaper (or no node's memory holds j). */
  HybridCluster.Node choose(HybridCluster cluster, HybridJob j, double now) {
    HybridCluster.Node best = null;
    double bestCost = Double.POSITIVE_INFINITY;
    double roomAt = Double.POSITIVE_INFINITY;
    for (HybridCluster.Node k : cluster.nodes()) {
      ResourceVector p = j.demand().dividedBy(k.capacity());
      List<Work> there = onNode(running.values(), k.id());
      if (!memoryHolds(there, p)) {
        roomAt = Math.min(roomAt, now + roomIn(there, p));
        continue;
      }
      double cost = startCost(there, p, j.kappa(), duration(j));
      if (cost < bestCost) { // nodes come in lowest-id order: ties keep the lowest id
        best = k;
        bestCost = cost;
      }
      roomAt = Math.min(roomAt, now + roomIn(there, p));
    }
    double waitCost = roomAt - now + duration(j) * j.kappa();
    return best != null && bestCost <= waitCost ? best : null;
  }

  /**
   * Seconds of response time a start of j adds on a node running {@code there}: j's own time to
   * finish plus, for each job there, how much later it finishes (fluid model run forward).
   */
  static double startCost(List<Work> there, ResourceVector p, double kappa, double duration) {
    List<Work> without = copies(there);
    double before = sum(finishTimes(without));
    List<Work> with = copies(there);
    with.add(new Work("", p, kappa, duration));
    return sum(finishTimes(with)) - before;
  }

  /**
   * Seconds from now until the jobs {@code there} leave room for p to run unslowed (every
   * resource it uses at most full, its memory held), the fluid model run forward without new
   * starts.
   */
  static double roomIn(List<Work> there, ResourceVector p) {
    List<Work> w = copies(there);
    double t = 0;
    while (true) {
      if (fitsUnslowed(w, p)) {
        return t;
      }
      if (w.isEmpty()) {
        return Double.POSITIVE_INFINITY; // larger than the node itself
      }
      t += step(w, new ArrayList<>());
    }
  }

  private static boolean memoryHolds(List<Work> there, ResourceVector p) {
    return there.isEmpty() ? p.mem() <= 1 + ResourceVector.EPS
        : load(there).mem() + p.mem() <= 1 + ResourceVector.EPS;
  }

  private static boolean fitsUnslowed(List<Work> there, ResourceVector p) {
    if (!memoryHolds(there, p)) {
      return false;
    }
    ResourceVector l = load(there);
    for (Resource r : Resource.values()) {
      if (r != Resource.MEM && p.get(r) > 0 && l.get(r) + p.get(r) > 1 + ResourceVector.EPS) {
        return false;
      }
    }
    return true;
  }

  /** Completion times (from now) of every job in {@code w}, the fluid model run to the end. */
  private static double[] finishTimes(List<Work> w) {
    List<Work> left = new ArrayList<>(w);
    List<Work> ended = new ArrayList<>();
    double[] out = new double[w.size()];
    double t = 0;
    while (!left.isEmpty()) {
      ended.clear();
      t += step(left, ended);
      for (Work x : ended) {
        out[w.indexOf(x)] = t;
      }
    }
    return out;
  }

  /**
   * Runs {@code w} to its next completion at the rates of the fluid model, moves what ended into
   * {@code ended}, returns the time that took.
   */
  private static double step(List<Work> w, List<Work> ended) {
    rate(w);
    double dt = Double.POSITIVE_INFINITY;
    for (Work x : w) {
      dt = Math.min(dt, x.remaining / x.rate);
    }
    for (Iterator<Work> it = w.iterator(); it.hasNext(); ) {
      Work x = it.next();
      x.remaining -= x.rate * dt;
      if (x.remaining <= 1e-9 * Math.max(1, x.remaining + x.rate * dt)) {
        ended.add(x);
        it.remove();
      }
    }
    return dt;
  }

  /** The fluid model's rate of each job on a node ({@link FluidModel#rate}). */
  private static void rate(List<Work> node) {
    ResourceVector l = load(node);
    for (Work x : node) {
      x.rate = FluidModel.rate(x.share, l, x.kappa);
    }
  }

  private static ResourceVector load(List<Work> w) {
    ResourceVector sum = ResourceVector.ZERO;
    for (Work x : w) {
      sum = sum.plus(x.share);
    }
    return sum;
  }

  private static double sum(double[] xs) {
    double s = 0;
    for (double x : xs) {
      s += x;
    }
    return s;
  }

  private static List<Work> copies(List<Work> w) {
    List<Work> out = new ArrayList<>(w.size());
    for (Work x : w) {
      out.add(x.copy());
    }
    return out;
  }

  private static List<Work> onNode(Iterable<Work> all, String node) {
    List<Work> out = new ArrayList<>();
    for (Work x : all) {
      if (x.node.equals(node)) {
        out.add(x);
      }
    }
    return out;
  }

  /**
   * Brings the copy of the fluid state to {@code now}: every job progressed at the rate it had
   * since the last event (rates change only at starts and completions, and each is an event),
   * the ones the cluster no longer runs dropped, the rates of what is left recomputed.
   */
  private void advance(HybridCluster cluster, double now) {
    double dt = Math.max(0, now - last);
    last = Math.max(last, now);
    for (Work x : running.values()) {
      x.remaining = Math.max(0, x.remaining - x.rate * dt);
    }
    running.keySet().removeIf(id -> !cluster.isRunning(id));
    for (HybridCluster.Node k : cluster.nodes()) {
      rate(onNode(running.values(), k.id()));
    }
  }
}
