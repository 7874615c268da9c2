package io.locus.agent.sim;

import io.locus.agent.AgentConfig;
import io.locus.agent.AgentScheduler;
import io.locus.agent.Cancellable;
import io.locus.agent.EventRanges;
import io.locus.agent.RangeRun;
import io.locus.agent.TaskExecutor;
import io.locus.schemas.PlaceTask;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * Models a task's run as its computeSeconds (scaled), then exit code 0.
 *
 * <p>An event-range task is processed event by event in modelled time (spec cern-job-splitting
 * §1.3): event e costs its segment's {@code secondsPerEvent} (without segments, the task's
 * computeSeconds spread evenly over the range), scaled by the time scale. Rather than one timer per
 * event, the run keeps its start time and one timer for its end: the position at time t is
 * pos(t), the largest m with COST([start, m)) &le; t - start time, so the event in progress is
 * pos(t). A shrink moves the end timer to the acknowledged end; a suspend cancels it and reports
 * pos(t), losing the partial event.
 */
public final class SimulatedExecutor implements TaskExecutor {
  private final AgentConfig config;
  private final AgentScheduler scheduler;

  public SimulatedExecutor(AgentConfig config, AgentScheduler scheduler) {
    this.config = config;
    this.scheduler = scheduler;
  }

  @Override
  public Cancellable run(String node, PlaceTask task, IntConsumer done) {
    long delay = config.scaledNanos(task.getComputeSeconds());
    return scheduler.schedule(delay, () -> done.accept(0));
  }

  @Override
  public boolean runsEventRanges() {
    return true;
  }

  @Override
  public RangeRun executeRange(String node, PlaceTask task, long end,
      Consumer<RangeResult> done) {
    SimRange run = new SimRange(task, end, done);
    run.arm();
    return run;
  }

  /** One event-range run in modelled time. */
  private final class SimRange implements RangeRun {
    private final EventRanges.Costs costs;
    private final long start;
    private final long startNanos;
    private final Consumer<RangeResult> done;
    private long end;
    /** Completed (timer fired) or suspended: the end is final. */
    private boolean over;
    private Cancellable timer = Cancellable.NONE;

    SimRange(PlaceTask task, long end, Consumer<RangeResult> done) {
      this.costs = EventRanges.costs(task);
      this.start = task.getEvents().getStart();
      this.end = Math.max(start, end);
      this.done = done;
      this.startNanos = scheduler.nowNanos();
    }

    /** (Re)schedules the completion at start time + scaled COST([start, end)). */
    private synchronized void arm() {
      timer.cancel();
      long due = startNanos + config.scaledNanos(costs.seconds(start, end));
      timer = scheduler.schedule(Math.max(0, due - scheduler.nowNanos()), this::complete);
    }

    private void complete() {
      long e;
      synchronized (this) {
        if (over) {
          return;
        }
        over = true;
        e = end;
      }
      done.accept(new RangeResult(0, null, e));
    }

    /** pos(now): the first unprocessed event, i.e. the one in progress while pos &lt; end. */
    private long position() {
      double elapsed = (scheduler.nowNanos() - startNanos) / (config.timeScale() * 1e9);
      return costs.position(start, end, elapsed);
    }

    @Override
    public synchronized long shrink(long newEnd) {
      if (over) {
        return end;
      }
      long pos = position();
      // The event in progress (pos) is finished, never cut: no work is lost.
      long stopAt = Math.min(end, Math.max(Math.max(newEnd, start), pos + 1));
      if (stopAt != end) {
        end = stopAt;
        arm();
      }
      return stopAt;
    }

    @Override
    public synchronized Stop suspend() {
      if (over) {
        return new Stop(end, false);
      }
      long pos = position();
      if (pos >= end) {
        // Every event is done; the completion timer is due and will report it.
        return new Stop(end, false);
      }
      over = true;
      timer.cancel();
      return new Stop(pos, true);
    }
  }
}
