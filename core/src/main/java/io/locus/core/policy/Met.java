package io.locus.core.policy;

import io.locus.core.model.Task;
import io.locus.core.staging.CostModel;
import io.locus.core.state.NodeView;
import io.locus.core.state.StagingState;
import java.util.List;

/**
 * MET (minimum execution time, hypergraph spec §2.4): at arrival, map the job for good to the node
 * with the least Exec_k counting only PRESENT files (queue wait ignored); among those the smallest
 * ready_k, then the lowest id (D18). Each node runs its queue by min ECT with Gantt staging.
 */
public final class Met extends GanttStaging {
  public Met(CostModel cost) {
    super(cost);
  }

  @Override
  public String name() {
    return "MET";
  }

  @Override
  NodeView map(Dispatch d, StagingState st, Task t, List<NodeView> nodes) {
    return StagingRules.minExec(st, cost, t, nodes, false, d.now());
  }
}
