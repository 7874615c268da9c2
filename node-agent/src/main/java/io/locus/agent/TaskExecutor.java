package io.locus.agent;

import io.locus.schemas.PlaceTask;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * Runs a placed task once its inputs are staged. The simulated executor waits the modelled compute
 * time; the real one ({@code io.locus.agent.real.ProcessTaskExecutor}) starts an allow-listed
 * template as a process.
 *
 * <p>Contract: {@code done} receives the exit code (0 = success) exactly once unless the returned
 * handle is cancelled first, on any thread, and never from inside {@code run} itself. Cancelling
 * stops the task (a real executor destroys the process tree).
 *
 * <p><b>Event ranges</b> (issue 5). An executor that {@link #runsEventRanges() runs event ranges}
 * processes a task's {@link PlaceTask#getEvents() range} in increasing event order through
 * {@link #executeRange}, whose {@link RangeRun} the agent shrinks or suspends at event (or batch)
 * boundaries.
 */
public interface TaskExecutor {
  Cancellable run(String node, PlaceTask task, IntConsumer done);

  /**
   * How a task ended.
   *
   * @param exitCode 0 = success
   * @param message for the task event (e.g. the tail of stderr); null for none
   * @param outputs on success, the task's declared outputs as this executor wrote them: one
   *     request per output, in the task's order, with the real size, whose bytes the executor has
   *     handed to the agent's {@link CacheStore} under that very request (a real agent's
   *     {@code DiskCache.landed}); the agent then commits each into the cache, or discards it.
   *     Null when the executor writes no bytes (the simulated one): the declared outputs then
   *     exist with their declared sizes. Ignored when the task failed.
   */
  record Result(int exitCode, String message, java.util.List<StageRequest> outputs) {
    /** A result without written outputs (see {@link #outputs}). */
    public Result(int exitCode, String message) {
      this(exitCode, message, null);
    }

    public Result {
      outputs = outputs == null ? null : java.util.List.copyOf(outputs);
    }
  }

  /**
   * {@link #run} with a message for the task event. The agent calls this one; the default has no
   * message, so an executor implementing only {@link #run} behaves as before.
   */
  default Cancellable execute(String node, PlaceTask task, Consumer<Result> done) {
    return run(node, task, code -> done.accept(new Result(code, null)));
  }

  /**
   * How an event-range run ended.
   *
   * @param exitCode 0 = every event up to the run's (possibly shrunk) end was processed
   * @param message for the task event; null for none
   * @param processedEnd the first event not processed: events [start, processedEnd) are done
   */
  record RangeResult(int exitCode, String message, long processedEnd) {}

  /** Whether {@link #executeRange} is supported; agents refuse event-range tasks otherwise. */
  default boolean runsEventRanges() {
    return false;
  }

  /**
   * Starts processing events [task.events.start, end) in order. {@code end} is at most the
   * placed end (less when the task was shrunk before it started computing).
   *
   * <p>Contract: {@code done} is called at most once, never from inside this method nor from
   * {@link RangeRun#shrink} or {@link RangeRun#suspend}, and never after a suspend that returned
   * {@link RangeRun.Stop#stopped() stopped}.
   */
  default RangeRun executeRange(String node, PlaceTask task, long end,
      Consumer<RangeResult> done) {
    throw new UnsupportedOperationException(getClass().getSimpleName()
        + " does not run event ranges");
  }
}
