package io.locus.sim.exec;

import io.locus.core.model.InputFile;
import io.locus.sim.flow.Flow;
import io.locus.sim.flow.FlowOwner;
import java.util.ArrayList;
import java.util.List;

/**
 * A non-local read of one file into one executor: from a peer's cache or from the shared file
 * system. A caching fetch is registered on its executor so that concurrent readers of the same file
 * wait for it instead of transferring it twice (D29). If its peer disappears mid-transfer it
 * restarts from the next holder, then the file system (§3.4).
 */
final class RemoteRead implements FlowOwner {
  final Cluster cluster;
  final Executor dest;
  final InputFile unit;
  final boolean caching;
  final String hint;
  /** The task that asked first; null once it is cancelled (the fetch still fills the cache). */
  TaskRun owner;
  List<TaskRun> waiters;
  /** Peers already tried (their hint was stale, or they left mid-transfer). */
  final List<String> tried = new ArrayList<>(2);
  Executor source;
  Flow flow;

  RemoteRead(Cluster cluster, Executor dest, InputFile unit, boolean caching, TaskRun owner,
      String hint) {
    this.cluster = cluster;
    this.dest = dest;
    this.unit = unit;
    this.caching = caching;
    this.owner = owner;
    this.hint = hint;
  }

  void addWaiter(TaskRun r) {
    if (waiters == null) {
      waiters = new ArrayList<>(2);
    }
    waiters.add(r);
  }

  @Override
  public void flowDone(Flow f, double now) {
    cluster.remoteReadDone(this, now);
  }
}
