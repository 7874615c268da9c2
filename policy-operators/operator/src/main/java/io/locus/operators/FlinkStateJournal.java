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
  private final StagingMaps staging;

  /** The Khanna family's scheduler-managed state (caches, stats, Gantt charts, mappings). */
  record StagingMaps(
      MapState<String, StagedEntry> staged,
      MapState<String, FileStat> fileStats,
      MapState<String, Double> gantt,
      MapState<String, String> mapping,
      MapState<String, NodeStage> stages,
      MapState<String, Integer> refs) {}

  FlinkStateJournal(String pool, MapState<String, NodeState> nodes,
      MapState<String, TaskState> tasks, MapState<String, Long> cache, StagingMaps staging) {
    this.pool = pool;
    this.nodes = nodes;
    this.tasks = tasks;
    this.cache = cache;
    this.staging = staging;
  }

  static String cacheKey(String node, String file) {
    return node + SEP + file;
  }

  /** Exact for any double: the start's bits, so a restored chart has the very same interval. */
  static String ganttKey(int storageNode, double start) {
    return storageNode + "" + SEP + Long.toHexString(Double.doubleToRawLongBits(start));
  }

  static double ganttStart(String key) {
    return Double.longBitsToDouble(Long.parseUnsignedLong(key.substring(key.indexOf(SEP) + 1), 16));
  }

  static int ganttNode(String key) {
    return Integer.parseInt(key.substring(0, key.indexOf(SEP)));
  }

  @Override
  public void stagedFileUpdated(String node, String file, long bytes, boolean inFlight,
      double lastUse) {
    write(() -> staging.staged().put(cacheKey(node, file), new StagedEntry(bytes, inFlight, lastUse)));
  }

  @Override
  public void stagedFileRemoved(String node, String file) {
    write(() -> staging.staged().remove(cacheKey(node, file)));
  }

  @Override
  public void fileStatsUpdated(String file, long accessFreq, int numCopies) {
    write(() -> {
      if (accessFreq == 0 && numCopies == 0) {
        staging.fileStats().remove(file);
      } else {
        staging.fileStats().put(file, new FileStat(accessFreq, numCopies));
      }
    });
  }

  @Override
  public void ganttReserved(int storageNode, double start, double end) {
    write(() -> staging.gantt().put(ganttKey(storageNode, start), end));
  }

  @Override
  public void ganttDropped(int storageNode, double start) {
    write(() -> staging.gantt().remove(ganttKey(storageNode, start)));
  }

  @Override
  public void taskMapped(String taskId, String node) {
    write(() -> {
      if (node == null) {
        staging.mapping().remove(taskId);
      } else {
        staging.mapping().put(taskId, node);
      }
    });
  }

  @Override
  public void nodeStageUpdated(String node, String taskId, double plannedCompletion) {
    write(() -> {
      if (taskId == null) {
        staging.stages().remove(node);
      } else {
        staging.stages().put(node, new NodeStage(taskId, plannedCompletion));
      }
    });
  }

  @Override
  public void refCountUpdated(String node, String file, int count) {
    write(() -> {
      if (count == 0) {
        staging.refs().remove(cacheKey(node, file));
      } else {
        staging.refs().put(cacheKey(node, file), count);
      }
    });
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
