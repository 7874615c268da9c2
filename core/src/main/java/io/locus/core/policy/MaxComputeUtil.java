package io.locus.core.policy;

/**
 * MCU (max-compute-util): never leaves a free slot idle while tasks wait; each free executor gets
 * the window tasks with the highest local hit fraction on it.
 */
public final class MaxComputeUtil implements Policy, ChoosesPerTask {
  private final int window;

  public MaxComputeUtil(int window) {
    this.window = window;
  }

  @Override
  public String name() {
    return "MCU";
  }

  @Override
  public void dispatch(Dispatch d) {
    DataAwareDispatch.run(d, window, name(), s -> DataAwareDispatch.Mode.MCU);
  }

  @Override
  public TaskChooser chooser(io.locus.core.state.PoolState s, double now) {
    return PerTaskChoices.mcu(s, name());
  }
}
