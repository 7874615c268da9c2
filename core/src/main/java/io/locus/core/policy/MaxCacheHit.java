package io.locus.core.policy;

import io.locus.core.model.Task;
import io.locus.core.state.PoolState;

/**
 * MCH (max-cache-hit): a task runs only on an executor holding the most of its data; if all such
 * executors are busy it waits, while other window tasks may still go (spec D6).
 */
public final class MaxCacheHit implements Policy, ExplainsPending, ChoosesPerTask {
  private final int window;

  public MaxCacheHit(int window) {
    this.window = window;
  }

  @Override
  public String name() {
    return "MCH";
  }

  @Override
  public void dispatch(Dispatch d) {
    DataAwareDispatch.run(d, window, name(), s -> DataAwareDispatch.Mode.MCH);
  }

  @Override
  public TaskChooser chooser(PoolState s, double now) {
    return PerTaskChoices.mch(s, now, name(), "MCH runs a task only on a best holder");
  }

  /** A window task waits for a best holder, with no deadline (D6); past the window, its turn. */
  @Override
  public Waits waits(PoolState s, double now) {
    return mchWaits(s, now, window, "MCH runs a task only on a best holder");
  }

  static Waits mchWaits(PoolState s, double now, int window, String rule) {
    return new Waits() {
      @Override
      public DataWait dataWait(Task t, int position) {
        return position < window ? DataWaits.bestHolder(s, t, now, rule) : null;
      }
    };
  }
}
