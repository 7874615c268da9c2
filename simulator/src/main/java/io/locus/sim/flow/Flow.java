package io.locus.sim.flow;

/**
 * One transfer of a fixed number of bytes over a set of resources (spec §1.4). Its rate is set by
 * the {@link FlowNetwork}; between two rate changes the flow progresses linearly, so only the bytes
 * left at the last change are stored, not updated continuously.
 */
public final class Flow {
  final long id;
  final int[] resources;
  /** Index of this flow in each resource's member list, parallel to {@link #resources}. */
  final int[] positions;
  final double bytes;
  final int category;
  final FlowOwner owner;

  double remaining;
  double lastUpdate;
  double rate;
  double finish = Double.POSITIVE_INFINITY;
  int heapIndex = -1;
  boolean active = true;
  /** Scratch marks of the network's last component walk and fill (avoid clearing sets). */
  int visitEpoch;
  int frozenEpoch;
  double newRate;

  Flow(long id, int[] resources, double bytes, int category, FlowOwner owner, double now) {
    this.id = id;
    this.resources = resources;
    this.positions = new int[resources.length];
    this.bytes = bytes;
    this.category = category;
    this.owner = owner;
    this.remaining = bytes;
    this.lastUpdate = now;
  }

  public long id() {
    return id;
  }

  public double bytes() {
    return bytes;
  }

  public int category() {
    return category;
  }

  public FlowOwner owner() {
    return owner;
  }

  /** Current rate in bytes per second (0 until the network has settled after the flow started). */
  public double rate() {
    return rate;
  }

  /** When the flow ends at its current rate; +∞ while it has no rate. */
  public double finish() {
    return finish;
  }

  public boolean active() {
    return active;
  }

  /** Bytes moved by {@code now}, assuming no rate change since the last settle. */
  public double transferred(double now) {
    double left = remaining - rate * (now - lastUpdate);
    return bytes - Math.max(0.0, left);
  }
}
