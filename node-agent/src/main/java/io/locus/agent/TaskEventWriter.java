package io.locus.agent;

import io.locus.schemas.Decision;
import io.locus.schemas.EventRange;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;

/**
 * Writes one agent's task events and counts them as {@link AgentStats} reports them ("task events
 * emitted"). An event about a task run carries the placing decision's id and epoch; an answer to
 * another decision (a refusal, a SHRUNK, a SUSPENDED) carries that decision's, so the scheduler can
 * match answer and question. Times are this agent's clock. Guarded by the agent's monitor.
 */
final class TaskEventWriter {
  private final AgentConfig config;
  private final AgentScheduler clock;
  private final AgentOutput output;
  private final AgentCounters counters;

  TaskEventWriter(AgentConfig config, AgentScheduler clock, AgentOutput output,
      AgentCounters counters) {
    this.config = config;
    this.clock = clock;
    this.output = output;
    this.counters = counters;
  }

  void started(AttemptRun t) {
    counters.tasksStarted++;
    output.taskEvent(about(t, TaskEventType.STARTED).build());
  }

  /**
   * The final event of a run: COMPLETED, FAILED or SUSPENDED.
   *
   * @param processed event-range task: the events processed; null for a file task
   * @param answered the SuspendTask that ended the run; null when it ended by itself
   */
  void ended(AttemptRun t, TaskEventType type, int exitCode, String message, EventRange processed,
      Decision answered) {
    switch (type) {
      case COMPLETED -> counters.tasksCompleted++;
      case SUSPENDED -> counters.tasksSuspended++;
      default -> counters.tasksFailed++;
    }
    long now = clock.nowMs();
    TaskEvent.Builder e = about(t, type)
        .setTimeMs(now)
        .setEndTimeMs(now)
        .setBytesLocal(t.bytes.local)
        .setBytesPeer(t.bytes.peer)
        .setBytesStorage(t.bytes.storage)
        .setExitCode(exitCode)
        .setMessage(message);
    if (processed != null) {
      e.setEvents(processed);
      if (type == TaskEventType.SUSPENDED) {
        e.setStopAt(processed.getEnd());
      }
    }
    if (answered != null) {
      e.setDecisionId(answered.getDecisionId()).setEpoch(answered.getEpoch());
    }
    output.taskEvent(e.build());
  }

  /** REFUSED, answering {@code d} about {@code attempt}; counted by {@code kind}. */
  void refused(Decision d, TaskAttempt attempt, String kind, String reason) {
    counters.refusal(kind);
    counters.tasksRefused++;
    output.taskEvent(answer(d, attempt, TaskEventType.REFUSED).setMessage(reason).build());
  }

  /**
   * SHRUNK, answering the ShrinkTask (or late SuspendTask) {@code d}: the attempt stops at
   * {@code stopAt}.
   *
   * @param startMs when the attempt started here; 0 when it is no longer known
   */
  void shrunk(Decision d, TaskAttempt attempt, long startMs, long stopAt, String message) {
    counters.shrinksAcknowledged++;
    output.taskEvent(answer(d, attempt, TaskEventType.SHRUNK)
        .setStartTimeMs(startMs)
        .setStopAt(stopAt)
        .setMessage(message)
        .build());
  }

  private TaskEvent.Builder about(AttemptRun t, TaskEventType type) {
    return answer(t.decision, t.attempt, type)
        .setTimeMs(t.startMs)
        .setStartTimeMs(t.startMs);
  }

  private TaskEvent.Builder answer(Decision d, TaskAttempt attempt, TaskEventType type) {
    return TaskEvent.newBuilder()
        .setPool(config.pool())
        .setTaskId(attempt.taskId())
        .setJobId(attempt.jobId())
        .setAttempt(attempt.attempt())
        .setNode(config.nodeId())
        .setType(type)
        .setDecisionId(d.getDecisionId())
        .setEpoch(d.getEpoch())
        .setTimeMs(clock.nowMs());
  }
}
