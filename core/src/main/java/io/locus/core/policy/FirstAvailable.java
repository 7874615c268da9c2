package io.locus.core.policy;

import io.locus.core.model.Task;
import io.locus.core.state.NodeView;
import io.locus.core.state.PoolState;
import java.util.Iterator;

/**
 * FA (first-available): the queue head goes to the first free executor. Data-unaware; executors
 * neither cache nor read from peers, every access goes to storage (spec D30). The baseline.
 */
public final class FirstAvailable implements Policy, ChoosesPerTask {
  @Override
  public String name() {
    return "FA";
  }

  @Override
  public void dispatch(Dispatch d) {
    dispatchInOrder(d, name(), false);
  }

  @Override
  public TaskChooser chooser(PoolState s, double now) {
    return PerTaskChoices.firstFree(s, name(), false);
  }

  /** Head of the queue to the first free node, m = its free slots per notification (spec D4). */
  static void dispatchInOrder(Dispatch d, String label, boolean caching) {
    PoolState s = d.state();
    while (s.queueLength() > 0 && s.firstFree() != null) {
      NodeView e = s.firstFree();
      int m = e.placeable();
      Iterator<Task> it = s.queue().iterator();
      Task[] batch = new Task[Math.min(m, s.queueLength())];
      for (int i = 0; i < batch.length; i++) {
        batch[i] = it.next();
      }
      for (Task t : batch) {
        d.place(t, e, label, caching);
      }
    }
  }
}
