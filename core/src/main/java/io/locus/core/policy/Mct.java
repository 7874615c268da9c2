package io.locus.core.policy;

import io.locus.core.model.Task;
import io.locus.core.staging.CostModel;
import io.locus.core.state.NodeView;
import io.locus.core.state.StagingState;
import java.util.List;

/**
 * MCT (minimum completion time, hypergraph spec §2.5): at arrival, map the job for good to the
 * node with the least ready_k + Exec_k, counting PRESENT and IN_FLIGHT files, with nominal transfer
 * times (D19); ties to the lowest id. Each node runs its queue by min ECT with Gantt staging.
 */
public final class Mct extends GanttStaging {
  public Mct(CostModel cost) {
    super(cost);
  }

  @Override
  public String name() {
    return "MCT";
  }

  @Override
  NodeView map(Dispatch d, StagingState st, Task t, List<NodeView> nodes) {
    return StagingRules.minCompletion(st, cost, t, nodes, true, d.now());
  }
}
