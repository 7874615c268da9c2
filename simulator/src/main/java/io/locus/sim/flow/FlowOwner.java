package io.locus.sim.flow;

/** Who is told when a flow has moved all its bytes. */
public interface FlowOwner {
  void flowDone(Flow flow, double now);
}
