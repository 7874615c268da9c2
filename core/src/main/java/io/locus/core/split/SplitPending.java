package io.locus.core.split;

import io.locus.core.model.PendingCode;
import io.locus.core.policy.Pending;
import io.locus.core.policy.PendingExplainer;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Pending reasons of a split pool's queued work (docs/policies.md, "Pending reasons"): the units
 * {@link SplitPolicy#queuedWork()} counts (queued subjobs, and unfinished jobs with no subjob
 * yet), each given the first code that applies:
 * <ul>
 *   <li>{@code no-node}: the pool has no node;</li>
 *   <li>{@code locality-wait}: a job DELAYED or ADAPTIVE_DELAY holds until its period ends (so
 *       the period's jobs on one stripe read it from tape once), until that time; or, while a node
 *       is idle, a piece queued privately on the node that caches its range (CACHE_JOB_SPLITTING,
 *       OUT_OF_ORDER): that node, until OUT_OF_ORDER's starvation guard (arrival + T_starve) or
 *       with no deadline, saving its events' bytes from tape;</li>
 *   <li>{@code no-free-slot}: otherwise (split jobs have no priority, nodes one slot).</li>
 * </ul>
 * One pass is O(subjobs + jobs + nodes), on the metrics timer; nothing here changes the policy.
 */
final class SplitPending {
  private final SplitPolicy policy;
  private final SplitState state;
  private final double now;
  /** Private queue → its node, built once per pass. */
  private final Map<SubjobQueue, SplitNode> owners = new IdentityHashMap<>();
  private final int idle;

  SplitPending(SplitPolicy policy) {
    this.policy = policy;
    this.state = policy.state;
    this.now = state.now;
    int free = 0;
    for (SplitNode v : state.nodes.values()) {
      owners.put(v.queue, v);
      if (v.running == null) {
        free++;
      }
    }
    this.idle = free;
  }

  PendingExplainer.Summary summary() {
    EnumMap<PendingCode, Integer> counts = new EnumMap<>(PendingCode.class);
    Pending example = null;
    Set<String> withSubjob = new HashSet<>();
    for (Subjob x : state.live.values()) {
      withSubjob.add(x.job.id);
      if (x.node == null) {
        Pending p = subjob(x);
        counts.merge(p.code(), 1, Integer::sum);
        example = example == null && p.code() != PendingCode.NO_FREE_SLOT ? p : example;
      }
    }
    for (JobState j : state.jobs.values()) {
      if (!j.finished() && j.active == 0 && !withSubjob.contains(j.id)) {
        Pending p = job(j);
        counts.merge(p.code(), 1, Integer::sum);
        example = example == null && p.code() != PendingCode.NO_FREE_SLOT ? p : example;
      }
    }
    return new PendingExplainer.Summary(Collections.unmodifiableMap(counts), example);
  }

  /** The reason of a queued subjob (by subjob id) or a job with no subjob (by job id); or null. */
  Pending of(String id) {
    Subjob x = state.live.get(id);
    if (x != null) {
      return x.node == null ? subjob(x) : null;
    }
    JobState j = state.jobs.get(id);
    if (j == null || j.finished() || j.active > 0) {
      return null;
    }
    for (Subjob y : state.live.values()) {
      if (y.job == j) {
        return null; // its work is queued as subjobs, each with its own reason
      }
    }
    return job(j);
  }

  private Pending job(JobState j) {
    if (state.nodes.isEmpty()) {
      return noNode(j.id);
    }
    if (j.released > now) {
      return new Pending(j.id, PendingCode.LOCALITY_WAIT, policy.name() + " holds it until its "
          + "period ends at t=" + fmt(j.released) + " s (in " + fmt(j.released - now)
          + " s), so the period's jobs on one stripe read it from tape once", null, j.released,
          -1, -1);
    }
    return busy(j.id);
  }

  private Pending subjob(Subjob x) {
    if (state.nodes.isEmpty()) {
      return noNode(x.id);
    }
    SplitNode owner = x.queue == null ? null : owners.get(x.queue);
    if (owner != null && owner.running != null && idle > 0) {
      boolean guard = policy.name().equals("OUT_OF_ORDER");
      double until = guard ? x.job.arrival + policy.params().starveSeconds() : Double.NaN;
      long bytes = (long) (x.length() * policy.params().eventBytes());
      String when = guard && until > now ? " until t=" + fmt(until) + " s (starvation guard)"
          : " until it frees (no deadline)";
      return new Pending(x.id, PendingCode.LOCALITY_WAIT, "waiting for node " + owner.id
          + ", which caches its events," + when + "; the wait saves "
          + PendingExplainer.bytes(bytes) + " of tape reads", owner.id,
          guard && until > now ? until : Double.NaN, bytes, -1);
    }
    return busy(x.id);
  }

  private Pending noNode(String id) {
    return new Pending(id, PendingCode.NO_NODE, "no node registered in the pool", null,
        Double.NaN, -1, -1);
  }

  private Pending busy(String id) {
    int n = state.nodes.size();
    String text = idle == 0 ? "every node busy (" + n + "/" + n + ")"
        : "queued; " + idle + " idle node(s) take work at the next event";
    return new Pending(id, PendingCode.NO_FREE_SLOT, text, null, Double.NaN, -1, -1);
  }

  private static String fmt(double s) {
    return String.format(java.util.Locale.ROOT, "%.1f", s);
  }
}
