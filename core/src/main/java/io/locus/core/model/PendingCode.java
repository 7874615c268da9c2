package io.locus.core.model;

/**
 * Why a queued task is not placed now: the one registry of pending-reason codes, shared by the
 * policies (which know about data waits), the scheduler operator (which knows about pauses, nodes
 * and workflows), the job-status topic ({@code JobStatus.pendingCode}), the scheduler metrics
 * ({@code SchedulerMetrics.pendingByCode}), {@code locus status}, {@code locus job status} and the
 * dashboard. Modelled on Kueue's pending-workload conditions and HTCondor's {@code
 * -better-analyze}: every queued task has exactly one code, the first that applies in the order
 * below, and a text that says what it waits for (and, for a data wait, what the wait saves).
 */
public enum PendingCode {
  /** A workflow job whose parents have not all completed (not yet released to the scheduler). */
  PARENTS("parents", "parents not finished"),
  /** The pool is paused (PAUSE_POOL): nothing is placed until RESUME_POOL. */
  PAUSED("paused", "pool paused"),
  /** No node is registered in the pool. */
  NO_NODE("no-node", "no registered node"),
  /** Every registered node is draining. */
  ALL_DRAINING("all-draining", "every node draining"),
  /** No registered node has the resources the task asks for (its profile exceeds every node). */
  NO_FIT("no-fit", "no node with the resources"),
  /** A failed attempt waits out its retry backoff. */
  BACKOFF("backoff", "retry backoff"),
  /**
   * Pools with queues (issue 24): the task's queue, or one above it, is at its slot limit, or the
   * free slots are kept for other queues' guarantees (their lending limits).
   */
  QUEUE_LIMIT("queue-limit", "queue at its limit"),
  /** Pools with queues: fair share serves another queue first ("behind queue X's share"). */
  QUEUE_SHARE("queue-share", "behind another queue's share"),
  /**
   * The policy holds the task for a node that holds its data (delay scheduling, MCH's best
   * holder, CERN's delayed and adaptive delayed scheduling) until a time, to save transfer.
   */
  LOCALITY_WAIT("locality-wait", "waiting for a data holder"),
  /** Tasks of higher priority are ahead of it for the pool's free slots. */
  PRIORITY("priority", "behind higher priority"),
  /** Every slot it could use is busy: it waits its turn in the queue. */
  NO_FREE_SLOT("no-free-slot", "waiting for a free slot");

  private final String code;
  private final String label;

  PendingCode(String code, String label) {
    this.code = code;
    this.label = label;
  }

  /** The code as it appears on topics and in metrics ({@code no-free-slot}). */
  public String code() {
    return code;
  }

  /** A short human label ({@code waiting for a free slot}). */
  public String label() {
    return label;
  }

  /** The code named {@code code}, or null. */
  public static PendingCode of(String code) {
    for (PendingCode c : values()) {
      if (c.code.equals(code)) {
        return c;
      }
    }
    return null;
  }
}
