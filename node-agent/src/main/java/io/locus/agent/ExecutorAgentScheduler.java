package io.locus.agent;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@link AgentScheduler} over a (shared) scheduled executor and the wall clock. */
public final class ExecutorAgentScheduler implements AgentScheduler {
  private static final Logger LOG = LoggerFactory.getLogger(ExecutorAgentScheduler.class);

  private final ScheduledExecutorService executor;

  public ExecutorAgentScheduler(ScheduledExecutorService executor) {
    this.executor = executor;
  }

  @Override
  public long nowMs() {
    return System.currentTimeMillis();
  }

  @Override
  public long nowNanos() {
    return System.nanoTime();
  }

  @Override
  public Cancellable schedule(long delayNanos, Runnable task) {
    ScheduledFuture<?> f = executor.schedule(guard(task), Math.max(0, delayNanos),
        TimeUnit.NANOSECONDS);
    return () -> f.cancel(false);
  }

  @Override
  public Cancellable scheduleAtFixedRate(long periodNanos, Runnable task) {
    ScheduledFuture<?> f = executor.scheduleAtFixedRate(guard(task), periodNanos, periodNanos,
        TimeUnit.NANOSECONDS);
    return () -> f.cancel(false);
  }

  // A scheduled executor swallows a task's exception into its future (and silently stops a periodic
  // task); log it instead so an agent bug is visible and the heartbeat keeps going.
  private static Runnable guard(Runnable task) {
    return () -> {
      try {
        task.run();
      } catch (RuntimeException | Error e) {
        LOG.error("agent callback failed", e);
      }
    };
  }
}
