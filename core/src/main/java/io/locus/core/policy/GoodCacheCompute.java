package io.locus.core.policy;

import io.locus.core.state.PoolState;

/**
 * GCC (good-cache-compute): MCU while utilisation is below θ, MCH at or above it, re-evaluated
 * before every decision. θ = 1 behaves as MCU, θ = 0 as MCH.
 */
public final class GoodCacheCompute implements Policy, ExplainsPending, ChoosesPerTask {
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

  /** MCU's answer below θ, MCH's at or above it (the mode this decision takes). */
  @Override
  public TaskChooser chooser(PoolState s, double now) {
    return s.utilization() < theta ? PerTaskChoices.mcu(s, name() + "/MCU")
        : PerTaskChoices.mch(s, now, name() + "/MCH", "GCC in MCH mode runs a task only on a best"
            + " holder");
  }

  /** MCH's wait at or above θ (the mode the next decision takes), none below it (MCU). */
  @Override
  public Waits waits(PoolState s, double now) {
    return s.utilization() < theta ? NONE
        : MaxCacheHit.mchWaits(s, now, window, "GCC in MCH mode (utilisation >= theta "
            + theta + ") runs a task only on a best holder");
  }
}
