package io.locus.bench;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Reports placements per second beside operations per second: under MCH a free slot may stay idle
 * (its best holders are busy), so an operation does not always place a task.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.OPERATIONS)
public class Placements {
  public long placements;

  @Setup(Level.Iteration)
  public void reset() {
    placements = 0;
  }
}
