package io.locus.core.share;

import io.locus.core.model.ResourceVector;

/**
 * What a pool offers at a decision: its slots, and the total of any declared resource (the sum of
 * its nodes' capacities, in the unit of the tasks' profiles; {@link ResourceVector#ZERO} when none is
 * declared, so shares are of slots alone). A dimension of zero capacity is not counted.
 */
public record PoolCapacity(int slots, ResourceVector resources) {
  public PoolCapacity {
    if (slots < 0) {
      throw new IllegalArgumentException("slots must be >= 0, got " + slots);
    }
    resources = resources == null ? ResourceVector.ZERO : resources;
  }

  public static PoolCapacity slots(int slots) {
    return new PoolCapacity(slots, ResourceVector.ZERO);
  }

  /**
   * The dominant share of a usage (Ghodsi et al.'s DRF): the largest of its slots' fraction of the
   * pool's slots and each declared resource's fraction of the pool's total of it.
   */
  public double dominantShare(int slotsUsed, ResourceVector used) {
    double s = slots == 0 ? (slotsUsed > 0 ? Double.POSITIVE_INFINITY : 0) : (double) slotsUsed / slots;
    ResourceVector f = used.dividedBy(resources);
    return Math.max(s, f.peak());
  }
}
