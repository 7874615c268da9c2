package io.locus.sim;

import io.locus.core.model.Command;
import io.locus.core.model.InputFetch;
import io.locus.core.model.InputFile;
import io.locus.core.model.InputSource;
import io.locus.core.model.Reason;
import io.locus.core.model.Task;
import io.locus.sim.exec.Cluster;
import io.locus.sim.exec.Executor;
import io.locus.sim.exec.TaskRun;
import io.locus.sim.provision.Lrm;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The {@code LRM_PER_TASK} baseline (spec §2.5): every released task is submitted to the LRM as its
 * own job (≤ 0.5 submissions/s, U[30, 60] s latency), gets a node of its own, runs there without
 * caching (inputs from storage) and gives the node back. There is no dispatcher and no policy.
 */
final class PerTaskPlacer implements TaskPlacer {
  private static final Reason REASON = new Reason("LRM_PER_TASK", 0.0, 0, 0, 0);
  private final Simulation sim;
  private final SimulationConfig cfg;
  private final Cluster cluster;
  private final Lrm lrm;
  private int waiting;
  private int running;
  private int live;
  private int nodeCounter;
  private long releases;
  /** Tasks that wait for their LRM node, and those of them cancelled meanwhile. */
  private final Set<String> waitingIds = new HashSet<>();
  private final Set<String> cancelledWaiting = new HashSet<>();
  private final Map<String, TaskRun> runs = new HashMap<>();

  PerTaskPlacer(Simulation sim) {
    this.sim = sim;
    this.cfg = sim.config();
    this.cluster = sim.cluster();
    this.lrm = sim.lrm();
  }

  @Override
  public void setup(double now) {
    // nothing is provisioned up front: every task asks for its own node
  }

  @Override
  public void released(Task task, double now) {
    waiting++;
    waitingIds.add(task.taskId());
    lrm.submit(1, now, new Lrm.Callback() {
      @Override
      public void granted(int nodes, double at) {
        if (cancelledWaiting.remove(task.taskId())) {
          lrm.release(1, at); // cancelled while it waited: the node goes straight back
          return;
        }
        waitingIds.remove(task.taskId());
        begin(task, at);
      }

      @Override
      public void refused(int nodes, double at) {
        if (cancelledWaiting.remove(task.taskId())) {
          return; // it ended when it was cancelled
        }
        waitingIds.remove(task.taskId());
        waiting--;
        sim.jobEnded(task, null, false, at); // an LRM without a single node: it can never run
      }
    });
  }

  /** Waiting for its node: it never runs. Running: it stops and its node goes back. */
  @Override
  public Cancelled cancel(String taskId, double now) {
    if (waitingIds.remove(taskId)) {
      waiting--;
      cancelledWaiting.add(taskId); // its LRM request is already in: the grant is given back
      return new Cancelled(false, 0.0);
    }
    TaskRun run = runs.remove(taskId);
    if (run == null) {
      throw new IllegalStateException("cancel of " + taskId + ": neither waiting nor running");
    }
    cluster.cancel(run, now);
    endRun(run, now);
    return new Cancelled(true, now - run.startTime());
  }

  private void begin(Task task, double now) {
    String id = String.format(Locale.ROOT, "job%05d", ++nodeCounter);
    cluster.addExecutor(id, cfg.slots(), 0, now);
    live++;
    sim.metrics().nodesNow(live);
    waiting--;
    running++;
    List<InputFetch> plan = new ArrayList<>(task.inputs().size());
    for (InputFile u : task.inputs()) {
      plan.add(new InputFetch(u, InputSource.STORAGE, null, false));
    }
    sim.recordDecision(now, new Command.Run(id, task, plan, REASON));
    runs.put(task.taskId(), cluster.start(task, plan, id, now));
  }

  @Override
  public void afterBatch(double now) {
    // no dispatcher
  }

  @Override
  public void cacheChanged(Executor node, long seq, Map<String, Long> added, List<String> removed,
      double now) {
    // nothing caches in this mode
  }

  @Override
  public void taskDone(TaskRun run, double now) {
    runs.remove(run.task().taskId());
    endRun(run, now);
    sim.jobEnded(run.task(), run, true, now);
  }

  /** The task's own node is given back. */
  private void endRun(TaskRun run, double now) {
    running--;
    cluster.release(run.node(), now);
    live--;
    releases++;
    lrm.release(1, now);
  }

  @Override
  public int queueLength() {
    return waiting;
  }

  @Override
  public int busySlots() {
    return running;
  }

  @Override
  public int registeredSlots() {
    return live * cfg.slots();
  }

  @Override
  public int registeredNodes() {
    return live;
  }

  @Override
  public int pendingNodes() {
    return lrm.pendingNodes();
  }

  @Override
  public long releases() {
    return releases;
  }

  @Override
  public long retries() {
    return 0;
  }

  @Override
  public long timeouts() {
    return 0;
  }

  @Override
  public long injectedFailures() {
    return 0;
  }
}
