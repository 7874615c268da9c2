package io.locus.core.split;

import java.util.List;

/**
 * What a split policy asks its driver to do (spec §9). Commands of one call are executed in list
 * order; acknowledgements of the SUSPENDs and SHRINKs in a list are passed back only after the
 * whole list has been taken in (a held RUN follows the stop it awaits in the same list).
 */
public sealed interface SplitCommand {
  /** The node the command is for. */
  String node();

  /** The subjob the command is about. */
  String subjobId();

  /**
   * RUN(node, subjob): process the events of {@code range} in increasing order, each at the cost of
   * its segment (the segments cover the range exactly, in order). The node's slot is taken in the
   * policy's model when this is emitted.
   *
   * <p>{@code awaitsAckOf} non-null: the range derives from a stop of that subjob which the agent
   * has not acknowledged yet, so it may still move. The driver must hold this command until it has
   * passed the acknowledgement to {@link SplitPolicy#acknowledgeStop}, which returns the command to
   * execute instead (same subjob id, possibly another range, {@code awaitsAckOf} null), or no RUN at
   * all when the range became empty.
   */
  record Run(String node, String subjobId, String jobId, EventSpan range,
      List<CostSegment> segments, String awaitsAckOf) implements SplitCommand {
    public Run {
      segments = List.copyOf(segments);
    }

    /** Σ of the per-event costs: the subjob's service time when nothing stops it. */
    public double cost() {
      return CostSegment.cost(segments);
    }

    public boolean held() {
      return awaitsAckOf != null;
    }
  }

  /**
   * SUSPEND(node, subjob): stop at once at the next event boundary and acknowledge the position
   * reached ({@link SplitPolicy#acknowledgeStop}); the event in progress is lost (D26). {@code
   * modelPosition} is where the policy's model believes the subjob is.
   */
  record Suspend(String node, String subjobId, long modelPosition) implements SplitCommand {}

  /**
   * SHRINK(node, subjob, newEnd): end the subjob at {@code newEnd} instead of its current end,
   * without losing work. An agent already past {@code newEnd} stops at its position. Either way it
   * acknowledges the end it will stop at ({@code >= newEnd}) and later reports the subjob's end
   * there.
   */
  record Shrink(String node, String subjobId, long newEnd) implements SplitCommand {}

  /**
   * CANCEL(node, subjob): the subjob's job was cancelled ({@link SplitPolicy#cancelJob}); stop it
   * at once, its work is not wanted. The node stays taken in the policy's model until the agent
   * reports the subjob's end ({@link SplitPolicy#onSubjobEnd}, any processed position), which
   * then only frees the node.
   */
  record Cancel(String node, String subjobId) implements SplitCommand {}
}
