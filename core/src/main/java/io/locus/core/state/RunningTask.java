package io.locus.core.state;

import io.locus.core.model.InputFetch;
import io.locus.core.model.Task;
import java.util.List;

/**
 * A task placed on a node and not yet finished. {@code peers} are the nodes it reads from.
 * {@code startTime} is when it was placed; {@code started}: its node reported STARTED (until then
 * it may wait in the node's local queue and can be withdrawn).
 */
public record RunningTask(Task task, String node, String decisionId, double startTime,
    List<String> peers, boolean started) {
  public RunningTask {
    peers = List.copyOf(peers);
  }

  public RunningTask(Task task, String node, String decisionId, double startTime,
      List<String> peers) {
    this(task, node, decisionId, startTime, peers, false);
  }

  /** The same attempt, reported STARTED by its node. */
  public RunningTask asStarted() {
    return started ? this : new RunningTask(task, node, decisionId, startTime, peers, true);
  }

  static List<String> peersOf(List<InputFetch> inputs) {
    return inputs.stream().filter(f -> f.peer() != null).map(InputFetch::peer).toList();
  }
}
