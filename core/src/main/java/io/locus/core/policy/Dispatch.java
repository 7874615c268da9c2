package io.locus.core.policy;

import io.locus.core.model.Command;
import io.locus.core.model.InputSource;
import io.locus.core.model.InputFetch;
import io.locus.core.model.Reason;
import io.locus.core.model.Task;
import io.locus.core.state.NodeView;
import io.locus.core.state.PoolState;
import io.locus.core.state.RunningTask;
import java.util.ArrayList;
import java.util.List;

/**
 * One dispatch round: gives a policy the state and the time, and turns each placement into a
 * {@link Command.Run} while updating the state at once, so the policy's next choice sees it.
 */
public final class Dispatch {
  private final String pool;
  private final PoolState state;
  private final double now;
  private final List<Command> out = new ArrayList<>();

  public Dispatch(String pool, PoolState state, double now) {
    this.pool = pool;
    this.state = state;
    this.now = now;
  }

  public PoolState state() {
    return state;
  }

  public double now() {
    return now;
  }

  public List<Command> commands() {
    return out;
  }

  /** Stable across replays: the same task attempt always gets the same decision id. */
  public static String decisionId(String pool, String taskId, int attempt) {
    return pool + "/" + taskId + "/" + attempt;
  }

  /** Places a queued task on a node with a free slot; {@code caching} false reads all from storage. */
  public Command.Run place(Task t, NodeView node, String policyLabel, boolean caching) {
    return placeWith(t, node, policyLabel, state.plan(t, node, caching), Double.NaN);
  }

  /**
   * Places a queued task with the given inputs, e.g. as a Khanna-family policy planned them (sources and
   * Gantt reservations from the staging state), and the completion it planned (NaN if none).
   */
  public Command.Run placeWith(Task t, NodeView node, String policyLabel,
      List<InputFetch> inputs, double plannedCompletion) {
    long local = 0;
    long peer = 0;
    long storage = 0;
    for (InputFetch f : inputs) {
      switch (f.source()) {
        case LOCAL -> local += f.unit().bytes();
        case PEER -> peer += f.unit().bytes();
        case STORAGE -> storage += f.unit().bytes();
      }
    }
    long total = local + peer + storage;
    double score = total == 0 ? 1.0 : (double) local / total;
    RunningTask r = state.assign(t, node.id(), inputs, decisionId(pool, t.taskId(), t.attempt()),
        now);
    Command.Run run = new Command.Run(r.node(), t, inputs,
        new Reason(policyLabel, score, local, peer, storage), plannedCompletion);
    out.add(run);
    return run;
  }

  /** Emits a command that is not a placement (EVICT, REPLICATE, ...), in decision order. */
  public void emit(Command c) {
    out.add(c);
  }

  static boolean anyLocal(List<InputFetch> plan) {
    return plan.stream().anyMatch(f -> f.source() == InputSource.LOCAL);
  }
}
