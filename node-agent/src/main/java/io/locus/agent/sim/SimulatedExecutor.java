package io.locus.agent.sim;

import io.locus.agent.AgentConfig;
import io.locus.agent.AgentScheduler;
import io.locus.agent.Cancellable;
import io.locus.agent.TaskExecutor;
import io.locus.schemas.PlaceTask;
import java.util.function.IntConsumer;

/** Models a task's run as its computeSeconds (scaled), then exit code 0. */
public final class SimulatedExecutor implements TaskExecutor {
  private final AgentConfig config;
  private final AgentScheduler scheduler;

  public SimulatedExecutor(AgentConfig config, AgentScheduler scheduler) {
    this.config = config;
    this.scheduler = scheduler;
  }

  @Override
  public Cancellable run(String node, PlaceTask task, IntConsumer done) {
    long delay = config.scaledNanos(task.getComputeSeconds());
    return scheduler.schedule(delay, () -> done.accept(0));
  }
}
