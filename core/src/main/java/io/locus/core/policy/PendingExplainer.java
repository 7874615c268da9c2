package io.locus.core.policy;

import io.locus.core.model.PendingCode;
import io.locus.core.model.Task;
import io.locus.core.state.BackoffQueue;
import io.locus.core.state.NodeView;
import io.locus.core.state.PoolState;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * "Why pending" for a file pool (issue 23): every queued task gets the first {@link PendingCode}
 * that applies, in the code's declaration order, and a text. docs/policies.md, "Pending reasons",
 * gives the rule per policy.
 *
 * <ol>
 *   <li>Pool-wide, from the operator and the registry (one answer for the whole queue, O(1)):
 *       {@code paused}, {@code no-node}, {@code all-draining}. ({@code parents} is the workflow
 *       runner's: such a job is not in the pool yet.)</li>
 *   <li>{@code no-fit}: the policy reads resource profiles and no node could take this one
 *       ({@link ExplainsPending.Waits#fitsNoNode}).</li>
 *   <li>{@code backoff}: the task's last attempt failed and its next one waits out the pool's
 *       retry backoff ({@code PoolState#backoffQueue}, not in the queue): when it is released
 *       and which retry it is. Every parked task gets it (after the pool-wide codes and
 *       {@code no-fit}); no queued task does.</li>
 *   <li>{@code locality-wait}: some node could take a placement now, and the policy holds the task
 *       for a node that holds (or was chosen for) its data ({@link
 *       ExplainsPending.Waits#dataWait}): which node, until when, what it saves.</li>
 *   <li>{@code priority}: queued tasks of higher priority are ahead of it (how many).</li>
 *   <li>{@code no-free-slot}: otherwise; how many tasks are ahead of it.</li>
 * </ol>
 *
 * <p><b>Cost.</b> Meant for the operator's metrics timer, never per record. Only the head of the
 * queue is asked about its data ({@code locality-wait} costs about a task's holders): the first
 * tasks, at most {@link #EXACT_LIMIT} of them, while the holder visits they need (a task needs
 * 1 + Σ over its inputs of the nodes holding it) stay within {@link #HOLDER_BUDGET}. The rest are
 * counted by the cheap rule ({@code no-fit}, then {@code priority}, then {@code no-free-slot}),
 * which needs no cache lookup, and only the codes are counted (a text is built for the example
 * alone). A pass is O(queue + budget), never O(queue × nodes): measured on a shared 2-core
 * machine, 2 ms for a queue of 100,000 with every slot busy, 25 ms for 100,000 tasks of 40 input
 * files each held by 32 busy nodes while 32 others idle (MCH, GCC, COMPLEMENTARY_PLACE; the budget
 * is spent on the first 818 tasks). The task limit is above every data-aware policy's default
 * window (2,500): those policies never look further down the queue, so tasks past it are indeed
 * waiting their turn; tasks with many inputs held by many nodes spend the budget sooner.
 *
 * <p>Pure: no clock (time is {@code now}, the pool's record clock), no change to the pool.
 */
public final class PendingExplainer {
  /** Queued tasks asked about their data per pass, at most; those after get the cheap rule. */
  public static final int EXACT_LIMIT = 4096;
  /** Holder visits a pass may spend on data questions; the tasks after get the cheap rule. */
  public static final long HOLDER_BUDGET = 1L << 20;

  private PendingExplainer() {}

  /** The counts per code for a whole queue and the first reason worth showing. */
  public record Summary(Map<PendingCode, Integer> counts, Pending example) {
    /** The counts keyed by code ({@code no-free-slot}), codes with none left out. */
    public Map<String, Integer> byCode() {
      Map<String, Integer> out = new LinkedHashMap<>();
      counts.forEach((c, n) -> out.put(c.code(), n));
      return out;
    }

    public int count(PendingCode c) {
      return counts.getOrDefault(c, 0);
    }

    static Summary empty() {
      return new Summary(Collections.unmodifiableMap(new EnumMap<>(PendingCode.class)), null);
    }
  }

  /**
   * Per-task reasons out of a queue pass, for whoever keeps them current elsewhere (the scheduler
   * republishes a queued job's status when its code changed). The pass asks {@link #wants} for
   * every task with its code; only for a yes does it build the reason's text (the costly part),
   * so the caller bounds the work by how often it says yes.
   */
  public interface Refresh {
    /** Whether the reason of {@code t}, whose code is now {@code code}, is wanted. */
    boolean wants(Task t, PendingCode code);

    /** The reason of a task {@link #wants} said yes to. */
    void accept(Task t, Pending reason);
  }

  /** No per-task reasons wanted. */
  private static final Refresh NONE = new Refresh() {
    @Override
    public boolean wants(Task t, PendingCode code) {
      return false;
    }

    @Override
    public void accept(Task t, Pending reason) {}
  };

  /**
   * {@link #explainQueue(PoolState, Policy, boolean, double)}, also handing the reasons {@code
   * refresh} wants to it, in queue order.
   */
  public static Summary explainQueue(PoolState s, Policy policy, boolean paused, double now,
      Refresh refresh) {
    return explainQueue(s, policy, paused, now, EXACT_LIMIT, HOLDER_BUDGET, refresh);
  }

  /**
   * Explains the whole queue: counts per code (they sum to the queue length), and as the example
   * the pool-wide reason, else the first task (in queue order) whose code is not {@code
   * no-free-slot} (the normal queue has no example: null).
   */
  public static Summary explainQueue(PoolState s, Policy policy, boolean paused, double now) {
    return explainQueue(s, policy, paused, now, EXACT_LIMIT);
  }

  static Summary explainQueue(PoolState s, Policy policy, boolean paused, double now, int exact) {
    return explainQueue(s, policy, paused, now, exact, HOLDER_BUDGET);
  }

  static Summary explainQueue(PoolState s, Policy policy, boolean paused, double now, int exact,
      long budget) {
    return explainQueue(s, policy, paused, now, exact, budget, NONE);
  }

  static Summary explainQueue(PoolState s, Policy policy, boolean paused, double now, int exact,
      long budget, Refresh refresh) {
    // the tasks waiting out their retry backoff wait too: they count with the queue
    int queued = s.queueLength() + s.backoffLength();
    if (queued == 0) {
      return Summary.empty();
    }
    EnumMap<PendingCode, Integer> counts = new EnumMap<>(PendingCode.class);
    Pending pool = poolWide(s, paused, queued, null);
    if (pool != null) {
      counts.put(pool.code(), queued);
      if (refresh != NONE) {
        for (Task t : s.queue()) {
          if (refresh.wants(t, pool.code())) {
            refresh.accept(t, Pending.of(t.taskId(), pool.code(), pool.text()));
          }
        }
        for (BackoffQueue.Entry e : s.backoffQueue()) {
          if (refresh.wants(e.task(), pool.code())) {
            refresh.accept(e.task(), Pending.of(e.task().taskId(), pool.code(), pool.text()));
          }
        }
      }
      return new Summary(Collections.unmodifiableMap(counts), pool);
    }
    Walk w = new Walk(s, policy, now, exact, budget);
    Pending example = null;
    int[] n = new int[PendingCode.values().length];
    for (Task t : s.queue()) {
      // codes only (no text) for the whole queue; the text of the example alone
      PendingCode c = w.code(t);
      n[c.ordinal()]++;
      Pending full = null;
      if (example == null && c != PendingCode.NO_FREE_SLOT) {
        full = w.explainLast(t);
        example = full;
      }
      if (refresh.wants(t, c)) {
        refresh.accept(t, full != null ? full : w.explainLast(t));
      }
    }
    for (BackoffQueue.Entry e : s.backoffQueue()) {
      PendingCode c = w.view.fitsNoNode(e.task()) ? PendingCode.NO_FIT : PendingCode.BACKOFF;
      n[c.ordinal()]++;
      Pending full = null;
      if (example == null) {
        full = w.parked(e);
        example = full;
      }
      if (refresh.wants(e.task(), c)) {
        refresh.accept(e.task(), full != null ? full : w.parked(e));
      }
    }
    for (PendingCode c : PendingCode.values()) {
      if (n[c.ordinal()] > 0) {
        counts.put(c, n[c.ordinal()]);
      }
    }
    return new Summary(Collections.unmodifiableMap(counts), example);
  }

  /**
   * One queued task's reason, the same as {@link #explainQueue} counts it; null when it is not
   * queued. Costs at most {@link #EXACT_LIMIT} steps down the queue (each the size of a task's
   * inputs: no data question is asked of the tasks ahead) plus its own holders: a task further
   * down gets the cheap rule, and its text says "more than K" tasks are ahead (whether any of
   * them has a higher priority is exact: the queue is in priority order, so that is the head's
   * priority).
   */
  public static Pending explain(PoolState s, Policy policy, boolean paused, String taskId,
      double now) {
    Task t = s.queued(taskId);
    BackoffQueue.Entry parked = t == null ? s.parked(taskId) : null;
    if (t == null && parked == null) {
      return null;
    }
    Pending pool = poolWide(s, paused, s.queueLength() + s.backoffLength(), taskId);
    if (pool != null) {
      return pool;
    }
    Walk w = new Walk(s, policy, now, EXACT_LIMIT, HOLDER_BUDGET);
    if (parked != null) {
      return w.parked(parked);
    }
    if (w.queues != null) {
      // with queues a task's reason is its queue's, or its head's wait: no walk down the pool
      return w.view.fitsNoNode(t) ? w.noFit(t) : w.queues.explain(t);
    }
    Iterator<Task> it = s.queue().iterator();
    Task head = null;
    for (int i = 0; i < EXACT_LIMIT && it.hasNext(); i++) {
      Task q = it.next();
      head = head == null ? q : head;
      if (q.taskId().equals(taskId)) {
        return w.next(q);
      }
      w.skip(q);
    }
    // past the exact part: the cheap rule, without counting exactly how many are ahead
    if (w.view.fitsNoNode(t)) {
      return w.noFit(t);
    }
    if (head != null && head.priority() > t.priority()) {
      return new Pending(taskId, PendingCode.PRIORITY, "behind more than " + EXACT_LIMIT
          + " queued task(s), some of higher priority (its priority " + t.priority() + ")", null,
          Double.NaN, -1, -1);
    }
    return new Pending(taskId, PendingCode.NO_FREE_SLOT, w.turn("more than " + EXACT_LIMIT),
        null, Double.NaN, -1, -1);
  }

  /** paused, no-node or all-draining, for every queued task; null when none applies. */
  private static Pending poolWide(PoolState s, boolean paused, int queued, String taskId) {
    if (paused) {
      return Pending.of(taskId, PendingCode.PAUSED, "pool paused (PAUSE_POOL): " + queued
          + " queued task(s) wait for RESUME_POOL");
    }
    int nodes = s.nodes().size();
    if (nodes == 0) {
      return Pending.of(taskId, PendingCode.NO_NODE, "no node registered in the pool: " + queued
          + " queued task(s) wait for an agent of this pool to register");
    }
    for (NodeView n : s.nodes()) {
      if (!n.draining()) {
        return null;
      }
    }
    return Pending.of(taskId, PendingCode.ALL_DRAINING, "every node of the pool (" + nodes
        + ") is draining: " + queued + " queued task(s) wait for a node to resume or register");
  }

  /**
   * One pass down the queue, in queue order: position, tasks of higher priority ahead, and the
   * holder visits the data questions spent (the exact part ends at the first task that would
   * exceed the budget or the task limit).
   */
  private static final class Walk {
    final PoolState s;
    final double now;
    final int exact;
    final long budget;
    final ExplainsPending.Waits view;
    final boolean asks;
    final boolean canPlace;
    /** The pool's queues' reasons (issue 24), or null without queues. */
    final QueuePending queues;
    int position;
    int higher;
    int level;
    long visits;
    boolean spent;
    boolean lastAsked;

    Walk(PoolState s, Policy policy, double now, int exact, long budget) {
      this.s = s;
      this.now = now;
      this.exact = exact;
      this.budget = budget;
      this.asks = policy instanceof ExplainsPending;
      this.view = asks ? ((ExplainsPending) policy).waits(s, now) : ExplainsPending.NONE;
      this.canPlace = s.firstFree() != null;
      this.queues = QueuePending.of(s, policy, now);
    }

    /** The reason of {@code t}, the next task in queue order. */
    Pending next(Task t) {
      boolean ask = step(t);
      Pending p = classify(t, ask);
      position++;
      return p;
    }

    /** The code alone of {@code t}, the next task in queue order (what a count needs). */
    PendingCode code(Task t) {
      lastAsked = step(t);
      position++;
      if (view.fitsNoNode(t)) {
        return PendingCode.NO_FIT;
      }
      if (queues != null) {
        return queues.explain(t).code();
      }
      if (lastAsked && view.dataWait(t, position - 1) != null) {
        return PendingCode.LOCALITY_WAIT;
      }
      return higher > 0 ? PendingCode.PRIORITY : PendingCode.NO_FREE_SLOT;
    }

    /** The full reason of {@code t}, the task {@link #code} was just asked about. */
    Pending explainLast(Task t) {
      position--;
      Pending p = classify(t, lastAsked);
      position++;
      return p;
    }

    /** Steps over {@code t} (a task ahead of the one asked about) without explaining it. */
    void skip(Task t) {
      step(t);
      position++;
    }

    /** Moves the priority level and the budget to {@code t}; whether its data is asked about. */
    private boolean step(Task t) {
      if (position == 0 || t.priority() != level) {
        higher = position; // the queue is in priority order: all ahead are of higher priority
        level = t.priority();
      }
      if (!asks || !canPlace || spent || position >= exact) {
        return false;
      }
      long v = 1;
      for (io.locus.core.model.InputFile u : t.inputs()) {
        v += s.holders(u.id()).size();
      }
      if (visits + v > budget) {
        spent = true;
        return false;
      }
      visits += v;
      return true;
    }

    private Pending classify(Task t, boolean ask) {
      if (view.fitsNoNode(t)) {
        return noFit(t);
      }
      if (queues != null) {
        return queues.explain(t);
      }
      if (ask) {
        DataWait w = view.dataWait(t, position);
        if (w != null) {
          return new Pending(t.taskId(), PendingCode.LOCALITY_WAIT, waitText(w), w.node(),
              w.until(), w.bytesSaved(), -1);
        }
      }
      if (higher > 0) {
        return new Pending(t.taskId(), PendingCode.PRIORITY, "behind " + higher
            + " queued task(s) of higher priority (its priority " + t.priority() + ")", null,
            Double.NaN, -1, higher);
      }
      return new Pending(t.taskId(), PendingCode.NO_FREE_SLOT, turn(String.valueOf(position)),
          null, Double.NaN, -1, position);
    }

    /** The no-free-slot text with {@code ahead} tasks ahead. */
    String turn(String ahead) {
      return canPlace ? ahead + " queued task(s) ahead of it go first (the policy's order)"
          : slots() + "; " + ahead + " queued task(s) ahead of it";
    }

    /** A task waiting out its retry backoff: {@code no-fit} if nothing could take it, else backoff. */
    Pending parked(BackoffQueue.Entry e) {
      Task t = e.task();
      if (view.fitsNoNode(t)) {
        return noFit(t);
      }
      return new Pending(t.taskId(), PendingCode.BACKOFF, backoffText(s, e, now), null,
          e.until(), -1, -1);
    }

    Pending noFit(Task t) {
      return Pending.of(t.taskId(), PendingCode.NO_FIT, "its resource profile " + t.profile()
          + " exceeds every node (profiles are shares of one node)");
    }

    String slots() {
      return "every slot busy (" + s.busySlots() + "/" + s.registeredSlots() + ")";
    }

    private String waitText(DataWait w) {
      StringBuilder b = new StringBuilder("waiting for data holder ").append(w.node());
      if (Double.isNaN(w.until())) {
        b.append(" until it frees a slot (no deadline)");
      } else {
        b.append(" until t=").append(seconds(w.until())).append(" s (in ")
            .append(seconds(w.until() - now)).append(" s)");
      }
      b.append(", ").append(w.rule());
      if (w.bytesSaved() >= 0) {
        b.append("; the wait saves ").append(bytes(w.bytesSaved())).append(" of transfer");
      }
      return b.toString();
    }
  }

  /**
   * "retry 2 after backoff until 2026-11-28T12:00:40Z (in 12.0 s; 20.0 s after failure 2 of at
   * most 3 retries)". The time is the pool's record clock as an instant (event times are epoch
   * milliseconds), so a user can read it against job-status times.
   */
  static String backoffText(PoolState s, BackoffQueue.Entry e, double now) {
    int retry = s.failuresOf(e.task());
    return "retry " + retry + " (attempt " + e.task().attempt() + ") after backoff until "
        + java.time.Instant.ofEpochMilli(Math.round(e.until() * 1000)) + " (in "
        + seconds(Math.max(0, e.until() - now)) + " s; backoff "
        + seconds(s.retryBackoff().delay(retry)) + " s after failure " + retry + ")";
  }

  static String seconds(double s) {
    return String.format(Locale.ROOT, "%.1f", s);
  }

  /** A byte count in decimal units ("2.0 GB"). */
  public static String bytes(long b) {
    if (b < 1000) {
      return b + " B";
    }
    String[] units = {"kB", "MB", "GB", "TB", "PB", "EB"};
    double v = b;
    int u = -1;
    while (v >= 1000 && u < units.length - 1) {
      v /= 1000;
      u++;
    }
    return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
  }
}
