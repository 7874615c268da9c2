package io.locus.core;

import io.locus.core.model.Command;
import io.locus.core.model.Task;
import io.locus.core.policy.Dispatch;
import io.locus.core.policy.Policy;
import io.locus.core.state.PoolState;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The one entry point both drivers (the Flink operator and the simulator) use for a pool: apply
 * an event to the state, then let the policy dispatch. Drivers that batch events with equal
 * timestamps call the {@code apply*} methods and then {@link #dispatch} once.
 */
public final class Scheduler {
  private final String pool;
  private final PoolState state;
  private Policy policy;

  public Scheduler(String pool, PoolState state, Policy policy) {
    this.pool = pool;
    this.state = state;
    this.policy = policy;
  }

  public String pool() {
    return pool;
  }

  public PoolState state() {
    return state;
  }

  public Policy policy() {
    return policy;
  }

  public void setPolicy(Policy policy) {
    this.policy = policy;
  }

  public List<Command> dispatch(double now) {
    Dispatch d = new Dispatch(pool, state, now);
    policy.dispatch(d);
    return d.commands();
  }

  // -- events; each returns the commands of the dispatch that follows it

  public List<Command> onJobArrival(Task t, double now) {
    state.enqueue(t);
    return dispatch(now);
  }

  public List<Command> onTaskCompleted(String taskId, int attempt, String node, long bytesLocal,
      long bytesPeer, long bytesStorage, double now) {
    state.complete(taskId, attempt, node, bytesLocal, bytesPeer, bytesStorage);
    return dispatch(now);
  }

  public List<Command> onTaskFailed(String taskId, int attempt, String node, double now) {
    state.fail(taskId, attempt, node);
    return dispatch(now);
  }

  public List<Command> onNodeRegistered(String node, int slots, long cacheCapacity,
      String endpoint, double now) {
    state.registerNode(node, slots, cacheCapacity, endpoint, now);
    return dispatch(now);
  }

  public List<Command> onNodeReleased(String node, double now) {
    state.removeNode(node);
    return dispatch(now);
  }

  public List<Command> onCacheDelta(String node, long seq, Map<String, Long> added,
      Collection<String> removed, double now) {
    state.applyCacheDelta(node, seq, added, removed);
    return dispatch(now);
  }

  public List<Command> onCacheSnapshot(String node, long seq, Map<String, Long> files,
      double now) {
    state.applyCacheSnapshot(node, seq, files);
    return dispatch(now);
  }

  public List<Command> onDrain(String node, boolean draining, double now) {
    state.setDraining(node, draining);
    return dispatch(now);
  }
}
