package io.locus.core.share;

import io.locus.core.model.ResourceVector;

/**
 * What one leaf queue holds at a decision: slots its running attempts take, its pending tasks, the
 * declared resources its running attempts use (the sum of their profiles; {@link ResourceVector#ZERO}
 * when the pool declares none) and the submission time of its oldest pending task (NaN when none
 * pends), for the per-queue maximum wait.
 */
public record QueueLoad(int running, int pending, ResourceVector resources,
    double oldestPendingSubmit) {
  public static final QueueLoad EMPTY = new QueueLoad(0, 0, ResourceVector.ZERO, Double.NaN);

  public QueueLoad {
    if (running < 0 || pending < 0) {
      throw new IllegalArgumentException("running and pending must be >= 0, got " + running + ", "
          + pending);
    }
    resources = resources == null ? ResourceVector.ZERO : resources;
  }

  /** A load of slots only. */
  public static QueueLoad of(int running, int pending) {
    return new QueueLoad(running, pending, ResourceVector.ZERO, Double.NaN);
  }

  public QueueLoad withOldestPending(double submitTime) {
    return new QueueLoad(running, pending, resources, submitTime);
  }

  public QueueLoad withResources(ResourceVector used) {
    return new QueueLoad(running, pending, used, oldestPendingSubmit);
  }
}
