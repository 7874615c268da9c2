package io.locus.core.policy;

/**
 * FCA (first-cache-available): FA placement, but executors cache what they read and read from
 * peers that hold a file (spec D1: data-unaware with caching).
 */
public final class FirstCacheAvailable implements Policy, ChoosesPerTask {
  @Override
  public String name() {
    return "FCA";
  }

  @Override
  public void dispatch(Dispatch d) {
    FirstAvailable.dispatchInOrder(d, name(), true);
  }

  @Override
  public TaskChooser chooser(io.locus.core.state.PoolState s, double now) {
    return PerTaskChoices.firstFree(s, name(), true);
  }
}
