package io.locus.core.policy;

/**
 * GCC (good-cache-compute): MCU while utilisation is below θ, MCH at or above it, re-evaluated
 * before every decision. θ = 1 behaves as MCU, θ = 0 as MCH.
 */
public final class GoodCacheCompute implements Policy {
  private final int window;
  private final double theta;

  public GoodCacheCompute(int window, double theta) {
    if (!(theta >= 0 && theta <= 1)) {
      throw new IllegalArgumentException("GCC threshold must be in [0, 1], got " + theta);
    }
    this.window = window;
    this.theta = theta;
  }

  @Override
  public String name() {
    return "GCC";
  }

  @Override
  public void dispatch(Dispatch d) {
    DataAwareDispatch.run(d, window, name(), s -> s.utilization() < theta
        ? DataAwareDispatch.Mode.MCU
        : DataAwareDispatch.Mode.MCH);
  }
}
