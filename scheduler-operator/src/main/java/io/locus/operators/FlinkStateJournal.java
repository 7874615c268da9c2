package io.locus.operators;

import io.locus.core.model.Task;
import io.locus.core.state.NodeView;
import io.locus.core.state.RunningTask;
import io.locus.core.state.StateJournal;
import io.locus.schemas.state.FileStat;
import io.locus.schemas.state.NodeStage;
import io.locus.schemas.state.NodeState;
import io.locus.schemas.state.StagedEntry;
import io.locus.schemas.state.TaskState;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes every pool-state change through to Flink keyed state (RocksDB by default), one entry per
 * change, under the current key (the pool). The heap {@code PoolState} is then only a cache that
 * {@link PoolStore} rebuilds from these maps after a restore.
 *
 * <p>Node updates are the exception: one input often changes a node several times (a completion
 * frees its slot, the dispatch that follows takes it again, a cache delta moves its bytes), so they
 * are collected and written once, by {@link #flush()}, which the operator calls at the end of
 * every input and timer, under the same key. Nothing reads the node map back in between.
 */
final class FlinkStateJournal implements StateJournal {
  private final String pool;
  private final PoolStore store;
  /** Nodes updated by the current input and not yet written, in first-update order. */
  private final Map<String, NodeView> dirtyNodes = new LinkedHashMap<>();

  FlinkStateJournal(String pool, PoolStore store) {
    this.pool = pool;
    this.store = store;
  }

  @Override
  public void stagedFileUpdated(String node, String file, long bytes, boolean inFlight,
      double lastUse) {
    write(() -> store.staged.put(PoolStore.pairKey(node, file), new StagedEntry(bytes, inFlight, lastUse)));
  }

  @Override
  public void stagedFileRemoved(String node, String file) {
    write(() -> {
      store.staged.remove(PoolStore.pairKey(node, file));
      store.charges.remove(PoolStore.pairKey(node, file));
    });
  }

  @Override
  public void stagedFileCharged(String node, String file, String queue) {
    write(() -> store.charges.put(PoolStore.pairKey(node, file), queue));
  }

  @Override
  public void fileStatsUpdated(String file, long accessFreq, int numCopies) {
    write(() -> {
      if (accessFreq == 0 && numCopies == 0) {
        store.fileStats.remove(file);
      } else {
        store.fileStats.put(file, new FileStat(accessFreq, numCopies));
      }
    });
  }

  @Override
  public void ganttReserved(int storageNode, double start, double end) {
    write(() -> store.gantt.put(PoolStore.ganttKey(storageNode, start), end));
  }

  @Override
  public void ganttDropped(int storageNode, double start) {
    write(() -> store.gantt.remove(PoolStore.ganttKey(storageNode, start)));
  }

  @Override
  public void taskMapped(String taskId, String node) {
    write(() -> {
      if (node == null) {
        store.mapping.remove(taskId);
      } else {
        store.mapping.put(taskId, node);
      }
    });
  }

  @Override
  public void nodeStageUpdated(String node, String taskId, double plannedCompletion) {
    write(() -> {
      if (taskId == null) {
        store.stages.remove(node);
      } else {
        store.stages.put(node, new NodeStage(taskId, plannedCompletion));
      }
    });
  }

  @Override
  public void refCountUpdated(String node, String file, int count) {
    write(() -> {
      if (count == 0) {
        store.refs.remove(PoolStore.pairKey(node, file));
      } else {
        store.refs.put(PoolStore.pairKey(node, file), count);
      }
    });
  }

  @Override
  public void nodeUpdated(NodeView node) {
    dirtyNodes.put(node.id(), node);
  }

  @Override
  public void nodeRemoved(String node) {
    dirtyNodes.remove(node);
    write(() -> store.nodes.remove(node));
  }

  /** Writes the nodes the current input updated, each once, in its latest form. */
  void flush() {
    if (dirtyNodes.isEmpty()) {
      return;
    }
    for (NodeView n : dirtyNodes.values()) {
      write(() -> store.nodes.put(n.id(), Conversions.toState(n)));
    }
    dirtyNodes.clear();
  }

  /** Whether updates wait for {@link #flush()} (tests). */
  boolean pending() {
    return !dirtyNodes.isEmpty();
  }

  @Override
  public void taskUpdated(Task task, RunningTask running) {
    write(() -> store.tasks.put(task.taskId(), Conversions.toState(pool, task, running)));
  }

  @Override
  public void taskRemoved(String taskId) {
    write(() -> store.tasks.remove(taskId));
  }

  @Override
  public void taskSpared(String taskId, int spared) {
    write(() -> {
      if (spared == 0) {
        store.split.spared.remove(taskId);
      } else {
        store.split.spared.put(taskId, spared);
      }
    });
  }

  @Override
  public void taskParked(String taskId, double until) {
    write(() -> {
      if (Double.isNaN(until)) {
        store.backoff.remove(taskId);
      } else {
        store.backoff.put(taskId, until);
      }
    });
  }

  @Override
  public void taskCancelling(String taskId, int attempt) {
    write(() -> {
      if (attempt < 0) {
        store.split.cancelling.remove(taskId);
      } else {
        store.split.cancelling.put(taskId, attempt);
      }
    });
  }

  @Override
  public void taskPreempting(String taskId, int attempt) {
    write(() -> {
      if (attempt < 0) {
        store.split.preempting.remove(taskId);
      } else {
        store.split.preempting.put(taskId, attempt);
      }
    });
  }

  @Override
  public void queuePreempted(String leaf, long count) {
    write(() -> store.split.queuePreempted.put(leaf, count));
  }

  @Override
  public void cacheAdded(String node, String file, long bytes) {
    write(() -> store.cache.put(PoolStore.pairKey(node, file), bytes));
  }

  @Override
  public void cacheRemoved(String node, String file) {
    write(() -> store.cache.remove(PoolStore.pairKey(node, file)));
  }

  private interface StateWrite {
    void run() throws Exception;
  }

  private static void write(StateWrite w) {
    try {
      w.run();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      // A state backend failure must fail the task so Flink restores from the last checkpoint.
      throw new IllegalStateException("keyed state write failed", e);
    }
  }
}
