package io.locus.workloads;

import java.util.Iterator;
import java.util.NoSuchElementException;

/** Iterator over jobs 0 … total−1, each built on demand, so no generator holds its whole trace. */
abstract class CountingIterator implements Iterator<TraceJob> {
  private final long total;
  private long next;

  CountingIterator(long total) {
    this.total = total;
  }

  /** Builds job {@code k}; called with k = 0, 1, … in order, exactly once each. */
  abstract TraceJob make(long k);

  @Override
  public final boolean hasNext() {
    return next < total;
  }

  @Override
  public final TraceJob next() {
    if (next >= total) {
      throw new NoSuchElementException();
    }
    return make(next++);
  }
}
