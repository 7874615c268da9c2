package io.locus.sim.exec;

import java.util.List;
import java.util.Map;

/** What the cluster reports to the driver and the metrics. */
public interface ClusterListener {
  /** A node's cache changed: tell the scheduler at once (spec §3.4, D8). */
  void cacheChanged(Executor node, long seq, Map<String, Long> added, List<String> removed,
      double now);

  /** One input access of a task completed; {@code source} is Cluster.LOCAL, PEER or STORAGE. */
  void readDone(TaskRun run, int source, long bytes, double now);

  /** A transfer was cut short (its peer left or its task was cancelled); bytes moved so far. */
  void bytesAborted(int source, double bytes, double now);

  /** A task attempt finished: reads, compute and delivery are done. */
  void taskDone(TaskRun run, double now);
}
