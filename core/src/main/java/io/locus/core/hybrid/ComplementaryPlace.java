package io.locus.core.hybrid;

import io.locus.core.model.InputFile;
import io.locus.core.model.Ids;
import io.locus.core.model.Resource;
import io.locus.core.model.ResourceVector;
import io.locus.core.model.Task;
import io.locus.core.policy.DataWait;
import io.locus.core.policy.Dispatch;
import io.locus.core.policy.ExplainsPending;
import io.locus.core.policy.StatefulPolicy;
import io.locus.core.state.NodeView;
import io.locus.core.state.PoolState;
import io.locus.core.state.RunningTask;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * COMPLEMENTARY_PLACE (hybrid spec §2.6, an extension for data-locality pools): the round-robin
 * per-resource lists choose <i>which</i> queued task goes next; a score of locality,
 * complementarity and peak load chooses <i>where</i>.
 *
 * <pre>
 * lists S_r, r ∈ [CPU, DISK, NET, MEM], sorted DESC by p_t[r] (stable); ptr persistent
 * t = first unplaced task of S_{R[ptr]}                          (head only)
 * C = free nodes (a free slot, not draining) with L_k + p_t ≤ h in every dimension
 * req = waited(t) &lt; D_node ? 1 : waited(t) &lt; D_rack ? 0.5 : 0
 * Cloc = { k ∈ C : loc(k, t) ≥ req }; empty → defer t (a miss)
 * k* = argmax w_loc·loc + w_comp·comp(L_k, p_t) − w_pk·max_r(L_k[r] + p_t[r])  (tie: lowest id)
 * soft anti-affinity: comp &lt; 0.3 and L_k[r] &gt; 0.5 and p_t[r] &gt; 0.5 on some r → − w_comp
 * the round ends after |R| consecutive misses
 * </pre>
 *
 * <p><b>Mappings to a Locus pool</b> (the spec leaves them to the locality policy):
 * <ul>
 *   <li>p_t is the task's profile ({@link Task#profile()}, from {@code JobSubmitted.profile}); a task
 *       without one gets the §2.8 cold start ⟨1, 0, 1⟩ and so runs alone on an idle node.
 *   <li>L_k = Σ profiles of the tasks running on k, derived from the pool state's running tasks at
 *       every dispatch (in task order, so the sum is bit-identical after a restore); nodes have
 *       capacity 1 in every dimension (profiles are shares of one node) and headroom h.
 *   <li>loc(k, t) = the share of t's input bytes k caches (1 for a task without inputs). Pools have
 *       no racks, so the spec's levels become thresholds on that share: 1 = every input is local
 *       (node-local), ≥ 0.5 = at least half of it is ("rack": most reads local, the rest from a
 *       peer or storage), 0 = any node. The share is also the score's locality term, as MCU's hit
 *       fraction is.
 *   <li>waited(t) = policy clock − the task's submit time; never the wall clock.
 *   <li>{@code delay=capped} (default): req is lowered to the best loc any registered node that
 *       is not draining offers, so a task defers only while a better node exists (busy or full);
 *       the better node's next completion re-dispatches, so no timer is needed. {@code
 *       delay=strict} is the pseudocode as written: a task whose data no node holds still waits
 *       D_rack; it needs a driver that dispatches on a clock (the streaming job's heartbeats).
 *   <li>An idle node takes any one task whose memory fits (the cold start "runs alone").
 *   <li>D14 aging: a task that waited more than {@code aging} seconds heads every list.
 *   <li>Only the first {@code window} queued tasks (queue order: highest priority first, oldest
 *       first within one) are listed, as in MCU, so a dispatch costs O(W log W), not O(queue).
 *   <li>Priority (docs/policies.md, "Priority") is the first key of every list, before D14 aging.
 * </ul>
 * The pointer is the policy's only memory besides the pool state ({@link StatefulPolicy}).
 */
public final class ComplementaryPlace implements StatefulPolicy, ExplainsPending {
  public static final String NAME = "COMPLEMENTARY_PLACE";
  public static final double DEFAULT_W_LOC = 1.0;
  public static final double DEFAULT_W_COMP = 0.5;
  public static final double DEFAULT_W_PK = 0.25;
  public static final double DEFAULT_HEADROOM = 0.9;
  public static final double DEFAULT_D_NODE = 3.0;
  public static final double DEFAULT_D_RACK = 6.0;
  /**
   * D14: a task waiting longer than 10 minutes heads every list. The simulator's cluster-mode
   * GREEDY_SORT_MERGE ages its jobs by the same constant.
   */
  public static final double DEFAULT_AGING_SECONDS = 600.0;

  /** How the locality requirement treats tasks whose data no node holds at the required level. */
  public enum Delay {
    CAPPED,
    STRICT
  }

  /**
   * The pool parameters of spec §2.6: weights, headroom, locality delays, aging, window; {@link
   * #of} validates them.
   */
  public record Tuning(double wLoc, double wComp, double wPk, double headroom, double dNode,
      double dRack, double aging, int window, Delay delay) {}

  private static final List<Resource> ORDER = Resource.CLUSTER_ORDER;
  private static final ResourceVector COLD_START = ResourceVector.coldStart(0);

  private final Tuning p;
  private final ResourceVector limit;
  private int ptr;

  public ComplementaryPlace(Tuning params) {
    this.p = params;
    this.limit = ResourceVector.uniform(params.headroom());
  }

  /** Defaults of §2.6 (h 0.9, w_loc 1, w_comp 0.5, w_pk 0.25, D_node 3 s, D_rack 6 s). */
  public static ComplementaryPlace defaults() {
    return of(Map.of(), 2500);
  }

  /**
   * From a pool's string parameters: {@code w_loc}, {@code w_comp}, {@code w_pk} (≥ 0), {@code h}
   * (0, 1], {@code D_node} ≥ 0, {@code D_rack} ≥ D_node (seconds), {@code aging} &gt; 0 seconds
   * (D14: 600; "Infinity" turns it off), {@code delay} capped | strict. Names are matched
   * case-insensitively; a bad value fails with what is wrong and the allowed range.
   */
  public static ComplementaryPlace of(Map<String, String> params, int window) {
    Map<String, String> lower = new HashMap<>();
    if (params != null) {
      params.forEach((k, v) -> lower.put(k.toLowerCase(Locale.ROOT), v));
    }
    double wLoc = number(lower, "w_loc", DEFAULT_W_LOC, 0, false, Double.MAX_VALUE,
        "a finite number >= 0");
    double wComp = number(lower, "w_comp", DEFAULT_W_COMP, 0, false, Double.MAX_VALUE,
        "a finite number >= 0");
    double wPk = number(lower, "w_pk", DEFAULT_W_PK, 0, false, Double.MAX_VALUE,
        "a finite number >= 0");
    double h = number(lower, "h", DEFAULT_HEADROOM, 0, true, 1, "in (0, 1]");
    double dNode = number(lower, "d_node", DEFAULT_D_NODE, 0, false, Double.MAX_VALUE,
        "a finite number of seconds >= 0");
    double dRack = number(lower, "d_rack", Math.max(DEFAULT_D_RACK, dNode), dNode, false,
        Double.MAX_VALUE, "a finite number of seconds >= D_node (" + dNode + ")");
    double aging = number(lower, "aging", DEFAULT_AGING_SECONDS, 0, true,
        Double.POSITIVE_INFINITY, "a number of seconds > 0 (Infinity turns aging off)");
    String d = lower.getOrDefault("delay", "capped").trim().toLowerCase(Locale.ROOT);
    Delay delay = switch (d) {
      case "capped" -> Delay.CAPPED;
      case "strict" -> Delay.STRICT;
      default -> throw new IllegalArgumentException(NAME + ": delay must be capped or strict, got '"
          + d + "'");
    };
    if (window < 1) {
      throw new IllegalArgumentException(NAME + ": window must be >= 1, got " + window);
    }
    return new ComplementaryPlace(new Tuning(wLoc, wComp, wPk, h, dNode, dRack, aging, window,
        delay));
  }

  private static double number(Map<String, String> params, String key, double dflt, double min,
      boolean minExclusive, double max, String range) {
    String v = params.get(key);
    if (v == null) {
      return dflt;
    }
    double x;
    try {
      x = Double.parseDouble(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(NAME + ": " + key + " must be " + range + ", got '" + v
          + "'");
    }
    boolean ok = !Double.isNaN(x) && (minExclusive ? x > min : x >= min) && x <= max
        && (max == Double.POSITIVE_INFINITY || Double.isFinite(x));
    if (!ok) {
      throw new IllegalArgumentException(NAME + ": " + key + " must be " + range + ", got '" + v
          + "'");
    }
    return x;
  }

  public Tuning params() {
    return p;
  }

  @Override
  public String name() {
    return NAME;
  }

  /** The list the pointer designates next. */
  public Resource pointer() {
    return ORDER.get(ptr);
  }

  @Override
  public String memory() {
    return Integer.toString(ptr);
  }

  @Override
  public void restoreMemory(String memory) {
    int v;
    try {
      v = Integer.parseInt(memory.trim());
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(NAME + ": not a pointer: '" + memory + "'");
    }
    if (v < 0 || v >= ORDER.size()) {
      throw new IllegalArgumentException(NAME + ": pointer " + v + " outside [0, "
          + (ORDER.size() - 1) + "]");
    }
    ptr = v;
  }

  /** A task's demand: its profile, or the §2.8 cold start. */
  public static ResourceVector demand(Task t) {
    return t.profile() != null ? t.profile() : COLD_START;
  }

  /** L_k for every node with running tasks, summed in task order (restore-stable). */
  public static Map<String, ResourceVector> loads(PoolState s) {
    List<RunningTask> rs = new ArrayList<>(s.running());
    rs.sort(Comparator.comparingLong((RunningTask r) -> r.task().seq())
        .thenComparing(r -> r.task().taskId()));
    Map<String, ResourceVector> out = new HashMap<>();
    for (RunningTask r : rs) {
      out.merge(r.node(), demand(r.task()), ResourceVector::plus);
    }
    return out;
  }

  /** loc(k, t): the share of t's input bytes node k caches; 1 for a task without inputs. */
  public static double loc(PoolState s, Task t, NodeView k) {
    long total = t.totalBytes();
    return total == 0 ? 1.0 : (double) s.cached(t, k) / total;
  }

  @Override
  public void dispatch(Dispatch d) {
    PoolState s = d.state();
    if (s.queueLength() == 0 || s.firstFree() == null) {
      return;
    }
    double now = d.now();
    List<Task> tasks = new ArrayList<>(Math.min(s.queueLength(), p.window()));
    for (Iterator<Task> it = s.queue().iterator(); it.hasNext() && tasks.size() < p.window(); ) {
      tasks.add(it.next());
    }
    List<List<Task>> lists = new ArrayList<>(ORDER.size());
    for (Resource r : ORDER) {
      List<Task> l = new ArrayList<>(tasks);
      l.sort(listOrder(r, now));
      lists.add(l);
    }
    int[] head = new int[ORDER.size()];
    Map<String, Boolean> placed = new HashMap<>();
    Map<String, ResourceVector> loads = loads(s);
    int misses = 0;
    while (misses < ORDER.size() && placed.size() < tasks.size() && s.firstFree() != null) {
      List<Task> list = lists.get(ptr);
      while (placed.containsKey(list.get(head[ptr]).taskId())) {
        head[ptr]++;
      }
      Task t = list.get(head[ptr]);
      NodeView k = choose(s, t, loads, now);
      if (k == null) {
        misses++; // defer(t): it stays at the head of its lists
      } else {
        d.place(t, k, NAME, true);
        loads.merge(k.id(), demand(t), ResourceVector::plus);
        placed.put(t.taskId(), Boolean.TRUE);
        misses = 0;
      }
      ptr = (ptr + 1) % ORDER.size();
    }
  }

  /**
   * Higher priority first; within a priority, aged tasks first (by submission), then demand of r
   * descending, then queue order. Priority heads every list, so a list's head is of lower priority
   * only once every higher-priority window task is placed: a deferred higher-priority task (no
   * node with its locality) holds its lists, and the round ends after |R| misses, as before.
   */
  private Comparator<Task> listOrder(Resource r, double now) {
    return Comparator.comparingInt((Task t) -> -t.priority())
        .thenComparing((Task t) -> now - t.submitTime() > p.aging() ? 0 : 1)
        .thenComparingDouble(t -> now - t.submitTime() > p.aging() ? 0 : -demand(t).get(r))
        .thenComparingLong(Task::queueRank);
  }

  /** k* for t, or null to defer it. */
  NodeView choose(PoolState s, Task t, Map<String, ResourceVector> loads, double now) {
    ResourceVector pt = demand(t);
    double req = required(s, t, now);
    NodeView best = null;
    double bestScore = Double.NEGATIVE_INFINITY;
    for (NodeView k : s.freePool()) {
      ResourceVector load = loads.getOrDefault(k.id(), ResourceVector.ZERO);
      if (!fits(k, load, pt)) {
        continue;
      }
      double loc = loc(s, t, k);
      if (loc < req - ResourceVector.EPS) {
        continue;
      }
      double score = score(load, pt, loc);
      if (best == null || score > bestScore
          || (score == bestScore && Ids.compare(k.id(), best.id()) < 0)) {
        best = k;
        bestScore = score;
      }
    }
    return best;
  }

  /** L_k + p ≤ h in every dimension; an idle node takes any one task whose memory fits. */
  boolean fits(NodeView k, ResourceVector load, ResourceVector pt) {
    if (load.plus(pt).fitsIn(limit)) {
      return true;
    }
    return k.busy() == 0 && pt.mem() <= 1 + ResourceVector.EPS;
  }

  /** w_loc·loc + w_comp·comp − w_pk·peak, minus w_comp under the soft anti-affinity rule. */
  double score(ResourceVector load, ResourceVector pt, double loc) {
    double comp = ResourceVector.comp(load, pt);
    double s = p.wLoc() * loc + p.wComp() * comp - p.wPk() * load.plus(pt).peak();
    if (comp < 0.3) {
      for (Resource r : Resource.values()) {
        if (load.get(r) > 0.5 && pt.get(r) > 0.5) {
          s -= p.wComp();
          break;
        }
      }
    }
    return s;
  }

  /**
   * Pending reasons (docs/policies.md): a task whose memory share exceeds one node fits no node
   * ({@link #fits}: not even an idle one); a window task waits for its data while the locality
   * level it must get now ({@link #required}) is above what every node that can take a placement
   * offers, until the level drops to that (submission + D_node or D_rack). The headroom fit and
   * the round's misses are not re-checked per task: the explanation costs the task's holders.
   */
  @Override
  public Waits waits(PoolState s, double now) {
    return new Waits() {
      @Override
      public boolean fitsNoNode(Task t) {
        return demand(t).mem() > 1 + ResourceVector.EPS;
      }

      @Override
      public DataWait dataWait(Task t, int position) {
        return position < p.window() ? localityWait(s, t, now) : null;
      }
    };
  }

  private DataWait localityWait(PoolState s, Task t, double now) {
    long total = t.totalBytes();
    double waited = now - t.submitTime();
    double level = waited < p.dNode() ? 1.0 : waited < p.dRack() ? 0.5 : 0.0;
    if (total == 0 || level == 0) {
      return null;
    }
    // one pass over t's distinct holders: the best of them (bestLoc's node) and the best that can
    // take a placement now
    long freeBest = 0;
    long best = 0;
    NodeView holder = null;
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (InputFile u : t.inputs()) {
      for (String id : s.holders(u.id())) {
        NodeView k = seen.add(id) ? s.node(id) : null;
        if (k == null || k.draining()) {
          continue;
        }
        long c = s.cached(t, k);
        if (PoolState.canTake(k)) {
          freeBest = Math.max(freeBest, c);
        }
        if (holder == null || c > best || (c == best && Ids.compare(id, holder.id()) < 0)) {
          holder = k;
          best = c;
        }
      }
    }
    // required(s, t, now), from the same pass: the level, capped by bestLoc unless strict
    double req = p.delay() == Delay.STRICT ? level : Math.min(level, (double) best / total);
    double freeLoc = (double) freeBest / total;
    if (holder == null || freeLoc >= req - ResourceVector.EPS || best <= freeBest) {
      return null;
    }
    double until = t.submitTime() + (freeLoc >= 0.5 - ResourceVector.EPS ? p.dNode() : p.dRack());
    if (until <= now) {
      return null;
    }
    return new DataWait(holder.id(), until, best - freeBest, NAME + "'s locality delay (needs "
        + (req >= 1 ? "all" : "half") + " of its bytes local until D_node/D_rack)");
  }

  /** The locality level t must get now (1, 0.5 or 0), capped by what exists (delay=capped). */
  double required(PoolState s, Task t, double now) {
    double waited = now - t.submitTime();
    double req = waited < p.dNode() ? 1.0 : waited < p.dRack() ? 0.5 : 0.0;
    if (req == 0 || p.delay() == Delay.STRICT) {
      return req;
    }
    return Math.min(req, bestLoc(s, t));
  }

  /** The best loc(k, t) over registered nodes that are not draining (busy ones included). */
  static double bestLoc(PoolState s, Task t) {
    long total = t.totalBytes();
    if (total == 0) {
      return 1.0;
    }
    long best = 0;
    for (InputFile u : t.inputs()) {
      for (String id : s.holders(u.id())) {
        NodeView k = s.node(id);
        if (k != null && !k.draining()) {
          best = Math.max(best, s.cached(t, k));
        }
      }
    }
    return (double) best / total;
  }
}
