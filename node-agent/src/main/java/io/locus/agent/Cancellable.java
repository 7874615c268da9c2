package io.locus.agent;

import java.time.Duration;
import java.util.function.Consumer;

/** A handle on scheduled or in-progress work. Cancelling twice, or after completion, is harmless. */
@FunctionalInterface
public interface Cancellable {
  Cancellable NONE = () -> { };

  void cancel();

  /**
   * Stops the work politely for a preemption: a process gets SIGTERM, up to {@code grace} to exit,
   * then SIGKILL. {@code stopped} is called exactly once, when the work is gone (true if something
   * had to be killed), on any thread, possibly from inside this call; the work's own completion is
   * not reported after it. The default, for work that holds no process (a timer, a fetch), is
   * {@link #cancel()} and {@code stopped} at once: such work stops the moment it is asked to.
   */
  default void stop(Duration grace, Consumer<Boolean> stopped) {
    cancel();
    stopped.accept(false);
  }
}
