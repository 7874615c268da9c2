package io.locus.workloads;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks the job DAG of a workload ({@link TraceJob#parents()}): every parent is a job of the
 * workload, and there is no cycle. Memory grows with the jobs that have or are parents, not with
 * the workload, so a 2-million-job trace without parents costs one streaming pass.
 */
public final class TraceDag {
  private TraceDag() {}

  /**
   * Throws a {@link TraceFormatException} naming {@code source} for an unknown parent or a cycle
   * (with the jobs on it). Iterates {@code jobs} twice when some job has parents.
   */
  public static void check(Iterable<TraceJob> jobs, String source) {
    Map<String, List<String>> parents = new LinkedHashMap<>();
    Set<String> referenced = new HashSet<>();
    for (TraceJob j : jobs) {
      if (!j.parents().isEmpty()) {
        parents.put(j.jobId(), j.parents());
        referenced.addAll(j.parents());
      }
    }
    if (parents.isEmpty()) {
      return;
    }
    Set<String> found = new HashSet<>();
    for (TraceJob j : jobs) {
      if (referenced.contains(j.jobId())) {
        found.add(j.jobId());
      }
    }
    for (Map.Entry<String, List<String>> e : parents.entrySet()) {
      for (String p : e.getValue()) {
        if (!found.contains(p)) {
          throw TraceFormatException.at(source, null, "job '" + e.getKey()
              + "' names parent '" + p + "', which is not a job of the workload");
        }
      }
    }
    List<String> cycle = cycle(parents);
    if (!cycle.isEmpty()) {
      throw TraceFormatException.at(source, null, "the jobs' parents form a cycle: "
          + String.join(" -> ", cycle));
    }
  }

  /**
   * One cycle of the graph given as node → parents, in parent → child order starting at its
   * smallest id and ending with it again ({@code a -> b -> a}); empty if acyclic. Parents that are
   * not keys are roots.
   */
  public static List<String> cycle(Map<String, List<String>> parents) {
    // Kahn: peel off every node whose ancestors are acyclic; each node left has a parent left
    Map<String, Integer> missing = new HashMap<>();
    Map<String, List<String>> children = new HashMap<>();
    for (Map.Entry<String, List<String>> e : parents.entrySet()) {
      int n = 0;
      for (String p : new HashSet<>(e.getValue())) {
        if (parents.containsKey(p)) {
          n++;
          children.computeIfAbsent(p, k -> new ArrayList<>()).add(e.getKey());
        }
      }
      missing.put(e.getKey(), n);
    }
    List<String> ready = new ArrayList<>();
    missing.forEach((id, n) -> {
      if (n == 0) {
        ready.add(id);
      }
    });
    while (!ready.isEmpty()) {
      String id = ready.remove(ready.size() - 1);
      missing.remove(id);
      for (String c : children.getOrDefault(id, List.of())) {
        if (missing.merge(c, -1, Integer::sum) == 0) {
          ready.add(c);
        }
      }
    }
    if (missing.isEmpty()) {
      return List.of();
    }
    String cur = missing.keySet().stream().sorted().findFirst().orElseThrow();
    List<String> walk = new ArrayList<>();
    Map<String, Integer> at = new HashMap<>();
    while (!at.containsKey(cur)) {
      at.put(cur, walk.size());
      walk.add(cur);
      String next = null;
      for (String p : parents.get(cur)) {
        if (missing.containsKey(p)) {
          next = p;
          break;
        }
      }
      cur = next;
    }
    List<String> loop = new ArrayList<>(walk.subList(at.get(cur), walk.size()));
    Collections.reverse(loop); // the walk went child -> parent
    // start at the smallest id, so the message does not depend on where the walk began
    Collections.rotate(loop, -loop.indexOf(loop.stream().sorted().findFirst().orElseThrow()));
    loop.add(loop.get(0));
    return loop;
  }
}
