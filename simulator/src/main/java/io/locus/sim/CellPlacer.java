package io.locus.sim;

import io.locus.core.Scheduler;
import io.locus.core.model.Command;
import io.locus.core.model.Task;
import io.locus.core.policy.Policies;
import io.locus.core.state.PoolState;
import io.locus.core.state.StateJournal;
import io.locus.sim.exec.Executor;
import io.locus.sim.exec.TaskRun;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One pool split into cells, the design for a pool that outgrows one scheduler instance
 * (docs/architecture.md, "A pool larger than one operator"): the nodes are dealt round robin to
 * {@code cells} cells, each with its own {@link PoolState}, {@link Scheduler} and dispatcher (its
 * own τ_dispatch queue: in the streaming job, its own operator instance, keyed by pool and cell).
 * A coordinator routes each arriving task to one cell and never moves it afterwards:
 * <ol>
 *   <li>the cell whose best node holds the most of the task's bytes (maxCached in that cell);
 *   <li>unless that cell is more loaded than the least loaded cell by more than one task per slot
 *       (load = (queued + busy) / slots): then the least loaded cell, so a hot file cannot pile
 *       its whole stream onto one cell (never wait longer than the work locality saves);
 *   <li>ties: the lower load, then the lower cell index.
 * </ol>
 * Peers are read across cells (the cluster directory is the union of the cells' holder indexes).
 * SRP only, no injected failures or timeouts: it models throughput and locality, not recovery.
 * With one cell it is {@link SchedulerPlacer} without its dispatch gate.
 */
final class CellPlacer implements TaskPlacer {
  private static final class Cell {
    final PoolState state;
    final Scheduler scheduler;
    double dispatcherFreeAt;

    Cell(SimulationConfig cfg) {
      state = new PoolState(StateJournal.NONE, cfg.maxRetries());
      scheduler = new Scheduler(cfg.pool(), state, Policies.create(cfg.policy(),
          cfg.policyParams()));
    }

    double load() {
      int slots = state.registeredSlots();
      return slots == 0 ? Double.MAX_VALUE
          : (state.queueLength() + state.busySlots()) / (double) slots;
    }
  }

  private final Simulation sim;
  private final SimulationConfig cfg;
  private final List<Cell> cells = new ArrayList<>();
  private final Map<String, Cell> byNode = new HashMap<>();
  private final Map<String, Cell> byTask = new HashMap<>();
  /** The attempt each started task runs on the cluster (a cancel stops it). */
  private final Map<String, TaskRun> runs = new HashMap<>();
  private final long[] routed;
  private long routedAway;

  CellPlacer(Simulation sim) {
    this.sim = sim;
    this.cfg = sim.config();
    if (cfg.provisioning() != SimulationConfig.Provisioning.SRP) {
      throw new IllegalArgumentException("cells are modelled with SRP only, not "
          + cfg.provisioning());
    }
    if (cfg.replay().failureInjection() || cfg.replay().timeouts()) {
      throw new IllegalArgumentException("cells are modelled without failure injection and "
          + "timeouts");
    }
    if (cfg.cells() > cfg.nodes()) {
      throw new IllegalArgumentException("more cells (" + cfg.cells() + ") than nodes ("
          + cfg.nodes() + ")");
    }
    for (int i = 0; i < cfg.cells(); i++) {
      cells.add(new Cell(cfg));
    }
    routed = new long[cfg.cells()];
    sim.cluster().setDirectory(file -> {
      Set<String> all = new LinkedHashSet<>();
      for (Cell c : cells) {
        all.addAll(c.state.holders(file));
      }
      return all;
    });
    // DEMAND: a task queued in any cell may read a node's file (peers are read across cells)
    sim.cluster().setDemand(new io.locus.core.cache.FileDemand() {
      @Override
      public int queuedReaders(String file) {
        int n = 0;
        for (Cell c : cells) {
          n += c.state.queuedReaders(file);
        }
        return n;
      }

      @Override
      public int copies(String file) {
        Set<String> all = new LinkedHashSet<>();
        for (Cell c : cells) {
          all.addAll(c.state.holders(file));
        }
        return all.size();
      }
    });
  }

  /** Tasks routed to each cell, and those the load bound sent away from their best cell. */
  long[] routed() {
    return routed.clone();
  }

  long routedAway() {
    return routedAway;
  }

  @Override
  public void setup(double now) {
    for (int i = 0; i < cfg.nodes(); i++) {
      String id = String.format(Locale.ROOT, "n%05d", i + 1);
      Cell c = cells.get(i % cells.size());
      sim.cluster().addExecutor(id, cfg.slots(), cfg.cacheBytes(), now);
      c.scheduler.applyNodeRegistered(id, cfg.slots(), cfg.cacheBytes(), null, now);
      byNode.put(id, c);
    }
    sim.metrics().nodesNow(cfg.nodes());
  }

  @Override
  public void released(Task task, double now) {
    Cell best = null;
    long bestBytes = -1;
    Cell lightest = null;
    for (Cell c : cells) {
      long b = c.state.maxCached(task);
      if (b > bestBytes || (b == bestBytes && c.load() < best.load())) {
        best = c;
        bestBytes = b;
      }
      if (lightest == null || c.load() < lightest.load()) {
        lightest = c;
      }
    }
    Cell to = best;
    if (best.load() > lightest.load() + 1.0) {
      to = lightest;
      routedAway++;
    }
    routed[cells.indexOf(to)]++;
    byTask.put(task.taskId(), to);
    to.scheduler.applyJobArrival(task);
  }

  @Override
  public void cacheChanged(Executor node, long seq, Map<String, Long> added, List<String> removed,
      double now) {
    byNode.get(node.id()).scheduler.applyCacheDelta(node.id(), seq, added, removed);
  }

  @Override
  public void taskDone(TaskRun run, double now) {
    Task t = run.task();
    runs.remove(t.taskId());
    Cell c = byNode.get(run.node());
    PoolState.EndOutcome o = c.scheduler.applyTaskCompleted(t.taskId(), t.attempt(), run.node(),
        run.bytesLocal(), run.bytesPeer(), run.bytesStorage());
    if (o == PoolState.EndOutcome.COMPLETED) {
      byTask.remove(t.taskId());
      sim.jobEnded(t, run, true, now);
    }
  }

  @Override
  public Cancelled cancel(String taskId, double now) {
    Cell c = byTask.remove(taskId);
    if (c == null) {
      throw new IllegalStateException("cancel of " + taskId + ": no cell holds it");
    }
    return PoolCancel.cancel(c.scheduler, taskId, runs.remove(taskId), sim.cluster(), now);
  }

  @Override
  public void afterBatch(double now) {
    for (Cell c : cells) {
      for (Command cmd : c.scheduler.dispatch(now)) {
        sim.recordDecision(now, cmd);
        if (cmd instanceof Command.Run run) {
          startRun(c, run, now);
        } else if (cmd instanceof Command.Evict e) {
          sim.cluster().evict(e.node(), e.files(), now);
        } else if (cmd instanceof Command.Replicate r) {
          sim.cluster().replicate(r.node(), r.unit(), r.peer(), now);
        }
      }
    }
  }

  /** Each cell has its own dispatcher: placements of one cell queue behind each other only. */
  private void startRun(Cell c, Command.Run run, double now) {
    double tau = cfg.tauDispatch();
    if (tau <= 0) {
      begin(c, run, now);
      return;
    }
    double at = Math.max(now, c.dispatcherFreeAt) + tau;
    c.dispatcherFreeAt = at;
    sim.events().schedule(at, () -> begin(c, run, at));
  }

  private void begin(Cell c, Command.Run run, double now) {
    Task t = run.task();
    var current = c.state.running(t.taskId());
    if (current == null || current.task().attempt() != t.attempt()
        || !current.node().equals(run.node())) {
      return;
    }
    runs.put(t.taskId(), sim.cluster().start(t, run.inputs(), run.node(), now));
  }

  // ------------------------------------------------------------------ gauges and counters

  @Override
  public int queueLength() {
    return cells.stream().mapToInt(c -> c.state.queueLength()).sum();
  }

  @Override
  public int busySlots() {
    return cells.stream().mapToInt(c -> c.state.busySlots()).sum();
  }

  @Override
  public int registeredSlots() {
    return cells.stream().mapToInt(c -> c.state.registeredSlots()).sum();
  }

  @Override
  public int registeredNodes() {
    return cells.stream().mapToInt(c -> c.state.nodes().size()).sum();
  }

  @Override
  public int pendingNodes() {
    return 0;
  }

  @Override
  public long releases() {
    return 0;
  }

  @Override
  public long retries() {
    return cells.stream().mapToLong(c -> c.state.counters().retries).sum();
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
