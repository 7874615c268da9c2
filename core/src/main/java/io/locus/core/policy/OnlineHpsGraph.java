package io.locus.core.policy;

import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import io.locus.core.staging.CostModel;
import io.locus.hypergraph.Hypergraph;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * BUILD_HYPERGRAPH of Online-HPS (hypergraph spec §2.2): one vertex per pending job and per node
 * running a job (fixed to its node); one net per file requested by a pending job, pinned by those
 * jobs and by the running nodes caching it (PRESENT or IN_FLIGHT), with cost = size in MiB; vertex
 * weights from Eqs. 5–6 with s_f = the net's pins (D3); single-pin nets dropped after weighting.
 */
public final class OnlineHpsGraph {
  /** A node running a job: what it still has to do, for w(u_k) (D6). */
  public record RunningNode(int part, Task job, Set<String> cache, Set<String> present,
      double readStart) {}

  /** The hypergraph, which vertex is which, and the fixed part of each vertex (−1: free). */
  public record Built(Hypergraph graph, List<Task> jobs, int[] fixed) {
    public int vertexOf(int jobIndex) {
      return jobIndex;
    }
  }

  private OnlineHpsGraph() {}

  /**
   * @param pending the pending jobs, in queue order (vertices 0..n−1)
   * @param running nodes that run a job (vertices n.., fixed to {@code part})
   * @param parts P, the number of compute nodes (for Tr_f)
   */
  public static Built build(List<Task> pending, List<RunningNode> running, CostModel cost,
      int parts, double now) {
    // nets: files requested by at least one pending job, in first-request order (deterministic)
    Map<String, List<Integer>> pins = new LinkedHashMap<>();
    Map<String, Long> size = new HashMap<>();
    for (int j = 0; j < pending.size(); j++) {
      for (InputFile u : pending.get(j).inputs()) {
        pins.computeIfAbsent(u.id(), f -> new ArrayList<>()).add(j);
        size.put(u.id(), u.bytes());
      }
    }
    int n = pending.size();
    for (int r = 0; r < running.size(); r++) {
      for (String f : running.get(r).cache()) {
        List<Integer> p = pins.get(f);
        if (p != null) {
          p.add(n + r);
        }
      }
    }
    Hypergraph.Builder b = Hypergraph.builder();
    for (Task t : pending) {
      double w = 0;
      for (InputFile u : t.inputs()) {
        w += perFile(cost, u.bytes(), pins.get(u.id()).size(), parts);
      }
      b.addVertex(w);
    }
    int[] fixed = new int[n + running.size()];
    java.util.Arrays.fill(fixed, 0, n, -1);
    for (int r = 0; r < running.size(); r++) {
      RunningNode rn = running.get(r);
      double w = 0;
      for (InputFile u : rn.job().inputs()) {
        if (rn.present().contains(u.id())) {
          w += CostModel.mib(u.bytes()) * (1 / cost.lbw() + cost.computePerMiB());
        } else {
          List<Integer> p = pins.get(u.id());
          w += perFile(cost, u.bytes(), p == null ? 1 : p.size(), parts);
        }
      }
      w -= Math.max(0, now - rn.readStart());
      b.addVertex(Math.max(0, w));
      fixed[n + r] = rn.part();
    }
    for (Map.Entry<String, List<Integer>> e : pins.entrySet()) {
      if (e.getValue().size() > 1) {
        b.addNet(CostModel.mib(size.get(e.getKey())),
            e.getValue().stream().mapToInt(Integer::intValue).toArray());
      }
    }
    return new Built(b.build(), pending, fixed);
  }

  private static double perFile(CostModel cost, long bytes, int sf, int parts) {
    return CostModel.mib(bytes)
        * (cost.trPerMiB(sf, parts) + 1 / cost.lbw() + cost.computePerMiB());
  }
}
