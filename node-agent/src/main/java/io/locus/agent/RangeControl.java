package io.locus.agent;

import io.locus.schemas.Decision;
import io.locus.schemas.ShrinkTask;
import io.locus.schemas.SuspendTask;
import io.locus.schemas.TaskEventType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler's control of running event-range tasks (issue 5, spec cern-job-splitting §1.3, §9):
 * {@link ShrinkTask} and {@link SuspendTask}, and their acknowledgements.
 *
 * <ul>
 *   <li>Shrink: the run keeps going to {@code max(newEnd, end of the event or batch in progress)},
 *       capped at its current end, and loses nothing. SHRUNK at once, {@code stopAt} = that end;
 *       the run's COMPLETED later reports {@code events} = [start, stopAt). A shrink while the
 *       inputs are still staging cuts the range before it starts: {@code max(newEnd, start)}.
 *   <li>Suspend: the run stops now; the event (batch) in progress is lost. One SUSPENDED ends the
 *       attempt, {@code stopAt} = the first unprocessed event. Suspended while staging: the start.
 *   <li>A shrink or suspend of an attempt that already ended here (see {@link RangeLedger}) is
 *       answered SHRUNK with the end it reported, so the scheduler always gets an answer; so is a
 *       suspend that arrives when every event is done and the completion is on its way.
 *   <li>Of an attempt unknown here, or of a task without a range: REFUSED with the reason.
 * </ul>
 * Every answer carries the id and epoch of the decision it answers. Guarded by the agent's monitor.
 */
final class RangeControl {
  private static final Logger LOG = LoggerFactory.getLogger(RangeControl.class);

  private final AgentContext ctx;
  private final TaskRunner runner;
  private final RangeLedger ledger;

  RangeControl(AgentContext ctx, TaskRunner runner, RangeLedger ledger) {
    this.ctx = ctx;
    this.runner = runner;
    this.ledger = ledger;
  }

  void shrink(Decision d, ShrinkTask s) {
    AttemptRun t = rangeRun(d, TaskAttempt.of(s), "shrink");
    if (t == null) {
      return;
    }
    long stopAt;
    if (t.rangeRun != null) {
      stopAt = t.rangeRun.shrink(s.getNewEnd());
    } else {
      // Still staging: nothing processed yet, so the range is simply cut.
      stopAt = Math.min(t.rangeEnd, Math.max(s.getNewEnd(), t.range.getStart()));
    }
    t.rangeEnd = stopAt;
    ctx.events.shrunk(d, t, stopAt, null);
  }

  void suspend(Decision d, SuspendTask s) {
    AttemptRun t = rangeRun(d, TaskAttempt.of(s), "suspend");
    if (t == null) {
      return;
    }
    long stopAt;
    if (t.rangeRun != null) {
      RangeRun.Stop stop = t.rangeRun.suspend();
      if (!stop.stopped()) {
        // The run already ended (normally: every event is done) and its end is on its way to
        // this agent: too late to lose anything. Its COMPLETED (or FAILED) follows.
        t.rangeEnd = stop.stopAt();
        ctx.events.shrunk(d, t, stop.stopAt(),
            "suspend after the run ended; its final event follows");
        return;
      }
      stopAt = stop.stopAt();
      t.rangeRun = null;
      t.step = null;
    } else {
      stopAt = runner.stopStep(t);
    }
    runner.endEarly(t, TaskEventType.SUSPENDED, 0, null, stopAt, d);
  }

  /**
   * The running event-range attempt {@code d} names; null when there is none, after answering:
   * SHRUNK when it ended here recently, else REFUSED.
   */
  private AttemptRun rangeRun(Decision d, TaskAttempt a, String what) {
    String key = a.key();
    AttemptRun t = runner.get(key);
    if (t == null) {
      Long end = ledger.endOf(key);
      if (end != null) {
        ctx.events.shrunk(d, a, 0, end, what + " of an attempt that ended");
        return null;
      }
      LOG.info("{}: refusing {} of {}: not running here and not recently", ctx.nodeId(), what,
          key);
      refuse(d, a, Refusal.UNKNOWN_TASK, key + " does not run here and did not end here recently");
      return null;
    }
    if (t.range == null) {
      refuse(d, a, Refusal.NOT_AN_EVENT_RANGE, key + " has no event range");
      return null;
    }
    return t;
  }

  private void refuse(Decision d, TaskAttempt a, String kind, String detail) {
    ctx.events.refused(d, a, kind, Refusal.of(kind, detail).message());
  }
}
