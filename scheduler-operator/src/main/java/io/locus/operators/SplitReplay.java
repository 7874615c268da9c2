package io.locus.operators;

import io.locus.core.split.SplitCommand;
import io.locus.core.split.SplitPolicy;
import io.locus.schemas.Decision;
import io.locus.schemas.EventRange;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.codec.DeadLetterCodes;
import io.locus.schemas.state.PoolMeta;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reconciliation of a split pool (PROTOCOL-12, "At-least-once safety"): judges the task
 * events that are not about the attempt the core has on their node but that a replay after a
 * restore (or a node's re-registration read before its last events) explains, and says what the
 * driver applies. It works inside one input step of {@link SplitPoolDriver}, on that driver's
 * store, core, kept reports and output, so it reaches them through the driver.
 *
 * After a restore in at-least-once mode the placements made since the checkpoint are made again
 * (same decision id {@code pool/subjob/attempt} when the replay splits alike) while their nodes'
 * STARTED and COMPLETED come back in another order; and a node that is lost or registers again
 * has its subjob re-queued while its last events may still be on their way. As file pools ({@code
 * FilePoolDriver}), a split pool reconciles these instead of running the work again. Only
 * STARTED and COMPLETED naming the placement of their attempt, from a node of the pool, of a
 * subjob whose range and position are settled (not held, no stop pending, not derived from an
 * unacknowledged stop) are reconciled:
 * <ul>
 *   <li><b>Placed twice.</b> The attempt runs on another node in the core: a STARTED gets a
 *       CancelTask to its node (the pool's placement wins); a COMPLETED counts (the subjob ends
 *       on the core's node with the reported range) and the core's node gets the CancelTask.</li>
 *   <li><b>Spared attempt.</b> A COMPLETED of an older attempt of the subjob counts: a subjob is
 *       placed again under the same id only after its node was lost, left or registered again,
 *       never after a failure (a failed or partial run's remainder is a new subjob). If the
 *       subjob runs again, it ends there and that run is cancelled; if it is queued, see
 *       below.</li>
 *   <li><b>Queued subjob.</b> The core places subjobs only through its policy (each policy keeps
 *       its own queues), so a queued subjob is not moved onto the reporting node at once: a
 *       STARTED or COMPLETED of the attempt it will be placed at next (answering a placement of
 *       an earlier epoch), or a COMPLETED of a spared attempt, is kept ({@link
 *       SplitDriverState.Report}, state {@code split-replay-reports}) and judged when the policy
 *       places the subjob: a kept COMPLETED counts there (the subjob ends on the node it is
 *       placed on, the placement is not sent); a kept STARTED of another node gets that node a
 *       CancelTask and the placement goes out. A kept COMPLETED is dead-lettered {@code
 *       early-completion} when it is read (it acts later).</li>
 *   <li><b>Early completion.</b> A COMPLETED of a subjob the core does not know (its job's
 *       arrival not replayed yet, or not cut into that subjob yet), answering a placement of an
 *       earlier epoch, of a job not finished, is kept likewise (dead letter {@code
 *       early-completion}) and counts only if the subjob is placed on that node at that attempt;
 *       otherwise it is dropped (dead letter {@code early-completion}, "dropped") and the
 *       placement goes out. Kept reports expire after {@link EarlyCompletions#RETENTION_MS} of
 *       record clock.</li>
 * </ul>
 * <b>Stops.</b> Shrink and suspend decisions are numbered ({@code pool/suspend/N}), so a replay
 * makes their ids again, possibly for another subjob, and an agent that saw the id before drops
 * the new one as a duplicate. A SUSPENDED of the attempt the core has on that node, answering a
 * stop of an earlier epoch that is not the pending one, says the attempt runs no more: it ends
 * the attempt at its {@code stopAt} (acknowledging any stop pending for it) instead of leaving it
 * waiting for an answer that never comes. An acknowledgement (that one, or the answer to the
 * pending stop) whose {@code stopAt} lies outside the subjob's range as the core has it comes
 * from a run of another range under the same id (the replay cut the subjob otherwise and placed
 * it on the same node: the agent kept what it had): the attempt ends with nothing credited, its
 * range is queued again, and a run still going is cancelled ({@link #stoppedAnotherRange}).
 *
 * <p><b>Ranges.</b> A subjob's completion covers the event range it reports. It counts only if that
 * range starts at the subjob's start and ends within the subjob's range as the core has it now:
 * a queued subjob can be re-split between the placement an agent ran and the one replayed
 * (OUT_OF_ORDER cuts queued work for idle nodes; a replay in another order cuts differently), and
 * the events past its end then belong to other subjobs. Such a completion is refused (dead letter
 * {@code unknown-task} naming both ranges): each event is credited by exactly one subjob, so a
 * job's accepted completions tile its range, and the re-split events run again (at-least-once
 * only). When it comes from the node the core runs that attempt on and answers a placement of an
 * earlier epoch, with a range that reaches past the subjob's end or starts elsewhere (the agent
 * answered the replayed placement, which kept its decision id, as a
 * duplicate of the one it ran), the attempt is over: the subjob ends there with nothing credited
 * and its range is queued again as a new subjob.
 *
 */
final class SplitReplay {
  private static final Logger LOG = LoggerFactory.getLogger(SplitReplay.class);

  private final SplitPoolDriver d;

  SplitReplay(SplitPoolDriver d) {
    this.d = d;
  }

  /**
   * A task event that is not about the attempt the core has on that node, but is one a replay
   * after a restore (or a node's re-registration read before its last events) explains; the step
   * it makes, or null when it is none of these (it is then rejected as before). See the class
   * comment, "Reconciliation".
   */
  SplitPoolDriver.Step reconcile(TaskEvent e, SplitDriverState.RunInfo run, SplitPolicy.SubjobInfo info,
      PoolMeta meta, double now) {
    TaskEventType type = e.getType();
    String id = e.getTaskId();
    int attempt = e.getAttempt();
    String node = e.getNode();
    if ((type != TaskEventType.STARTED && type != TaskEventType.COMPLETED)
        || !Decisions.placementId(d.pool, id, attempt).equals(e.getDecisionId())
        || !d.core.nodeIds().contains(node)) {
      return null;
    }
    boolean completed = type == TaskEventType.COMPLETED;
    if (info == null) {
      return completed ? early(e, meta, now) : null;
    }
    if (info.held() || info.stopPending() || info.awaitsAck() != null) {
      return null; // its range or position is not settled: only its own answers count
    }
    int current = run == null ? -1 : run.attempt();
    if (info.node() != null) {
      if (attempt == current && !node.equals(info.node())) {
        // The same attempt placed twice (the replay sent it to another node): it runs where the
        // pool has it; the other run goes, unless it finished first.
        if (!completed) {
          List<Decision> cancel = List.of(d.cancel(meta, node, id, attempt, "attempt runs on "
              + info.node()));
          return SplitPoolDriver.withFirst(cancel, d.finish(new ArrayList<>(), meta, now));
        }
        return endElsewhere(e, info, current, meta, now);
      }
      if (attempt < current && completed) {
        return endElsewhere(e, info, current, meta, now); // spared, and placed again already
      }
      return null;
    }
    if (attempt == current + 1) {
      if (e.getEpoch() >= meta.getEpoch()) {
        return null; // not placed before a restore: this scheduler never placed that attempt
      }
      SplitDriverState.Report had = d.state.report(id);
      if (completed || had == null || !had.completed()) {
        d.state.putReport(id, report(SplitDriverState.Rule.QUEUED, e, meta));
      }
      if (!completed) {
        return d.finish(new ArrayList<>(), meta, now);
      }
      return kept(e, meta, now, "the subjob is queued at that attempt (placed before the "
          + "scheduler's restore); kept until the subjob is placed, where it counts");
    }
    if (attempt <= current && completed) {
      d.state.putReport(id, report(SplitDriverState.Rule.SPARED, e, meta));
      return kept(e, meta, now, "attempt " + attempt + " was superseded only because its node "
          + "was lost or registered again; kept until the subjob is placed, where it counts");
    }
    return null;
  }

  private static SplitDriverState.Report report(SplitDriverState.Rule rule, TaskEvent e,
      PoolMeta meta) {
    EventRange ev = e.getEvents();
    return new SplitDriverState.Report(rule, e.getType() == TaskEventType.COMPLETED,
        e.getAttempt(), e.getNode(), ev == null ? -1 : ev.getStart(), ev == null ? -1
            : ev.getEnd(), meta.getClockMs());
  }

  /** A COMPLETED of a subjob the core does not know: kept when it may precede its job's replay. */
  SplitPoolDriver.Step early(TaskEvent e, PoolMeta meta, double now) {
    String id = e.getTaskId();
    try {
      if (d.store.finished(SplitPoolDriver.jobOf(id))) {
        return null; // a late duplicate: its job is done
      }
    } catch (Exception x) {
      throw new IllegalStateException("cannot read the finished jobs of pool " + d.pool, x);
    }
    if (e.getEpoch() >= meta.getEpoch()) {
      return d.unknownTask(meta, e, "the pool does not know the subjob; the completion answers a "
          + "placement of epoch " + e.getEpoch() + ", not one made before this scheduler's "
          + "restore (epoch " + meta.getEpoch() + "): not remembered");
    }
    d.state.putReport(id, report(SplitDriverState.Rule.EARLY, e, meta));
    return kept(e, meta, now, "the pool does not know the subjob (its job's arrival not replayed "
        + "yet, or not split that way yet); remembered for " + EarlyCompletions.RETENTION_MS
        / 3_600_000 + " h of record clock: it counts only if the subjob is then placed on node "
        + e.getNode() + " at attempt " + e.getAttempt());
  }

  /** A kept event's dead letter ({@code early-completion}): it acts when the subjob is placed. */
  SplitPoolDriver.Step kept(TaskEvent e, PoolMeta meta, double now, String why) {
    SplitPoolDriver.Step o = d.finish(new ArrayList<>(), meta, now);
    return new SplitPoolDriver.Step(o.decisions(), e.getType() + " of subjob " + e.getTaskId() + " attempt "
        + e.getAttempt() + " from node " + e.getNode() + " kept: " + why, o.finished(),
        DeadLetterCodes.EARLY_COMPLETION);
  }

  /**
   * A COMPLETED of the subjob from another node, or of an older (spared) attempt, while the core
   * runs it on {@code info.node()} at {@code current}: the work is done, so it counts there
   * (checked against the subjob's range, {@link #rangeProblem}) and that run is cancelled.
   */
  SplitPoolDriver.Step endElsewhere(TaskEvent e, SplitPolicy.SubjobInfo info, int current,
      PoolMeta meta, double now) {
    String id = e.getTaskId();
    EventRange ev = e.getEvents();
    long start = ev == null ? -1 : ev.getStart();
    long end = ev == null ? -1 : ev.getEnd();
    String problem = rangeProblem(start, end, info.range());
    if (problem != null) {
      return d.unknownTask(meta, e, problem);
    }
    List<Decision> cancel = List.of(d.cancel(meta, info.node(), id, current, "attempt "
        + e.getAttempt() + " completed on " + e.getNode()));
    boolean cancelled = d.core.cancelling(SplitPoolDriver.jobOf(id));
    List<SplitCommand> cmds = new ArrayList<>(d.core.onSubjobEnd(info.node(), id,
        end < 0 ? info.range().end() : end, now));
    if (!cancelled) {
      meta.setCompletions(meta.getCompletions() + 1);
    }
    LOG.info("pool {}: {} attempt {} completed on {} while attempt {} runs on {}; counted, that "
        + "run cancelled", d.pool, id, e.getAttempt(), e.getNode(), current, info.node());
    return SplitPoolDriver.withFirst(cancel, d.finish(cmds, meta, now));
  }

  /**
   * Why a reported range [start, end) cannot count for a subjob of {@code range} (-1: no range,
   * the whole subjob); null when it can. A completion covers its reported range; one that starts
   * elsewhere, or reaches past the subjob's end (the rest was re-split into other subjobs since
   * that attempt was placed), is refused: each event is credited by one subjob only.
   */
  private static String rangeProblem(long start, long end, io.locus.core.split.EventSpan range) {
    if (start < 0) {
      return null;
    }
    if (start != range.start() || end > range.end() || end < start) {
      return "it reports events [" + start + "," + end + ") but the subjob holds " + range
          + " now (re-split since that attempt was placed): a completion counts only for events "
          + "its subjob still holds";
    }
    return null;
  }

  /**
   * A COMPLETED or FAILED of the attempt the core has on that node, answering a placement of an
   * earlier epoch, whose range starts elsewhere than the subjob or reaches past its end: the node
   * ran the attempt's placement from before a restore, when the subjob was cut otherwise (the
   * replayed placement kept its decision id, so the agent answered it as a duplicate and will not
   * run it). The attempt is over but its range is not the subjob's: nothing is credited, the
   * subjob's range goes back to the queue as a new piece, and the event is dead-lettered. (Of the
   * current epoch, such a range is a bad record: rejected as before, or refused by the core and
   * the state rolled back by the driver.)
   */
  SplitPoolDriver.Step ranAnotherRange(TaskEvent e, SplitPolicy.SubjobInfo info, PoolMeta meta,
      double now) {
    List<SplitCommand> cmds = new ArrayList<>(d.core.onSubjobEnd(e.getNode(), e.getTaskId(),
        info.range().start(), now));
    SplitPoolDriver.Step o = d.finish(cmds, meta, now);
    return new SplitPoolDriver.Step(o.decisions(), e.getType() + " of subjob " + e.getTaskId() + " attempt "
        + e.getAttempt() + " from node " + e.getNode() + " rejected: it reports events ["
        + e.getEvents().getStart() + "," + e.getEvents().getEnd() + ") of a placement of epoch "
        + e.getEpoch() + " but the subjob holds " + info.range() + " now (cut otherwise since): "
        + "the attempt is over with nothing credited, the subjob is placed again", o.finished(),
        DeadLetterCodes.UNKNOWN_TASK);
  }

  /**
   * An acknowledgement of a stop (the pending one, or a SUSPENDED answering a stop of an earlier
   * epoch) whose {@code stopAt} lies outside the subjob's range as the core has it: the agent runs
   * another range under this attempt's id. That happens after an at-least-once restore when the
   * replay cut the subjob otherwise and placed it on the same node again: the replayed placement
   * kept its decision id ({@code pool/subjob/attempt}), so the agent dropped it as a redelivery and
   * went on with the range it had. Before this rule the core refused the acknowledgement (the
   * stop outside its range), the stop stayed pending for good and the subjob's events were never
   * credited (SchedulerKillSystemTest, CI 2026-11-28). Now the attempt is over with nothing
   * credited (the core's range is queued again as a new subjob, whose id the agent has not seen),
   * and the run on the node, of no use any more, is cancelled unless it already stopped
   * (SUSPENDED). In exactly-once mode no replayed placement reaches an agent, so only a faulty or
   * lying agent gets here, and it costs only a re-run of its own attempt.
   */
  SplitPoolDriver.Step stoppedAnotherRange(TaskEvent e, SplitPolicy.SubjobInfo info,
      SplitDriverState.RunInfo run, PoolMeta meta, double now) {
    String why = e.getType() + " at " + e.getStopAt() + " answering " + e.getDecisionId()
        + " (epoch " + e.getEpoch() + ") lies outside what the subjob " + info.range()
        + (info.stopPending() ? " (a stop pending)" : "") + " can stop at: the node runs "
        + "another range under that attempt's id";
    List<Decision> first = new ArrayList<>();
    if (e.getType() == TaskEventType.SHRUNK) {
      first.add(d.cancel(meta, e.getNode(), e.getTaskId(), run.attempt(), why));
    }
    List<SplitCommand> cmds = new ArrayList<>(d.core.onSubjobEnd(e.getNode(), e.getTaskId(),
        info.range().start(), now));
    SplitPoolDriver.Step o = d.finish(cmds, meta, now);
    return SplitPoolDriver.withFirst(first, new SplitPoolDriver.Step(o.decisions(), e.getType() + " of subjob " + e.getTaskId()
        + " attempt " + e.getAttempt() + " from node " + e.getNode() + " rejected: " + why
        + "; the attempt is over with nothing credited, the subjob is placed again",
        o.finished(), DeadLetterCodes.UNKNOWN_TASK));
  }

  /**
   * The RUN of a subjob with a kept report ({@link #reconcile}), about to be placed at {@code
   * attempt}: true when the report settles it (a completion that counts: the subjob ended on
   * that node, the placement is not sent); false when the placement goes out (a STARTED kept on
   * another node: that run is cancelled; a report that does not match: dropped, dead letter).
   */
  boolean settle(SplitCommand.Run r, SplitDriverState.Report rep, int attempt,
      PoolMeta meta, List<SplitCommand> cmds, List<Decision> out, double now) {
    String id = r.subjobId();
    boolean matches = switch (rep.rule()) {
      case EARLY -> rep.attempt() == attempt && rep.node().equals(r.node());
      case QUEUED -> rep.attempt() == attempt;
      case SPARED -> rep.attempt() < attempt;
    };
    String problem = matches ? null : "the subjob is placed on node " + r.node() + " at attempt "
        + attempt + (rep.rule() == SplitDriverState.Rule.EARLY ? ", and a completion kept before "
        + "its subjob existed counts only from the node given that attempt" : "");
    if (problem == null && rep.completed()) {
      problem = rangeProblem(rep.start(), rep.upTo(), r.range());
    }
    if (problem != null) {
      if (rep.completed()) {
        d.discarded.add(new PoolOutput.Rejection(DeadLetterCodes.EARLY_COMPLETION, "COMPLETED of "
            + "subjob " + id + " attempt " + rep.attempt() + " from node " + rep.node()
            + ", kept at pool clock " + rep.clockMs() + " ms, dropped: " + problem));
      }
      return false;
    }
    if (!rep.completed()) {
      if (!rep.node().equals(r.node())) {
        // Started on rep.node() before the restore, placed on r.node() now: the pool's wins.
        out.add(d.cancel(meta, rep.node(), id, attempt, "attempt placed again on " + r.node()));
      }
      return false;
    }
    LOG.info("pool {}: {} attempt {} completed on {} before the restore; counted, not placed "
        + "again", d.pool, id, rep.attempt(), rep.node());
    d.state.putRun(id, new SplitDriverState.RunInfo(r.node(), attempt, null));
    cmds.addAll(d.core.onSubjobEnd(r.node(), id, rep.upTo() < 0 ? r.range().end() : rep.upTo(),
        now));
    meta.setCompletions(meta.getCompletions() + 1);
    return true;
  }

  /** Why the event is not about the attempt the core has on that node; null when it is. */
  static String staleness(TaskEvent e, SplitDriverState.RunInfo run,
      SplitPolicy.SubjobInfo info) {
    if (run == null || info == null) {
      return "no such subjob is placed (finished, or never placed)";
    }
    if (e.getAttempt() != run.attempt()) {
      return "attempt " + run.attempt() + " is the placed one";
    }
    if (!e.getNode().equals(run.node())) {
      return "it was placed on " + run.node();
    }
    if (info.node() != null) {
      if (!info.node().equals(e.getNode()) || info.held()) {
        return "the subjob is now on " + info.node();
      }
      return null;
    }
    return info.stopPending() ? null : "the subjob is queued again";
  }
}
