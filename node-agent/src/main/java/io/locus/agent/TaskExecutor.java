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
 */
public interface TaskExecutor {
  Cancellable run(String node, PlaceTask task, IntConsumer done);

  /**
   * How a task ended.
   *
   * @param exitCode 0 = success
   * @param message for the task event (e.g. the tail of stderr); null for none
   */
  record Result(int exitCode, String message) {}

  /**
   * {@link #run} with a message for the task event. The agent calls this one; the default has no
   * message, so an executor implementing only {@link #run} behaves as before.
   */
  default Cancellable execute(String node, PlaceTask task, Consumer<Result> done) {
    return run(node, task, code -> done.accept(new Result(code, null)));
  }
}
