package io.locus.sim.hybrid.epoch;

import io.locus.core.model.Resource;
import java.util.ArrayList;
import java.util.List;

/**
 * What an {@link EpochScheduler} did: the job ids dispatched in each epoch, in dispatch order, and
 * for the round-robin schedulers the list the pointer designates after each epoch (null
 * otherwise). The makespan is the number of epochs (§6; × 10 min for wall-clock time).
 */
public record EpochSchedule(String scheduler, List<List<String>> epochs, List<Resource> ptrAfter) {
  public EpochSchedule {
    List<List<String>> copy = new ArrayList<>(epochs.size());
    for (List<String> e : epochs) {
      copy.add(List.copyOf(e));
    }
    epochs = List.copyOf(copy);
    ptrAfter = ptrAfter == null ? null : List.copyOf(ptrAfter);
  }

  public int makespan() {
    return epochs.size();
  }

  /** Jobs dispatched in all epochs. */
  public int jobs() {
    return epochs.stream().mapToInt(List::size).sum();
  }
}
