package io.locus.core.policy;

/**
 * MCH (max-cache-hit): a task runs only on an executor holding the most of its data; if all such
 * executors are busy it waits, while other window tasks may still go (spec D6).
 */
public final class MaxCacheHit implements Policy {
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
}
