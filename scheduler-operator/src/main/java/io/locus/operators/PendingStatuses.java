package io.locus.operators;

import io.locus.core.model.PendingCode;
import io.locus.core.model.Task;
import io.locus.core.policy.Pending;
import io.locus.core.policy.PendingExplainer;
import io.locus.schemas.JobState;
import io.locus.schemas.JobStatus;
import io.locus.schemas.state.PoolMeta;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps a file pool's queued jobs' status current: a job is QUEUED with a pending code when it
 * arrives or waits again (the pool-level code then: the dispatch has not run yet), and its reason
 * changes while it waits (a holder frees, a higher-priority job arrives, the pool is paused), so
 * on the metrics timer, from the same pass over the queue that counts the codes ({@link
 * PendingExplainer}), a QUEUED status is published again for each job whose code changed since
 * its last one: at most {@link #MAX_PER_TICK} per tick, the rest at the next ticks.
 *
 * <p>Heap only, per driver: what was last published per queued job. After a restart the first
 * ticks publish every queued job's reason once more (bounded the same way): a repeated QUEUED
 * with the current reason, never a transition the restored state did not make. These refreshes
 * come from a processing-time timer, so a replay after a restore may publish them at other
 * moments than the first run did; the transitions themselves are replayed exactly.
 */
final class PendingStatuses implements PendingExplainer.Refresh {
  /** QUEUED statuses re-published per metrics tick, at most (the job-status topic's share). */
  static final int MAX_PER_TICK = 1000;

  private final String pool;
  /** Job id → the code its last QUEUED status carried, for the jobs queued at the last pass. */
  private Map<String, PendingCode> published = new HashMap<>();
  private Map<String, PendingCode> seen;
  private final List<JobStatus> out = new ArrayList<>();
  private PoolMeta meta;

  PendingStatuses(String pool) {
    this.pool = pool;
  }

  /** A QUEUED status the driver publishes at a transition carries {@code code}. */
  void published(String jobId, String code) {
    PendingCode c = PendingCode.of(code);
    if (c != null) {
      published.put(jobId, c);
    }
  }

  /** Starts a pass over the queue at the pool's clock. */
  PendingStatuses begin(PoolMeta meta) {
    this.meta = meta;
    this.seen = new HashMap<>();
    out.clear();
    return this;
  }

  @Override
  public boolean wants(Task t, PendingCode code) {
    PendingCode before = published.get(t.jobId());
    seen.put(t.jobId(), before);
    return before != code && out.size() < MAX_PER_TICK;
  }

  @Override
  public void accept(Task t, Pending reason) {
    seen.put(t.jobId(), reason.code());
    out.add(JobStatuses.of(pool, meta, t, JobState.QUEUED)
        .setReason(reason.text())
        .setPendingCode(reason.code().code())
        // the job's queue, as its other statuses name it (PoolQueues stamps those on the way out;
        // these leave on the metrics timer, and the task knows its queue)
        .setQueue(t.queue())
        .build());
  }

  /**
   * Ends the pass: the statuses to publish. Jobs no longer queued are forgotten; {@code
   * complete} false (no pass over the queue ran) keeps what was known.
   */
  List<JobStatus> end(boolean complete) {
    if (complete && seen != null) {
      Map<String, PendingCode> next = new HashMap<>(seen.size() * 2);
      seen.forEach((job, code) -> {
        if (code != null) {
          next.put(job, code);
        }
      });
      published = next;
    }
    seen = null;
    List<JobStatus> r = List.copyOf(out);
    out.clear();
    return r;
  }
}
