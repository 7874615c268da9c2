package io.locus.core.model;

/**
 * How one input of a placed task is obtained; {@code peer} is set only for PEER. {@code reservation}
 * is set only for a STORAGE input whose transfer the scheduler reserved on a storage node's Gantt
 * chart (Khanna MET/MCT/SA): the driver must run that transfer exactly in that interval.
 */
public record InputFetch(InputFile unit, InputSource source, String peer, boolean cache,
    Reservation reservation) {

  /** A reserved transfer: from {@code storageNode}, over [start, end) in pool time (seconds). */
  public record Reservation(int storageNode, double start, double end) {
    public Reservation {
      if (!(end >= start)) {
        throw new IllegalArgumentException("reservation ends before it starts: " + start + ", " + end);
      }
    }
  }

  /** An input without a reserved transfer (every data-diffusion placement). */
  public InputFetch(InputFile unit, InputSource source, String peer, boolean cache) {
    this(unit, source, peer, cache, null);
  }
}
