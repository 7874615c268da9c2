package io.locus.core.share;

import java.util.Locale;

/**
 * The pending reasons queues add (issue 24 item 4), as code and text, for the pending-reason pass
 * to give a queued task of {@code leaf} when its pool has queues ({@code
 * io.locus.core.policy.QueuePending}), under the registry's codes ({@code
 * io.locus.core.model.PendingCode}): {@value #QUEUE_LIMIT} ("queue at its limit"), {@value
 * #QUEUE_SHARE} ("behind queue X's share") and {@code locality-wait} with the queue's share in its
 * text.
 */
public final class QueueReasons {
  public static final String QUEUE_LIMIT = "queue-limit";
  public static final String QUEUE_SHARE = "queue-share";
  public static final String LOCALITY_WAIT = "locality-wait";

  private QueueReasons() {}

  /** A pending reason: its code and its text. */
  public record Reason(String code, String text) {}

  /**
   * Why a task of {@code leaf} is not started by fair share now, or null when its queue is the one
   * fair share serves first (then the pool's own reasons apply: priority, free slots, data wait).
   */
  public static Reason of(FairShare share, String leaf) {
    QueueTree tree = share.tree();
    for (String q : tree.lineage(leaf)) {
      QueueStanding s = share.standing(q);
      if (s.atLimit()) {
        String whose = q.equals(leaf) ? "queue '" + q + "'"
            : "queue '" + q + "' (above '" + leaf + "')";
        return new Reason(QUEUE_LIMIT, whose + " is at its limit (" + s.running() + " of "
            + s.limit() + " slots)");
      }
    }
    if (!share.canStart(leaf)) {
      if (share.standing(leaf).pending() == 0) {
        return null;
      }
      return new Reason(QUEUE_LIMIT, "queue '" + leaf + "': the free slots are kept for other "
          + "queues' guarantees (their lending limits)");
    }
    String first = share.next();
    if (first == null || first.equals(leaf)) {
      return null;
    }
    QueueStanding f = share.standing(first);
    QueueStanding me = share.standing(leaf);
    return new Reason(QUEUE_SHARE, "behind queue '" + first + "''s share (" + first + ": "
        + f.running() + " running, share " + num(f.fairShare()) + ", guaranteed "
        + num(f.guarantee()) + "; " + leaf + ": " + me.running() + " running, share "
        + num(me.fairShare()) + ")");
  }

  /** The text of a locality wait with queues: until when, and where the queue stands. */
  public static Reason localityWait(QueueStanding s, String node, double until) {
    return new Reason(LOCALITY_WAIT, "waiting for locality on " + node + " until t="
        + num(until) + " s (queue '" + s.queue() + "': " + s.running() + " running, share "
        + num(s.fairShare()) + ", guaranteed " + num(s.guarantee()) + ")");
  }

  private static String num(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }
}
