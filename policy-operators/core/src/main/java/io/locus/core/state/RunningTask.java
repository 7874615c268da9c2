package io.locus.core.state;

import io.locus.core.model.InputFetch;
import io.locus.core.model.Task;
import java.util.List;

/** A task placed on a node and not yet finished. {@code peers} are the nodes it reads from. */
public record RunningTask(Task task, String node, String decisionId, double startTime, List<String> peers) {
  public RunningTask {
    peers = List.copyOf(peers);
  }

  static List<String> peersOf(List<InputFetch> inputs) {
    return inputs.stream().filter(f -> f.peer() != null).map(InputFetch::peer).toList();
  }
}
