package io.locus.core.policy;

import io.locus.core.model.Task;
import io.locus.core.staging.CostModel;
import io.locus.core.state.NodeView;
import io.locus.core.state.StagingState;
import java.util.List;

/**
 * SA (switching algorithm, hypergraph spec §2.6): maps with the MCT rule or the MET rule (both
 * counting IN_FLIGHT files), starting in MCT. After each mapping, with backlog_k = max(0, ready_k −
 * now) and ib = min backlog / max backlog (1 when all are 0, D20): MCT → MET when ib ≥ h, MET → MCT
 * when ib &lt; l. The mode lives in the pool's staging state, so it survives a restore.
 */
public final class Sa extends GanttStaging {
  public static final String MCT = "MCT";
  public static final String MET = "MET";
  public static final double DEFAULT_LOW = 0.3;
  public static final double DEFAULT_HIGH = 0.7;

  private final double low;
  private final double high;

  public Sa(CostModel cost, double low, double high) {
    super(cost);
    if (!(0 <= low && low <= high && high <= 1)) {
      throw new IllegalArgumentException("SA needs 0 ≤ l ≤ h ≤ 1, got l = " + low + ", h = " + high);
    }
    this.low = low;
    this.high = high;
  }

  @Override
  public String name() {
    return "SA";
  }

  /** The current mode of the pool's SA ("MCT" until the first switch). */
  public static String mode(StagingState st) {
    return st.mode() == null ? MCT : st.mode();
  }

  @Override
  NodeView map(Dispatch d, StagingState st, Task t, List<NodeView> nodes) {
    return MET.equals(mode(st))
        ? StagingRules.minExec(st, cost, t, nodes, true, d.now())
        : StagingRules.minCompletion(st, cost, t, nodes, true, d.now());
  }

  @Override
  void mapped(Dispatch d, StagingState st, List<NodeView> nodes) {
    double min = Double.POSITIVE_INFINITY;
    double max = 0;
    for (NodeView n : nodes) {
      double backlog = Math.max(0,
          StagingRules.ready(st, cost, n, StagingRules.local(st, n, true), d.now()) - d.now());
      min = Math.min(min, backlog);
      max = Math.max(max, backlog);
    }
    double ib = max == 0 ? 1 : min / max;
    String mode = mode(st);
    if (MCT.equals(mode) && ib >= high) {
      st.setMode(MET);
    } else if (MET.equals(mode) && ib < low) {
      st.setMode(MCT);
    }
  }
}
