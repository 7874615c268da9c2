package io.locus.agent;

import io.locus.schemas.NodeReport;
import io.locus.schemas.TaskEvent;
import java.util.ArrayList;
import java.util.List;

/**
 * Holds task events back for a moment so that a busy real agent sends them in fewer, larger
 * produce requests: at a few hundred short tasks a second per agent, one request per STARTED and
 * one per COMPLETED cost the agent's producer thread and the broker more CPU than the events
 * themselves (docs/performance.md, "Real agents at speed"). Every record is sent unchanged, one
 * Kafka record per event, in the order the agents emitted them: only when they leave changes.
 *
 * <p>Held events leave, in order, at the first of: {@link #flush()} (the agent calls it after
 * every event the scheduler needs soon: see {@link TaskEventWriter}), {@code maxEvents} held, a
 * node report (sent after the held events, so a report, LEAVE included, never overtakes an event
 * emitted before it), and {@code maxDelayNanos} after the first held event. A stopping agent sends
 * LEAVE, so a graceful stop sends everything held; what a killed agent held is lost as what its
 * producer held is, and the scheduler finds such a node by its silence.
 *
 * <p>Thread-safe. The deadline's flush runs on the agents' scheduler and takes only this object's
 * lock, never an agent's: it cannot deadlock with an agent that is emitting.
 */
public final class BatchingOutput implements AgentOutput {
  /** Events held at most before they are sent. */
  public static final int MAX_EVENTS = 256;
  /** How long an event is held at most. */
  public static final long MAX_DELAY_NANOS = 20_000_000L;

  private final AgentOutput out;
  private final AgentScheduler clock;
  private final int maxEvents;
  private final long maxDelayNanos;
  private final List<TaskEvent> held = new ArrayList<>();
  private Cancellable deadline;
  private long batches;
  private long events;

  public BatchingOutput(AgentOutput out, AgentScheduler clock) {
    this(out, clock, MAX_EVENTS, MAX_DELAY_NANOS);
  }

  BatchingOutput(AgentOutput out, AgentScheduler clock, int maxEvents, long maxDelayNanos) {
    if (maxEvents < 1 || maxDelayNanos < 0) {
      throw new IllegalArgumentException("maxEvents must be ≥ 1 and maxDelayNanos ≥ 0");
    }
    this.out = out;
    this.clock = clock;
    this.maxEvents = maxEvents;
    this.maxDelayNanos = maxDelayNanos;
  }

  @Override
  public synchronized void taskEvent(TaskEvent event) {
    held.add(event);
    if (held.size() >= maxEvents) {
      flush();
    } else if (deadline == null) {
      deadline = clock.schedule(maxDelayNanos, this::flush);
    }
  }

  @Override
  public synchronized void nodeReport(NodeReport report) {
    flush();
    out.nodeReport(report);
  }

  /** Sends every held event now, in order. */
  @Override
  public synchronized void flush() {
    if (deadline != null) {
      deadline.cancel();
      deadline = null;
    }
    if (held.isEmpty()) {
      return;
    }
    batches++;
    events += held.size();
    for (TaskEvent e : held) {
      out.taskEvent(e);
    }
    held.clear();
  }

  /** Events held now. */
  public synchronized int held() {
    return held.size();
  }

  /** Batches sent so far and the events in them: how well holding batches. */
  public synchronized long[] sent() {
    return new long[] {batches, events};
  }
}
