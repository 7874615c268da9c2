package io.locus.agent;

/**
 * The agent's clock and timer. Production wraps a shared {@code ScheduledExecutorService}
 * ({@link ExecutorAgentScheduler}); tests drive a virtual clock by hand, so no test waits for real
 * time. Tasks never get a thread of their own: each modelled step is one scheduled callback.
 */
public interface AgentScheduler {
  /** Current time in epoch milliseconds, for event timestamps. */
  long nowMs();

  /**
   * Monotonic time in nanoseconds (arbitrary origin), for measuring how far a running task got.
   * The default derives it from {@link #nowMs()}.
   */
  default long nowNanos() {
    return nowMs() * 1_000_000L;
  }

  /** Runs {@code task} once after {@code delayNanos} (0: as soon as possible, never inline). */
  Cancellable schedule(long delayNanos, Runnable task);

  /** Runs {@code task} every {@code periodNanos}, the first time one period from now. */
  Cancellable scheduleAtFixedRate(long periodNanos, Runnable task);
}
