package io.locus.sim.exec;

import io.locus.core.model.InputFetch;
import io.locus.core.model.Task;
import io.locus.sim.engine.EventQueue;
import io.locus.sim.flow.Flow;
import io.locus.sim.flow.FlowOwner;
import java.util.ArrayList;
import java.util.List;

/**
 * A task attempt running on an executor slot (spec §1.3): its inputs are read one after the other,
 * then it computes, then its result is delivered. Files it uses stay pinned in the cache until it
 * ends. It owns its local-read flows; remote reads go through a {@link RemoteRead}.
 */
public final class TaskRun implements FlowOwner {
  final Cluster cluster;
  final Task task;
  final List<InputFetch> plan;
  final Executor executor;
  final double startTime;
  int next;
  final long[] bytes = new long[3];
  final int[] accesses = new int[3];
  final List<String> pinned = new ArrayList<>(2);
  Flow localFlow;
  RemoteRead fetch;
  RemoteRead waitingFor;
  EventQueue.Event endEvent;
  double readsDoneAt = Double.NaN;
  boolean cancelled;
  boolean finished;

  TaskRun(Cluster cluster, Task task, List<InputFetch> plan, Executor executor, double now) {
    this.cluster = cluster;
    this.task = task;
    this.plan = plan;
    this.executor = executor;
    this.startTime = now;
  }

  public Task task() {
    return task;
  }

  public String node() {
    return executor.id;
  }

  public Executor executor() {
    return executor;
  }

  public double startTime() {
    return startTime;
  }

  /** When the last input was read (compute began); NaN before. */
  public double readsDoneAt() {
    return readsDoneAt;
  }

  public long bytesLocal() {
    return bytes[Cluster.LOCAL];
  }

  public long bytesPeer() {
    return bytes[Cluster.PEER];
  }

  public long bytesStorage() {
    return bytes[Cluster.STORAGE];
  }

  public boolean cancelled() {
    return cancelled;
  }

  void pinOnce(String file) {
    if (!pinned.contains(file)) {
      pinned.add(file);
      executor.cache.pin(file);
    }
  }

  void unpinAll() {
    for (String f : pinned) {
      executor.cache.unpin(f);
    }
    pinned.clear();
  }

  @Override
  public void flowDone(Flow flow, double now) {
    cluster.localReadDone(this, flow, now);
  }
}
