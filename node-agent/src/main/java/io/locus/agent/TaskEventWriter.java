package io.locus.agent;

import io.locus.schemas.Decision;
import io.locus.schemas.EventRange;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one agent's task events and counts them as {@link AgentStats} reports them ("task events
 * emitted"). An event about a task run carries the placing decision's id and epoch; an answer to
 * another decision (a refusal, a SHRUNK, a SUSPENDED) carries that decision's, so the scheduler can
 * match answer and question. Times are this agent's clock. Guarded by the agent's monitor.
 */
final class TaskEventWriter {
  /**
   * A FAILED or REFUSED task is logged here at WARN, once per attempt, with its reason: otherwise
   * the reason (a missing storage file, a bad template) exists only inside the binary task-events
   * topic. A scheduler's cancel is INFO: nothing went wrong with the task.
   */
  static final Logger LOG = LoggerFactory.getLogger(TaskEventWriter.class);
  /** How many placements' latest events are kept to answer a duplicate PlaceTask with. */
  static final int ANSWERS = 10_000;

  private final AgentConfig config;
  private final AgentScheduler clock;
  private final AgentOutput output;
  private final AgentCounters counters;
  private final String instanceId;
  /**
   * The latest event of each recent placement (by its PlaceTask's decision id): STARTED while it
   * runs, then its COMPLETED, FAILED, SUSPENDED or REFUSED. Oldest forgotten first.
   */
  private final Map<String, TaskEvent> latest = new LinkedHashMap<>() {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, TaskEvent> eldest) {
      return size() > ANSWERS;
    }
  };

  /** The job of each attempt in {@link #latest} ("task#attempt" → job), kept as long. */
  private final Map<String, String> jobs = new LinkedHashMap<>() {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
      return size() > ANSWERS;
    }
  };

  /**
   * The proof of placement of each attempt in {@link #latest} ("task#attempt" → {@code
   * PlaceTask.proof}), kept as long: an answer to a decision that is not the placement (a SHRUNK
   * after the attempt ended here, a REFUSED withdraw) still proves the node was given the attempt.
   */
  private final Map<String, String> proofs = new LinkedHashMap<>() {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
      return size() > ANSWERS;
    }
  };

  /**
   * Whether the agent has work enough queued that a STARTED or COMPLETED may wait (see {@link
   * #send}); never by default.
   */
  private BooleanSupplier busy = () -> false;

  TaskEventWriter(AgentConfig config, AgentScheduler clock, AgentOutput output,
      AgentCounters counters, String instanceId) {
    this.config = config;
    this.clock = clock;
    this.output = output;
    this.counters = counters;
    this.instanceId = instanceId;
  }

  /**
   * From now on, a COMPLETED emitted while {@code busy} says so may be held back by the output
   * ({@link BatchingOutput}) for a few milliseconds, as every STARTED may; every other event is
   * flushed at once, with whatever is held before it.
   */
  void holdRoutineEventsWhile(BooleanSupplier busy) {
    this.busy = busy;
  }

  /**
   * Hands {@code e} to the output, then flushes unless it may wait. A STARTED may always wait: the
   * scheduler counted the slot as taken when it placed the attempt, and nothing it decides waits
   * for a STARTED (a withdraw that crosses it is REFUSED as started, as before); a short task's
   * STARTED then leaves with its COMPLETED, one produce request instead of two. A COMPLETED may
   * wait while the agent is busy: its slots are refilled from its own local queue, so the
   * scheduler loses no time by hearing of it a few milliseconds later. Everything else is an
   * answer the scheduler waits for or a slot it should refill now (FAILED, REFUSED, WITHDRAWN,
   * SHRUNK, SUSPENDED), and an idle agent's COMPLETED goes at once: there the scheduler's round
   * trip is the agent's idle time.
   */
  private void send(TaskEvent e) {
    output.taskEvent(e);
    boolean mayWait = e.getType() == TaskEventType.STARTED
        || (e.getType() == TaskEventType.COMPLETED && busy.getAsBoolean());
    if (!mayWait) {
      output.flush();
    }
  }

  /**
   * The job of a recent attempt this agent reported on, or null when none is kept: a withdraw
   * names only the task, and its REFUSED must still carry the job (a blank one is invalid).
   */
  String jobOf(String taskId, int attempt) {
    return jobs.get(taskId + "#" + attempt);
  }

  void started(AttemptRun t) {
    counters.tasksStarted++;
    emit(t.decision.getDecisionId(), about(t, TaskEventType.STARTED).build());
  }

  /**
   * Answers a duplicate of the PlaceTask {@code decisionId} with the latest event of its attempt,
   * as it was (the output stamps and signs it again).
   *
   * @return false when no event of that placement is kept any more
   */
  boolean repeat(String decisionId) {
    TaskEvent last = latest.get(decisionId);
    if (last == null) {
      return false;
    }
    counters.duplicatesAnswered++;
    send(last);
    return true;
  }

  /** Answers a duplicate PlaceTask of a run whose STARTED is no longer kept: STARTED again. */
  void repeatStarted(AttemptRun t) {
    counters.duplicatesAnswered++;
    send(about(t, TaskEventType.STARTED).build());
  }

  private void emit(String placement, TaskEvent e) {
    latest.remove(placement);   // re-inserted last: the window is in order of last change
    latest.put(placement, e);
    String attempt = e.getTaskId() + "#" + e.getAttempt();
    jobs.remove(attempt);
    jobs.put(attempt, e.getJobId());
    proofs.remove(attempt);
    if (e.getPlacementProof() != null) {
      proofs.put(attempt, e.getPlacementProof());
    }
    send(e);
  }

  /**
   * The final event of a run: COMPLETED, FAILED, SUSPENDED or PREEMPTED (which, like WITHDRAWN,
   * carries the placement's decision id: the scheduler matches it to the attempt it placed).
   *
   * @param processed event-range task: the events processed; null for a file task
   * @param answered the SuspendTask that ended the run; null when it ended by itself
   */
  void ended(AttemptRun t, TaskEventType type, int exitCode, String message, EventRange processed,
      Decision answered) {
    switch (type) {
      case COMPLETED -> counters.tasksCompleted++;
      case SUSPENDED -> counters.tasksSuspended++;
      case PREEMPTED -> counters.tasksPreempted++;
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
    if (type == TaskEventType.FAILED) {
      logFailure(t.attempt, "FAILED", exitCode, message);
    } else if (type == TaskEventType.PREEMPTED) {
      LOG.info("node {} pool {}: task {} attempt {} PREEMPTED: {}", config.nodeId(),
          config.pool(), t.attempt.taskId(), t.attempt.attempt(), message);
    }
    emit(t.decision.getDecisionId(), e.build());
  }

  private void logFailure(TaskAttempt attempt, String what, int exitCode, String message) {
    boolean cancelled = "cancelled".equals(message);
    String line = "node {} pool {}: task {} attempt {} {}{}: {}";
    Object[] args = {config.nodeId(), config.pool(), attempt.taskId(), attempt.attempt(), what,
        exitCode == 0 ? "" : " (exit code " + exitCode + ")",
        message == null || message.isBlank() ? "no message" : message};
    if (cancelled) {
      LOG.info(line, args);
    } else {
      LOG.warn(line, args);
    }
  }

  /**
   * FAILED for an attempt that ended in the local queue, never started (cancelled, or the agent
   * stopped): no start time, no bytes.
   */
  void endedUnstarted(Decision placement, TaskAttempt attempt, int exitCode, String message) {
    counters.tasksFailed++;
    long now = clock.nowMs();
    logFailure(attempt, "FAILED", exitCode, message);
    emit(placement.getDecisionId(), answer(placement, attempt, TaskEventType.FAILED)
        .setEndTimeMs(now)
        .setExitCode(exitCode)
        .setMessage(message)
        .build());
  }

  /**
   * WITHDRAWN: the attempt left the local queue unstarted at the scheduler's request; carries the
   * placement's decision id (the scheduler matches it to the attempt it placed) and the reason.
   */
  void withdrawn(Decision placement, TaskAttempt attempt, String reason) {
    counters.tasksWithdrawn++;
    emit(placement.getDecisionId(), answer(placement, attempt, TaskEventType.WITHDRAWN)
        .setMessage(reason)
        .build());
  }

  /**
   * PREEMPTED for an attempt that was still in the local queue: it leaves unstarted, with the
   * placement's decision id, as {@link #withdrawn} does.
   */
  void preemptedUnstarted(Decision placement, TaskAttempt attempt, String reason) {
    counters.tasksPreempted++;
    LOG.info("node {} pool {}: task {} attempt {} PREEMPTED before it started: {}",
        config.nodeId(), config.pool(), attempt.taskId(), attempt.attempt(), reason);
    emit(placement.getDecisionId(), answer(placement, attempt, TaskEventType.PREEMPTED)
        .setEndTimeMs(clock.nowMs())
        .setMessage(reason)
        .build());
  }

  /** REFUSED, answering {@code d} about {@code attempt}; counted by {@code kind}. */
  void refused(Decision d, TaskAttempt attempt, String kind, String reason) {
    counters.refusal(kind);
    counters.tasksRefused++;
    TaskEvent e = answer(d, attempt, TaskEventType.REFUSED).setMessage(reason).build();
    if (d.getAction() instanceof PlaceTask) {
      logFailure(attempt, "REFUSED", 0, reason);
      emit(d.getDecisionId(), e);
    } else {
      send(e);
    }
  }

  /**
   * SHRUNK, answering the ShrinkTask (or late SuspendTask) {@code d}: the attempt stops at
   * {@code stopAt}.
   *
   * @param startMs when the attempt started here; 0 when it is no longer known
   */
  void shrunk(Decision d, TaskAttempt attempt, long startMs, long stopAt, String message) {
    shrunk(d, attempt, null, startMs, stopAt, message);
  }

  /** As above, for a run here: {@code place} is its placement (its proof is echoed). */
  void shrunk(Decision d, AttemptRun run, long stopAt, String message) {
    shrunk(d, run.attempt, run.place.getProof(), run.startMs, stopAt, message);
  }

  private void shrunk(Decision d, TaskAttempt attempt, String proof, long startMs, long stopAt,
      String message) {
    counters.shrinksAcknowledged++;
    send(answer(d, attempt, TaskEventType.SHRUNK, proof)
        .setStartTimeMs(startMs)
        .setStopAt(stopAt)
        .setMessage(message)
        .build());
  }

  private TaskEvent.Builder about(AttemptRun t, TaskEventType type) {
    return answer(t.decision, t.attempt, type, t.place.getProof())
        .setTimeMs(t.startMs)
        .setStartTimeMs(t.startMs);
  }

  private TaskEvent.Builder answer(Decision d, TaskAttempt attempt, TaskEventType type) {
    return answer(d, attempt, type,
        d.getAction() instanceof PlaceTask p ? p.getProof() : null);
  }

  /**
   * An event about {@code attempt} answering {@code d}. It carries the proof of the attempt's
   * placement ({@code PlaceTask.proof}, null when the scheduler sends none): {@code proof}, else
   * the one this writer last sent for the attempt. With a node secret the scheduler accepts an
   * event about an attempt only with its proof (a REFUSED of another decision excepted), so a
   * node can speak only for work placed on it.
   */
  private TaskEvent.Builder answer(Decision d, TaskAttempt attempt, TaskEventType type,
      String proof) {
    return TaskEvent.newBuilder()
        .setPool(config.pool())
        .setTaskId(attempt.taskId())
        .setJobId(attempt.jobId())
        .setAttempt(attempt.attempt())
        .setNode(config.nodeId())
        .setType(type)
        .setDecisionId(d.getDecisionId())
        .setEpoch(d.getEpoch())
        .setTimeMs(clock.nowMs())
        .setPlacementProof(proof != null ? proof : proofs.get(attempt.key()))
        .setInstanceId(instanceId);
  }
}
