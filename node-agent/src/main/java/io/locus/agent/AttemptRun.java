package io.locus.agent;

import io.locus.schemas.Decision;
import io.locus.schemas.EventRange;
import io.locus.schemas.InputPlan;
import io.locus.schemas.PlaceTask;
import java.util.List;

/**
 * One placed attempt of a task on this agent, from its STARTED event to its final one. The
 * {@link TaskRunner} moves it through its phases; it only goes forward:
 *
 * <pre>
 *   STAGING ──(every input staged)──▶ COMPUTING ──(exit, suspend, cancel, stop)──▶ ENDED
 *      └──────────────(staging failed, suspend, cancel, stop)─────────────────────▲
 * </pre>
 *
 * While STAGING, {@link #step} is the read of input {@link #next}, or null while the run waits for
 * another's read of the same file; while COMPUTING it is the executor's run. Guarded by the agent's
 * monitor.
 */
final class AttemptRun {
  enum Phase { STAGING, COMPUTING, ENDED }

  final Decision decision;
  final PlaceTask place;
  final TaskAttempt attempt;
  final String key;
  final long startMs;
  /** The cache changes its staging made, reported when staging ends (or the run ends early). */
  final CacheDelta delta;
  /** Event-range task: the placed range; null for a file task. */
  final EventRange range;

  private Phase phase = Phase.STAGING;
  /** Index of the input being staged (STAGING). */
  int next;
  RunStep step;
  /** The file this run is fetching into the cache for itself and for waiters, or null. */
  String fetching;
  /** Event-range task: the end it will stop at (placed, or acknowledged by a shrink). */
  long rangeEnd;
  /** Event-range task: its run while COMPUTING. */
  RangeRun rangeRun;
  /** A preemption is stopping it (its process has its grace period to exit). */
  boolean preempting;
  /** The bytes of its inputs by where they were read, for its final event. */
  final InputBytes bytes = new InputBytes();

  AttemptRun(Decision decision, PlaceTask place, long startMs, CacheDelta delta) {
    this.decision = decision;
    this.place = place;
    this.attempt = TaskAttempt.of(place);
    this.key = attempt.key();
    this.startMs = startMs;
    this.delta = delta;
    this.range = place.getEvents();
    this.rangeEnd = range == null ? 0 : range.getEnd();
  }

  Phase phase() {
    return phase;
  }

  boolean ended() {
    return phase == Phase.ENDED;
  }

  /** Every input is staged: the executor runs the task now. */
  void computing() {
    if (phase != Phase.STAGING) {
      throw new IllegalStateException(key + " cannot start computing: it is " + phase);
    }
    phase = Phase.COMPUTING;
  }

  /** No step of this run may act any more. Idempotent. */
  void end() {
    phase = Phase.ENDED;
  }

  List<InputPlan> inputs() {
    return place.getInputs();
  }

  /** The first event of the range (0 for a file task): what "nothing processed" reports. */
  long rangeStart() {
    return range == null ? 0 : range.getStart();
  }
}
