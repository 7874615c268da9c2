package io.locus.workloads.wf;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A workflow as WfCommons describes it, independent of the WfFormat version: tasks (in file order)
 * and the sizes of the files they read and write.
 *
 * @param name the instance's {@code name}
 * @param description the instance's {@code description} (may be empty)
 * @param tasks the tasks, in the order of the instance
 * @param fileSizes file id → size in bytes, in order of first mention
 * @param warnings problems in fields scheduling does not read, each naming its JSON path (the
 *     reader reports them instead of refusing the instance)
 */
public record WfWorkflow(String name, String description, List<WfTask> tasks,
    Map<String, Long> fileSizes, List<String> warnings) {

  public WfWorkflow(String name, String description, List<WfTask> tasks,
      Map<String, Long> fileSizes) {
    this(name, description, tasks, fileSizes, List.of());
  }

  public WfWorkflow {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("workflow name is required");
    }
    description = description == null ? "" : description;
    tasks = List.copyOf(tasks);
    fileSizes = Collections.unmodifiableMap(new LinkedHashMap<>(fileSizes));
    warnings = warnings == null ? List.of() : List.copyOf(warnings);
  }

  /** Ids of the tasks that list {@code id} as a parent, in task order. */
  public List<String> children(String id) {
    return tasks.stream().filter(t -> t.parents().contains(id)).map(WfTask::id).toList();
  }

  /** Sum of the task runtimes, seconds. */
  public double totalRuntimeSeconds() {
    double sum = 0;
    for (WfTask t : tasks) {
      sum += t.runtimeSeconds();
    }
    return sum;
  }
}
