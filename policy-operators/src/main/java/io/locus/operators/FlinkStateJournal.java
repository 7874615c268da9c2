package io.locus.operators;

import io.locus.core.model.Task;
import io.locus.core.state.NodeView;
import io.locus.core.state.RunningTask;
import io.locus.core.state.StateJournal;
import io.locus.schemas.state.NodeState;
import io.locus.schemas.state.TaskState;
import org.apache.flink.api.common.state.MapState;

/**
 * Writes every pool-state change through to Flink keyed state (RocksDB by default), one entry per
 * change, under the current key (the pool). The heap {@code PoolState} is then only a cache that
 * {@link SchedulerOperator} rebuilds from these maps after a restore.
 */
final class FlinkStateJournal implements StateJournal {
  static final char SEP = '\u0000';

  private final String pool;
  private final MapState<String, NodeState> nodes;
  private final MapState<String, TaskState> tasks;
  private final MapState<String, Long> cache;

  FlinkStateJournal(String pool, MapState<String, NodeState> nodes,
      MapState<String, TaskState> tasks, MapState<String, Long> cache) {
    this.pool = pool;
    this.nodes = nodes;
    this.tasks = tasks;
    this.cache = cache;
  }

  static String cacheKey(String node, String file) {
    return node + SEP + file;
  }

  @Override
  public void nodeUpdated(NodeView node) {
    write(() -> nodes.put(node.id(), Conversions.toState(node)));
  }

  @Override
  public void nodeRemoved(String node) {
    write(() -> nodes.remove(node));
  }

  @Override
  public void taskUpdated(Task task, RunningTask running) {
    write(() -> tasks.put(task.taskId(), Conversions.toState(pool, task, running)));
  }

  @Override
  public void taskRemoved(String taskId) {
    write(() -> tasks.remove(taskId));
  }

  @Override
  public void cacheAdded(String node, String file, long bytes) {
    write(() -> cache.put(cacheKey(node, file), bytes));
  }

  @Override
  public void cacheRemoved(String node, String file) {
    write(() -> cache.remove(cacheKey(node, file)));
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
