package io.locus.agent;

import io.locus.schemas.PlaceTask;
import java.util.function.IntConsumer;

/**
 * Runs a placed task once its inputs are staged. The simulated executor waits the modelled compute
 * time; a real one (later) starts the task template as a process.
 *
 * <p>Contract: {@code done} receives the exit code (0 = success) exactly once unless the returned
 * handle is cancelled first, on any thread, and never from inside {@code run} itself.
 */
public interface TaskExecutor {
  Cancellable run(String node, PlaceTask task, IntConsumer done);
}
