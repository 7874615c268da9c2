package io.locus.core.split;

import java.util.List;

/**
 * A split pool's scalars, one entry of its state ({@link SplitJournal}).
 *
 * @param now the model clock: the latest input time (seconds)
 * @param jobSeq arrivals so far (the next job's arrival order)
 * @param replications third-remote-access replications so far
 * @param finished jobs finished and not yet drained, in finishing order
 */
public record PoolScalars(double now, long jobSeq, long replications, List<JobOutcome> finished) {
  public PoolScalars {
    finished = List.copyOf(finished);
  }
}
