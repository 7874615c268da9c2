package io.locus.workloads.wf;

import java.util.LinkedHashSet;
import java.util.List;

/**
 * One task of a WfCommons workflow, the same whatever WfFormat version it was read from or will be
 * written as.
 *
 * @param id the task's unique id: {@code id} in WfFormat 1.5+, {@code name} before (1.0–1.4 refer
 *     to tasks by name)
 * @param name the task's name (1.5+: often the program or a category); null = same as id
 * @param category the program or kind of task ({@code category} in 1.2–1.4, {@code
 *     command.program} in 1.5+); null if the instance has none
 * @param type 1.0–1.4's {@code type} ({@code compute}, {@code transfer}, {@code auxiliary}); null
 *     if absent
 * @param runtimeSeconds recorded runtime in seconds, ≥ 0
 * @param parents ids of the tasks that must complete first (duplicates are dropped)
 * @param inputs ids of the files read, in order (duplicates are dropped)
 * @param outputs ids of the files written, in order (duplicates are dropped)
 */
public record WfTask(String id, String name, String category, String type, double runtimeSeconds,
    List<String> parents, List<String> inputs, List<String> outputs) {

  public WfTask {
    if (id == null || id.isEmpty()) {
      throw new IllegalArgumentException("task id is required");
    }
    if (!(runtimeSeconds >= 0) || Double.isInfinite(runtimeSeconds)) {
      throw new IllegalArgumentException("runtime of " + id + " must be finite and >= 0");
    }
    // duplicates carry no meaning in WfFormat; dropping them keeps the DAG's counts right
    parents = List.copyOf(new LinkedHashSet<>(parents));
    inputs = List.copyOf(new LinkedHashSet<>(inputs));
    outputs = List.copyOf(new LinkedHashSet<>(outputs));
  }
}
