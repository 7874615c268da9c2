package io.locus.workloads;

import io.locus.core.model.ResourceVector;

/**
 * A job of the hybrid co-scheduling model (hybrid spec §0): not splittable, with a demand vector and a standalone
 * duration. {@code seq} is the submission order, which breaks every tie (stable sort, D3).
 * {@code kappa} ≥ 1 is the fluid model's interference multiplier (§1.4, D6; 1 = none). It lives
 * here, beside {@link HybridMix} which draws it, so that the simulator's hybrid models can use it
 * without the policy core knowing them.
 */
public record HybridJob(String id, long seq, ResourceVector demand, double arrival, double duration,
    double kappa) {
  public HybridJob {
    if (id == null || id.isEmpty()) {
      throw new IllegalArgumentException("a job needs an id");
    }
    if (demand == null) {
      throw new IllegalArgumentException("job " + id + " needs a demand vector");
    }
    if (!(arrival >= 0) || Double.isInfinite(arrival)) {
      throw new IllegalArgumentException("arrival of " + id + " must be finite and >= 0");
    }
    if (!(duration >= 0) || Double.isInfinite(duration)) {
      throw new IllegalArgumentException("duration of " + id + " must be finite and >= 0");
    }
    if (!(kappa >= 1) || Double.isInfinite(kappa)) {
      throw new IllegalArgumentException("kappa of " + id + " must be finite and >= 1 (D6)");
    }
  }

  /** A thesis-mode job: submitted at 0, one epoch long. */
  public static HybridJob of(String id, long seq, ResourceVector demand) {
    return new HybridJob(id, seq, demand, 0, 1, 1);
  }

  public HybridJob(String id, long seq, ResourceVector demand, double arrival, double duration) {
    this(id, seq, demand, arrival, duration, 1.0);
  }
}
