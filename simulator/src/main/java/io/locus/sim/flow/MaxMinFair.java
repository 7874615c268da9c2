package io.locus.sim.flow;

/**
 * Max-min fair rates of a static set of flows (spec §1.4), for analysis and tests. It runs the very
 * {@link FlowNetwork} the simulator uses, so what it answers is what a simulation would do.
 */
public final class MaxMinFair {
  private MaxMinFair() {}

  /**
   * @param capacities capacity of each resource
   * @param flows for each flow, the indices of the resources it crosses
   * @return the rate of each flow
   */
  public static double[] rates(double[] capacities, int[][] flows) {
    FlowNetwork net = new FlowNetwork(1);
    for (double c : capacities) {
      net.addResource(c);
    }
    Flow[] fs = new Flow[flows.length];
    for (int i = 0; i < flows.length; i++) {
      fs[i] = net.start(0.0, flows[i].clone(), 1.0, 0, (f, t) -> { });
    }
    net.settle(0.0);
    double[] out = new double[flows.length];
    for (int i = 0; i < flows.length; i++) {
      out[i] = fs[i].rate();
    }
    return out;
  }
}
